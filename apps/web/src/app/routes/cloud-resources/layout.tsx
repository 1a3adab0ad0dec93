import { paths } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={t.cloud.title}
      tabs={[
        { to: paths.cloudResources.personPaper, label: SCREENS.cloudPersonPaper.title },
        { to: paths.cloudResources.schoolPaper, label: SCREENS.cloudSchoolPaper.title },
        { to: paths.cloudResources.schoolTestQuestions, label: SCREENS.cloudSchoolQuestions.title },
        { to: paths.cloudResources.recycleBin, label: SCREENS.cloudRecycleBin.title },
      ]}
    />
  );
}
