import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ChevronLeftIcon } from './icons';
import { Empty } from './ui/empty';
import { SCREENS, t, type ScreenKey } from '../i18n/zh-CN';
import { cn } from '../lib/utils';

/** The standard frame of a screen: a title, an optional lead and actions, then the content. */
export function Page({
  title,
  lead,
  actions,
  children,
  className,
  wide = false,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  wide?: boolean;
}) {
  return (
    <div
      className={cn(
        'mx-auto w-full px-4 py-6 sm:px-6 lg:py-8',
        wide ? 'max-w-[1400px]' : 'max-w-6xl',
        className,
      )}
    >
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">{title}</h1>
          {lead && <p className="mt-1 text-sm text-slate-500">{lead}</p>}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

/** A section heading inside a screen whose page title sits in a parent layout. */
export function SectionTitle({ children }: { children: ReactNode }) {
  return <h2 className="text-lg font-semibold text-slate-900">{children}</h2>;
}

/** A screen whose issue has not landed yet: its title and what it will do. */
export function ComingSoon({
  screen,
  nested = false,
  action,
  back,
}: {
  screen: ScreenKey;
  nested?: boolean;
  action?: ReactNode;
  /** A way back for screens shown without the top nav (print pages, large screens). */
  back?: { to: string; label: string };
}) {
  const s = SCREENS[screen];
  const body = (
    <div className="rounded-xl border border-slate-200 bg-white">
      <Empty title={t.comingSoon} description={s.description} action={action} />
    </div>
  );
  if (nested) {
    return (
      <div className="space-y-4">
        <SectionTitle>{s.title}</SectionTitle>
        {body}
      </div>
    );
  }
  return (
    <Page
      title={s.title}
      actions={
        back && (
          <Link to={back.to} className="inline-flex items-center gap-1 text-sm text-blue-600 hover:underline">
            <ChevronLeftIcon className="size-4" />
            {back.label}
          </Link>
        )
      }
    >
      {body}
    </Page>
  );
}
