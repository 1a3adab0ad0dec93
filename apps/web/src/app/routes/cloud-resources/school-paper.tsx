import { ComingSoon } from '../../../components/page';

/** cloudSchoolPaper: owned by a later issue; its title and what it will do. */
export function Component() {
  return <ComingSoon screen="cloudSchoolPaper" nested />;
}
