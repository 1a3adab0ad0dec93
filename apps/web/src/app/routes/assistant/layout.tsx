import { paths } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { SectionLayout } from '../section-layout';

export function Component() {
  return (
    <SectionLayout
      title={t.assistant.title}
      tabs={[
        { to: paths.assistant.analysis, label: SCREENS.assistantAnalysis.title },
        { to: paths.assistant.commentary, label: SCREENS.assistantCommentary.title },
        { to: paths.assistant.details, label: SCREENS.assistantDetails.title },
        { to: paths.assistant.report, label: SCREENS.assistantReport.title },
      ]}
    />
  );
}
