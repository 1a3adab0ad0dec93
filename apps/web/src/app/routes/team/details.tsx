import { useSearchParams } from 'react-router-dom';
import { SchoolSettingsScreen } from '../../../features/school/components/school-settings';
import { useSession } from '../../../lib/session';

/** 学校设置 (SPEC §2: query orgId, isCreator, isAdministrator — the flags are hints; the host decides). */
export function Component() {
  const [params] = useSearchParams();
  const { user } = useSession();
  const orgId = params.get('orgId') || null;
  return <SchoolSettingsScreen orgId={orgId} hasSchool={Boolean(user?.orgDefaultId)} />;
}
