import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { InviteScreen } from '../../features/invite/components/invite-screen';
import { inviteHref } from '../../features/invite/api/invite';

/**
 * 邀请加入: `#token=` from the link or QR code an administrator shared (the fragment never reaches a server). A link
 * of the old form (`?token=`) still opens, and is rewritten at once so the token leaves the address bar's query.
 */
export function Component() {
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const fromHash = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  const fromQuery = new URLSearchParams(search).get('token');
  const token = fromHash ?? fromQuery;
  useEffect(() => {
    if (!fromHash && fromQuery) void navigate(inviteHref(fromQuery), { replace: true });
  }, [fromHash, fromQuery, navigate]);
  return <InviteScreen token={token} />;
}
