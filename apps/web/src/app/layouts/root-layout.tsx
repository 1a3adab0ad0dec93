import { Suspense, lazy, useEffect, useLayoutEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useNavigation } from 'react-router-dom';
import { MESSAGES } from '@zhzy/contracts/messages';
import { SkeletonLines } from '../../components/ui/skeleton';
import { paths } from '../../config/paths';
import { t } from '../../i18n/zh-CN';
import { setBusy } from '../../lib/progress';
import { guard, layoutFor } from '../../lib/route-rules';
import { animateScrollTo } from '../../lib/scroll';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { useAuthDialog } from '../../features/auth/hooks/use-auth-dialog';
import { Footer } from '../../features/layout/components/footer';

const AppTopBar = lazy(() => import('./app-chrome').then((m) => ({ default: m.AppTopBar })));
const AppSideBar = lazy(() => import('./app-chrome').then((m) => ({ default: m.AppSideBar })));
const AuthDialog = lazy(() => import('../../features/auth/components/auth-dialog'));

/** Scrolls to the top on every navigation (or to the #anchor when there is one). */
function ScrollToTop() {
  const { pathname, search, hash } = useLocation();
  useLayoutEffect(() => {
    if (hash) {
      const el = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (el) {
        void animateScrollTo(el.getBoundingClientRect().top + window.scrollY);
        return;
      }
    }
    window.scrollTo(0, 0);
  }, [pathname, search, hash]);
  return null;
}

/** Feeds route loading (lazy chunks) into the top progress bar. */
function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const was = useRef(false);
  useEffect(() => {
    if (busy === was.current) return;
    was.current = busy;
    setBusy(busy);
  }, [busy]);
  useEffect(
    () => () => {
      if (was.current) setBusy(false);
    },
    [],
  );
  return null;
}

/** Keeps the top bar's height while its chunk loads, so the page does not jump. */
function TopBarPlaceholder() {
  return <div className="h-16 border-b border-slate-200 bg-white" aria-hidden="true" />;
}

/** The login box, loaded the first time it opens. */
function LazyAuthDialog() {
  const { open } = useAuthDialog();
  const navigate = useNavigate();
  const opened = useRef(false);
  opened.current ||= open;
  if (!opened.current) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialog onSignedIn={() => void navigate(paths.signedInHome, { replace: true })} />
    </Suspense>
  );
}

/** The app frame: guard, layout rules (top nav, side bar, footer), the screen and the login box. */
export function RootLayout() {
  const { pathname } = useLocation();
  const session = useSession();
  const decision = guard(pathname, {
    signedIn: session.signedIn,
    gradeDirector: session.user?.gradeDirector === true,
  });
  const forbidden = decision?.reason === 'forbidden';
  useEffect(() => {
    if (forbidden) toast.error(MESSAGES.forbidden);
  }, [forbidden, pathname]);

  if (decision) return <Navigate to={decision.redirect} replace />;
  const parts = layoutFor(pathname);

  return (
    <div
      className={
        parts.sideBar && session.signedIn
          ? 'flex min-h-screen flex-col bg-slate-50 pb-16 text-slate-800 sm:pb-0'
          : 'flex min-h-screen flex-col bg-slate-50 text-slate-800'
      }
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[80] focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t.skipToContent}
      </a>
      <ScrollToTop />
      <NavigationProgress />
      {parts.topNav && (
        <Suspense fallback={<TopBarPlaceholder />}>
          <AppTopBar />
        </Suspense>
      )}
      <main
        id="main"
        tabIndex={-1}
        className={parts.sideBar && session.signedIn ? 'flex-1 sm:pr-20 xl:pr-24' : 'flex-1'}
      >
        <Suspense
          fallback={
            <div className="mx-auto max-w-6xl px-6 py-10">
              <SkeletonLines lines={6} />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      {parts.footer && <Footer aboutHref={session.signedIn ? paths.aboutUs : `${paths.home}#about`} />}
      {parts.sideBar && session.signedIn && (
        <Suspense fallback={null}>
          <AppSideBar />
        </Suspense>
      )}
      <LazyAuthDialog />
    </div>
  );
}
