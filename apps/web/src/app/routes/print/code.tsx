import { ComingSoon } from '../../../components/page';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';

/** printCode: owned by a later issue; its title and what it will do. */
export function Component() {
  return <ComingSoon screen="printCode" back={{ to: paths.paperlist, label: t.nav.paperlist }} />;
}
