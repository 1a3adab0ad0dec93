import { Page } from '../../../components/page';
import { SCREENS } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { DefaultSettingsScreen } from '../../../features/paper-settings/components/default-settings-screen';

/** 试题设置: the teacher's default paper settings, with the /paperset form. */
export function Component() {
  return (
    <Page title={SCREENS.cloudPaperSetting.title} lead={composition.paperset.defaultsLead} wide>
      <DefaultSettingsScreen />
    </Page>
  );
}
