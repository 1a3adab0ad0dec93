import { DateInput } from '../../../components/ui/date-input';
import { useEffect, useState, type ReactNode } from 'react';
import { PAPER_STATUS_NAMES, type PaperSummary } from '@zhzy/contracts';
import { Pagination } from '../../../components/ui/pagination';
import { SearchForm } from '../../../components/ui/search-form';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { Segmented } from '../../../components/ui/segmented';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { composition } from '../../../i18n/composition';
import { cn, formatDate } from '../../../lib/utils';
import { Table, type Column } from '../../../components/ui/table';
import { useStages } from '../../../api/catalog';
import type { ListFilters } from '../api/papers';

const c = composition.cloud;

/** Search, subject, status and date range of a paper list. */
export function PaperFilters({
  value,
  onChange,
  status = true,
  dates = true,
  actions,
}: {
  value: ListFilters;
  onChange: (next: ListFilters) => void;
  status?: boolean;
  dates?: boolean;
  actions?: ReactNode;
}) {
  const { data: stages } = useStages();
  const [text, setText] = useState(value.keyword);
  useEffect(() => setText(value.keyword), [value.keyword]);
  const set = (patch: Partial<ListFilters>) => onChange({ ...value, ...patch, page: 1 });
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchForm
          label={c.search}
          placeholder={c.searchPlaceholder}
          submit={composition.bank.searchButton}
          className="flex min-w-60 flex-1 gap-2"
          maxLength={50}
          text={text}
          onTextChange={setText}
          active={value.keyword}
          onSearch={(keyword) => set({ keyword })}
        />
        {actions}
      </div>
      <div className="flex flex-wrap items-center gap-x-5 gap-y-3">
        <SubjectPicker
          stages={stages}
          value={value.subjectId}
          allowAll
          onChange={(v) => set({ subjectId: v?.subjectId ?? null })}
        />
        {status && (
          <Segmented
            label={c.status}
            value={value.status ?? 'all'}
            options={[
              { value: 'all', label: c.allStatus },
              { value: 'draft', label: PAPER_STATUS_NAMES.draft },
              { value: 'final', label: PAPER_STATUS_NAMES.final },
            ]}
            onChange={(v) => set({ status: v === 'all' ? null : v })}
          />
        )}
        {dates && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-500">
            <label className="flex items-center gap-2">
              {c.updatedFrom}
              <DateInput
                label={c.updatedFrom}
                value={value.from}
                max={value.to || undefined}
                onChange={(day) => set({ from: day })}
              />
            </label>
            <label className="flex items-center gap-2">
              {c.updatedTo}
              <DateInput
                label={c.updatedTo}
                value={value.to}
                min={value.from || undefined}
                onChange={(day) => set({ to: day })}
              />
            </label>
          </div>
        )}
      </div>
    </div>
  );
}

export function StatusBadges({ paper }: { paper: PaperSummary }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <span
        className={cn(
          'rounded px-1.5 py-0.5 text-xs',
          paper.status === 'final' ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-600',
        )}
      >
        {PAPER_STATUS_NAMES[paper.status]}
      </span>
      {paper.shared && (
        <span className="rounded bg-blue-50 px-1.5 py-0.5 text-xs text-blue-700">{c.shared}</span>
      )}
      {paper.isTemplate && (
        <span className="rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-700">{c.template}</span>
      )}
    </span>
  );
}

/** The columns the paper lists share (我的试卷, 校本资源, 回收站). */
export const paperColumns = {
  /** 试卷名称: the title (a link or a button of the list) over the paper's status badges. */
  title: (title: (p: PaperSummary) => ReactNode): Column<PaperSummary> => ({
    key: 'title',
    header: c.colTitle,
    cell: (p) => (
      <div className="min-w-48">
        {title(p)}
        <div className="mt-1">
          <StatusBadges paper={p} />
        </div>
      </div>
    ),
  }),
  subject: {
    key: 'subject',
    header: c.colSubject,
    cell: (p) => `${p.stageName}${p.subjectName}`,
    className: 'whitespace-nowrap',
  } satisfies Column<PaperSummary>,
  size: {
    key: 'size',
    header: c.colSize,
    cell: (p) => c.size(p.questionCount, p.totalScore),
    className: 'whitespace-nowrap',
  } satisfies Column<PaperSummary>,
  updated: {
    key: 'updated',
    header: c.colUpdated,
    cell: (p) => formatDate(p.updatedAt),
    className: 'whitespace-nowrap tabular-nums',
  } satisfies Column<PaperSummary>,
};

/** One page of a paper list: skeleton while the first page loads, the count, the table and the pages; else `empty`. */
export function PaperListBody({
  data,
  isLoading,
  caption,
  columns,
  onPage,
  empty,
}: {
  data: { records: PaperSummary[]; total: number; page: number; size: number } | undefined;
  isLoading: boolean;
  caption: string;
  columns: Column<PaperSummary>[];
  onPage: (page: number) => void;
  /** Shown inside the white box when the page has no paper. */
  empty: ReactNode;
}) {
  if (isLoading && !data) return <SkeletonLines lines={8} />;
  if (!data || data.records.length === 0)
    return <div className="rounded-xl border border-slate-200 bg-white">{empty}</div>;
  return (
    <>
      <p className="text-sm text-slate-500">{c.total(data.total)}</p>
      <div className="bg-white">
        <Table caption={caption} columns={columns} rows={data.records} rowKey={(p) => p.id} />
      </div>
      <Pagination page={data.page} total={data.total} size={data.size} onChange={onPage} />
    </>
  );
}
