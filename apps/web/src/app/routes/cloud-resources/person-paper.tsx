import { MyPapersScreen } from '../../../features/cloud/components/my-papers';

/** 我的试卷. */
export function Component() {
  return <MyPapersScreen />;
}
