import { SchoolPapersScreen } from '../../../features/cloud/components/school-papers';

/** 校本资源: papers shared to the school. */
export function Component() {
  return <SchoolPapersScreen />;
}
