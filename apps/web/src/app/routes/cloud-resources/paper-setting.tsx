import { ComingSoon } from '../../../components/page';

/** cloudPaperSetting: owned by a later issue; its title and what it will do. */
export function Component() {
  return <ComingSoon screen="cloudPaperSetting" />;
}
