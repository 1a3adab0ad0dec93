import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { StoredUser } from '@zhzy/api-client';
import { ChevronDownIcon, ScanIcon } from '../../../components/icons';
import { Logo } from '../../../components/logo';
import { Button } from '../../../components/ui/button';
import { Menu, type MenuEntry } from '../../../components/ui/menu';
import { imageUrl } from '../../../config/env';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { TopMenu } from './top-menu';

/** The user's avatar, or the first character of the name on a blue disc. */
export function Avatar({
  user,
  size = 32,
}: {
  user: Pick<StoredUser, 'avatar' | 'nickname' | 'username'>;
  size?: number;
}) {
  const src = imageUrl(user.avatar);
  const name = user.nickname || user.username;
  if (src) return <img src={src} alt="" width={size} height={size} className="rounded-full object-cover" />;
  // The initial stands in for the photo (whose alt is empty): a picture, not text. CSS draws it, so that it is no
  // part of the user menu button's visible label, which its accessible name must contain (WCAG 2.5.3).
  return (
    <span
      aria-hidden="true"
      data-initial={name.slice(0, 1)}
      style={{ width: size, height: size }}
      className="inline-flex items-center justify-center rounded-full bg-blue-100 text-sm font-medium text-blue-700 before:content-[attr(data-initial)]"
    />
  );
}

/** The user menu: 个人中心, 学校设置 (only with a default school), 退出登录. */
export function userMenuEntries(user: StoredUser, onSignOut: () => void): MenuEntry[] {
  const entries: MenuEntry[] = [{ kind: 'link', label: t.topBar.userset, to: paths.userset }];
  if (user.orgDefaultId) {
    entries.push({
      kind: 'link',
      label: t.topBar.schoolSettings,
      to: paths.schoolSettings({
        orgId: user.orgDefaultId,
        isCreator: user.isCreator,
        isAdministrator: user.isAdministrator,
      }),
    });
  }
  entries.push(
    { kind: 'separator', key: 'sep' },
    { kind: 'action', label: t.topBar.signOut, onSelect: onSignOut, danger: true },
  );
  return entries;
}

function BrandLogo({ user }: { user: StoredUser | null }) {
  const school = imageUrl(user?.orgLogo) ?? imageUrl(user?.logoPath);
  if (school) {
    return (
      <img
        src={school}
        alt={t.topBar.schoolLogo(user?.orgName ?? '')}
        className="h-9 w-auto max-w-40 object-contain"
      />
    );
  }
  return <Logo />;
}

/**
 * The top bar of SPEC §2: logo, menu, default school year, scan icon, avatar and username with the user
 * menu; a register/login link when signed out.
 */
export function TopBar({
  user,
  yearSlot,
  onScan,
  onSignOut,
  onLogin,
}: {
  user: StoredUser | null;
  yearSlot?: ReactNode;
  onScan: () => void;
  onSignOut: () => void;
  onLogin: () => void;
}) {
  return (
    <header
      className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur"
      data-testid="top-nav"
    >
      <div className="mx-auto flex h-16 max-w-[1400px] items-center gap-2 px-3 sm:gap-4 sm:px-6">
        <Link
          to={user ? paths.paperlist : paths.home}
          aria-label={t.topBar.logo}
          className="flex shrink-0 items-center rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-blue-600"
        >
          <span className="hidden sm:inline-flex">
            <BrandLogo user={user} />
          </span>
          <span className="sm:hidden">
            <Logo withText={false} />
          </span>
        </Link>
        {user && <TopMenu gradeDirector={user.gradeDirector} administrator={user.isAdministrator} />}
        <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-3">
          {user ? (
            <>
              {yearSlot}
              <button
                type="button"
                onClick={onScan}
                data-testid="scan-bar"
                aria-label={t.topBar.scan}
                title={t.topBar.scan}
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <ScanIcon className="size-5" />
              </button>
              <Menu
                label={t.topBar.userMenu(user.nickname || user.username)}
                buttonClassName="h-9 shrink-0 px-1.5 text-sm text-slate-700 hover:bg-slate-100"
                button={
                  <>
                    <Avatar user={user} />
                    <span
                      className="hidden max-w-28 truncate md:inline lg:hidden xl:inline"
                      data-testid="user-name"
                    >
                      {user.nickname || user.username}
                    </span>
                    <ChevronDownIcon className="hidden size-4 text-slate-500 md:block lg:hidden xl:block" />
                  </>
                }
                items={userMenuEntries(user, onSignOut)}
              />
            </>
          ) : (
            <Button variant="link" onClick={onLogin}>
              {t.topBar.loginRegister}
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
