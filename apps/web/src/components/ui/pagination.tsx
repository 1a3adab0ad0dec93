import { ChevronLeftIcon, ChevronRightIcon } from '../icons';
import { cn } from '../../lib/utils';
import { t } from '../../i18n/zh-CN';

/** Page numbers to show: the first, the last, and a window around the current one, with gaps as null. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const out: (number | null)[] = [1];
  const from = Math.max(2, page - 1);
  const to = Math.min(pages - 1, page + 1);
  if (from > 2) out.push(null);
  for (let p = from; p <= to; p++) out.push(p);
  if (to < pages - 1) out.push(null);
  out.push(pages);
  return out;
}

const cell =
  'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-40';

export function Pagination({
  page,
  total,
  size,
  onChange,
}: {
  page: number;
  total: number;
  size: number;
  onChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  return (
    <nav aria-label={t.pagination.label} className="flex flex-wrap items-center justify-center gap-1">
      <button
        type="button"
        className={cn(cell, 'text-slate-600 hover:bg-slate-100')}
        onClick={() => onChange(page - 1)}
        disabled={page <= 1}
        aria-label={t.pagination.prev}
      >
        <ChevronLeftIcon className="size-4" />
      </button>
      {pageWindow(page, pages).map((p, i) =>
        p === null ? (
          <span key={`gap-${i}`} className="px-1 text-slate-500" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={p}
            type="button"
            onClick={() => onChange(p)}
            aria-label={t.pagination.page(p)}
            aria-current={p === page ? 'page' : undefined}
            className={cn(
              cell,
              p === page ? 'bg-blue-600 font-medium text-white' : 'text-slate-600 hover:bg-slate-100',
            )}
          >
            {p}
          </button>
        ),
      )}
      <button
        type="button"
        className={cn(cell, 'text-slate-600 hover:bg-slate-100')}
        onClick={() => onChange(page + 1)}
        disabled={page >= pages}
        aria-label={t.pagination.next}
      >
        <ChevronRightIcon className="size-4" />
      </button>
    </nav>
  );
}
