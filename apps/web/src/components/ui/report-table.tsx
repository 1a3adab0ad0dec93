import type { ReactNode } from 'react';
import type { Cell, SheetData } from '../../lib/xlsx';
import { cn } from '../../lib/utils';
import { ExportButton } from './export-button';
import { Table, type Column } from './table';

export interface ReportColumn<T> {
  key: string;
  header: string;
  /** The value written to Excel (numbers stay numbers); also shown when `cell` is not given. */
  value: (row: T) => Cell;
  /** What the screen shows, when it differs from the exported value (a bar, a link, a tag). */
  cell?: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  className?: string;
}

/** The sheet a report table exports: its header and the exported value of every row. */
export function tableSheet<T>(
  name: string,
  columns: ReportColumn<T>[],
  rows: T[],
  title?: string[],
): SheetData {
  return {
    name,
    header: columns.map((c) => c.header),
    rows: rows.map((r) => columns.map((c) => c.value(r))),
    ...(title ? { title } : {}),
  };
}

/**
 * A titled table of a report with its 导出 Excel button: every table of the analysis screens exports exactly what
 * it shows (the exported values are the figures, not their formatting).
 */
export function ReportTable<T>({
  title,
  description,
  columns,
  rows,
  rowKey,
  fileName,
  sheetTitle,
  empty,
  actions,
  dense = true,
  className,
}: {
  title: string;
  description?: ReactNode;
  columns: ReportColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Parts of the Excel file name; the table's title is appended. */
  fileName: (string | null | undefined)[];
  /** Lines written above the header in Excel (homework, class, date). */
  sheetTitle?: string[];
  empty?: ReactNode;
  actions?: ReactNode;
  dense?: boolean;
  className?: string;
}) {
  const shown: Column<T>[] = columns.map((c) => ({
    key: c.key,
    header: c.header,
    cell: c.cell ?? ((r: T) => format(c.value(r))),
    ...(c.align ? { align: c.align } : {}),
    ...(c.className ? { className: c.className } : {}),
  }));
  return (
    <section className={cn('space-y-3', className)} aria-label={title}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h3 className="text-base font-semibold text-slate-900">{title}</h3>
          {description && <p className="mt-0.5 text-xs leading-5 text-slate-500">{description}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2 print:hidden">
          {actions}
          <ExportButton
            fileName={[...fileName, title]}
            sheets={() => [tableSheet(title, columns, rows, sheetTitle ?? [title])]}
          />
        </div>
      </div>
      <Table caption={title} columns={shown} rows={rows} rowKey={rowKey} empty={empty} dense={dense} />
    </section>
  );
}

function format(v: Cell): ReactNode {
  if (v === null || v === undefined || v === '') return '—';
  return typeof v === 'number' ? String(v) : v;
}
