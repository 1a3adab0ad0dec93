import { paths } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={t.analysis.title}
      tabs={[
        { to: paths.analysis.grade, label: SCREENS.analysisGrade.title },
        { to: paths.analysis.class, label: SCREENS.analysisClass.title },
        { to: paths.analysis.person, label: SCREENS.analysisPerson.title },
      ]}
    />
  );
}
