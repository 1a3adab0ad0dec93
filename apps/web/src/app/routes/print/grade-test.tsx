import { ComingSoon } from '../../../components/page';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';

/** printGradeTest: owned by a later issue; its title and what it will do. */
export function Component() {
  return <ComingSoon screen="printGradeTest" back={{ to: paths.paperlist, label: t.nav.paperlist }} />;
}
