import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  className?: string;
}

/** A plain data table with a caption for screen readers. */
export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  dense = false,
  minWidth,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty?: ReactNode;
  dense?: boolean;
  /** Below this width (a phone) the table scrolls inside its frame instead of squeezing its cells. */
  minWidth?: `min-w-${string}`;
}) {
  const pad = dense ? 'px-3 py-2' : 'px-4 py-3';
  const align = (a?: string) => (a === 'right' ? 'text-right' : a === 'center' ? 'text-center' : 'text-left');
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200">
      <table className={cn('w-full border-collapse text-sm', minWidth)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-500">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={cn(pad, 'font-medium whitespace-nowrap', align(c.align), c.className)}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className={cn(pad, 'text-center text-slate-500')}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key} className={cn(pad, align(c.align), c.className)}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
