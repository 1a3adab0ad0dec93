import { RecycleBinScreen } from '../../../features/cloud/components/recycle-bin';

/** 回收站. */
export function Component() {
  return <RecycleBinScreen />;
}
