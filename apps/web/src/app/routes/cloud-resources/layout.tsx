import { paths } from '../../../config/paths';
import { SCREENS } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={composition.cloud.title}
      tabs={[
        { to: paths.cloudResources.personPaper, label: SCREENS.cloudPersonPaper.title },
        { to: paths.cloudResources.schoolPaper, label: SCREENS.cloudSchoolPaper.title },
        { to: paths.cloudResources.schoolTestQuestions, label: SCREENS.cloudSchoolQuestions.title },
        { to: paths.cloudResources.recycleBin, label: SCREENS.cloudRecycleBin.title },
      ]}
    />
  );
}
