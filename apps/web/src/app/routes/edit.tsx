import { ComposeScreen } from '../../features/compose/components/compose-screen';

/** 组卷中心: composition from the basket (type=2) or of a saved paper (new papers get the teacher's defaults on the host). */
export function Component() {
  return <ComposeScreen />;
}
