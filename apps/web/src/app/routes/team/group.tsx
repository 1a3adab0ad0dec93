import { GroupScreen } from '../../../features/team/components/group-screen';
import { useSession } from '../../../lib/session';

/** 我的团队: teaching groups (教研组 / 备课组); administrators manage them. */
export function Component() {
  const { user } = useSession();
  return <GroupScreen orgId={user?.orgDefaultId ?? null} />;
}
