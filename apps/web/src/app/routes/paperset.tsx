import { PapersetScreen } from '../../features/paper-settings/components/paperset-screen';

/** 试卷设置: layout of one paper (?paperId=…) with a live preview. */
export function Component() {
  return <PapersetScreen />;
}
