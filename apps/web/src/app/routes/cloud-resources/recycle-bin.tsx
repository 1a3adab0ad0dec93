import { ComingSoon } from '../../../components/page';

/** cloudRecycleBin: owned by a later issue; its title and what it will do. */
export function Component() {
  return <ComingSoon screen="cloudRecycleBin" nested />;
}
