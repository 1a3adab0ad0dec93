import type { ReactNode } from 'react';
import { InboxIcon } from '../icons';
import { cn } from '../../lib/utils';

/** An empty state: an icon, a title, a sentence and an optional action. */
export function Empty({
  title,
  description,
  action,
  icon,
  className,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-3 px-6 py-14 text-center', className)}>
      <div className="flex size-14 items-center justify-center rounded-full bg-slate-100 text-2xl text-slate-500">
        {icon ?? <InboxIcon />}
      </div>
      <p className="text-base font-medium text-slate-700">{title}</p>
      {description && <p className="max-w-md text-sm leading-6 text-slate-600">{description}</p>}
      {action}
    </div>
  );
}
