import { MemberScreen } from '../../../features/team/components/member-screen';
import { useSession } from '../../../lib/session';

/** 团队管理: members and invitations, for the school's administrators. */
export function Component() {
  const { user } = useSession();
  return <MemberScreen orgId={user?.orgDefaultId ?? null} />;
}
