import { useSearchParams } from 'react-router-dom';
import { InviteScreen } from '../../features/invite/components/invite-screen';

/** 邀请加入: `?token=` from the link or QR code an administrator shared. */
export function Component() {
  const [params] = useSearchParams();
  return <InviteScreen token={params.get('token')} />;
}
