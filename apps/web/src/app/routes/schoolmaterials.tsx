import { MaterialsScreen } from '../../features/materials/components/materials-screen';

/** 校本资料: the school's shared files in folders — upload, preview, download, search, recycle bin. */
export function Component() {
  return <MaterialsScreen />;
}
