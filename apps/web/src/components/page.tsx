import type { ReactNode } from 'react';
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
