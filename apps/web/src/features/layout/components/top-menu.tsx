import { NavLink } from 'react-router-dom';
import { ExternalIcon, MenuIcon } from '../../../components/icons';
import { Menu, type MenuEntry } from '../../../components/ui/menu';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';

export interface TopMenuItem {
  key: string;
  label: string;
  to?: string;
  href?: string;
}

/**
 * SPEC §1's top menu. 阅卷/考试 opens the product's own marking (/correct): an external exam site dies offline, so
 * when one is configured it sits in the footer (issue #22; ADR 0045). 数据中心 for grade directors; 数据大屏
 * (/bigData, /largescreen) for grade directors and school administrators.
 */
export function topMenuItems(gradeDirector: boolean, administrator = false): TopMenuItem[] {
  const items: TopMenuItem[] = [
    { key: 'paperlist', label: t.nav.paperlist, to: paths.paperlist },
    { key: 'analysis', label: t.nav.analysis, to: paths.analysis.root },
    { key: 'rehearse', label: t.nav.rehearse, to: paths.rehearse.root },
    { key: 'cloudResources', label: t.nav.cloudResources, to: paths.cloudResources.root },
    { key: 'exam', label: t.nav.exam, to: paths.correct },
  ];
  if (gradeDirector) items.push({ key: 'dataCenter', label: t.nav.dataCenter, to: paths.dataCenter.root });
  if (gradeDirector || administrator) {
    items.push({ key: 'bigData', label: t.nav.bigData, to: paths.bigData });
    items.push({ key: 'largescreen', label: t.nav.largescreen, to: paths.largescreen });
  }
  return items;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'relative inline-flex h-16 items-center px-2.5 text-[15px] whitespace-nowrap transition-colors xl:px-3.5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600',
    isActive
      ? 'font-medium text-blue-700 after:absolute after:inset-x-2.5 after:bottom-0 after:h-0.5 after:rounded-full after:bg-blue-600'
      : 'text-slate-600 hover:text-slate-900',
  );

/** The menu: inline on large screens, a dropdown on small ones. */
export function TopMenu({
  gradeDirector,
  administrator,
}: {
  gradeDirector: boolean;
  administrator: boolean;
}) {
  const items = topMenuItems(gradeDirector, administrator);
  const entries: MenuEntry[] = items.map((i) =>
    i.href
      ? {
          kind: 'external',
          label: i.label,
          href: i.href,
          icon: <ExternalIcon className="size-4 text-slate-500" />,
        }
      : { kind: 'link', label: i.label, to: i.to ?? '/' },
  );
  return (
    <>
      <nav aria-label={t.nav.label} className="hidden lg:block">
        <ul className="flex items-center gap-1">
          {items.map((i) => (
            <li key={i.key}>
              {i.href ? (
                <a
                  href={i.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={linkClass({ isActive: false })}
                >
                  {i.label}
                  <ExternalIcon className="ml-1 size-3.5 text-slate-500" />
                  <span className="sr-only">{t.nav.opensNewTab}</span>
                </a>
              ) : (
                <NavLink to={i.to ?? '/'} className={linkClass}>
                  {i.label}
                </NavLink>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <div className="lg:hidden">
        <Menu
          label={t.nav.more}
          anchor="bottom start"
          buttonClassName="h-9 px-2.5 text-slate-600 hover:bg-slate-100"
          button={
            <>
              <MenuIcon className="size-5" />
              <span className="hidden text-sm sm:inline">{t.nav.more}</span>
            </>
          }
          items={entries}
        />
      </div>
    </>
  );
}
