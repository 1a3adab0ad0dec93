import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '@zhzy/contracts';
import { paths } from '../../config/paths';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { openAuthDialog } from '../../features/auth/hooks/use-auth-dialog';
import { BasketButton } from '../../features/basket/components/basket-popover';
import { SideBar, sideItemClass } from '../../features/layout/components/side-bar';
import { TopBar } from '../../features/layout/components/top-bar';
import { useSchoolYears } from '../../features/school-year/api/school-years';
import { SchoolYearSelect } from '../../features/school-year/components/school-year-select';

/**
 * The signed-in chrome, in its own chunk so the visitor page `/` never loads Headless UI: the top bar wired
 * to the session, the school years and the login box; the side bar with the basket.
 */
export function AppTopBar() {
  const { user } = useSession();
  const navigate = useNavigate();
  const orgId = user?.orgDefaultId ?? null;
  const { data: years } = useSchoolYears(orgId);
  return (
    <TopBar
      user={user}
      yearSlot={<SchoolYearSelect orgId={orgId} />}
      onLogin={() => openAuthDialog('login')}
      onSignOut={() => void api.signOut()}
      onScan={() => {
        // SPEC §8: scanning needs a school year.
        if (!years?.some((y) => y.isDefault)) {
          toast.error(MESSAGES.scanNeedsYear);
          return;
        }
        void navigate(paths.scan);
      }}
    />
  );
}

export function AppSideBar() {
  return <SideBar basketSlot={<BasketButton buttonClassName={sideItemClass} />} />;
}
