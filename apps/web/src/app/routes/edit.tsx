import { ComposeScreen } from '../../features/compose/components/compose-screen';
import { applyTeacherDefaults } from '../../features/paper-settings/api/defaults';

/** 组卷中心: composition from the basket (type=2) or of a saved paper; new papers take the teacher's settings. */
export function Component() {
  return <ComposeScreen onOpened={applyTeacherDefaults} />;
}
