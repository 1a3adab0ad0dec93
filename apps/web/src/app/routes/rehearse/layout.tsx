import { paths } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={t.rehearse.title}
      tabs={[
        { to: paths.rehearse.select, label: t.rehearse.select },
        { to: paths.rehearse.intellect, label: SCREENS.rehearseIntellect.title },
        { to: paths.rehearse.synchronization, label: SCREENS.rehearseSynchronization.title },
        { to: paths.rehearse.goods, label: SCREENS.rehearseGoods.title },
        { to: paths.rehearse.mistakes, label: SCREENS.rehearseMistakes.title },
      ]}
    />
  );
}
