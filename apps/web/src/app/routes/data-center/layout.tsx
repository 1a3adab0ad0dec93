import { paths } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={t.dataCenter.title}
      lead={t.dataCenter.lead}
      tabs={[
        { to: paths.dataCenter.subject, label: SCREENS.dataSubject.title },
        { to: paths.dataCenter.correctScore, label: SCREENS.dataCorrectScore.title },
        { to: paths.dataCenter.averageScore, label: SCREENS.dataAverageScore.title },
      ]}
    />
  );
}
