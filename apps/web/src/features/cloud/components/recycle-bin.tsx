import { useState } from 'react';
import { RECYCLE_BIN_DAYS, type PaperSummary, type RecycledQuestion } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Empty } from '../../../components/ui/empty';
import { Pagination } from '../../../components/ui/pagination';
import { QuestionBody } from '../../../components/ui/question-body';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { Table, type Column } from '../../../components/ui/table';
import { composition } from '../../../i18n/composition';
import { toast } from '../../../lib/toast';
import { useBusyKey } from '../../../lib/use-busy';
import { formatDate } from '../../../lib/utils';
import { NO_LIST_FILTERS, purgePaper, restorePaper, usePaperList, type ListFilters } from '../api/papers';
import { deleteQuestionsForever, restoreQuestions, useQuestionRecycleBin } from '../api/questions';
import { PaperFilters, paperColumns } from './common';

const c = composition.cloud;
const DAY_MS = 86_400_000;

/** Whole days left before something deleted at `deletedAt` is purged (the host says it for papers). */
export const daysLeft = (purgeAt: string, now = Date.now()) =>
  Math.max(0, Math.ceil((Date.parse(purgeAt) - now) / DAY_MS));

/** 回收站: deleted papers and questions, restorable for 30 days, or deleted for ever after a confirmation. */
export function RecycleBinScreen() {
  const [kind, setKind] = useState<'papers' | 'questions'>('papers');
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Segmented
          label={c.binKind}
          value={kind}
          options={[
            { value: 'papers', label: c.binPapers },
            { value: 'questions', label: c.binQuestions },
          ]}
          onChange={setKind}
        />
        <p className="text-sm text-slate-500">{c.binHint(RECYCLE_BIN_DAYS)}</p>
      </div>
      {kind === 'papers' ? <PaperBin /> : <QuestionBin />}
    </div>
  );
}

function Days({ n }: { n: number | null }) {
  if (n === null) return null;
  return (
    <span className={n <= 3 ? 'text-red-600' : 'text-slate-500'}>
      {n === 0 ? c.purgeToday : c.purgeIn(n)}
    </span>
  );
}

function PaperBin() {
  const [filters, setFilters] = useState<ListFilters>(NO_LIST_FILTERS);
  const { data, isLoading, mutate } = usePaperList('recycle', filters);
  const [purging, setPurging] = useState<PaperSummary | null>(null);
  const [busy, runRow] = useBusyKey();

  const run = (id: string, work: () => Promise<unknown>, done: string) =>
    runRow(id, async () => {
      await work();
      toast.success(done);
      await mutate();
    });

  const columns: Column<PaperSummary>[] = [
    {
      key: 'title',
      header: c.colTitle,
      cell: (p) => <span className="font-medium text-slate-900">{p.title}</span>,
    },
    paperColumns.subject,
    {
      key: 'deleted',
      header: c.colDeleted,
      cell: (p) => (p.deletedAt ? formatDate(p.deletedAt) : ''),
      className: 'whitespace-nowrap tabular-nums',
    },
    {
      key: 'left',
      header: c.colLeft,
      cell: (p) => <Days n={p.purgeInDays} />,
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: <span className="sr-only">{c.colActions}</span>,
      align: 'right',
      cell: (p) => (
        <div className="flex justify-end gap-1 whitespace-nowrap">
          <Button
            variant="ghost"
            size="sm"
            aria-label={c.restoreOf(p.title)}
            loading={busy === p.id}
            disabled={busy !== null}
            onClick={() => void run(p.id, () => restorePaper(p.id), c.restored)}
          >
            {c.restore}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-red-600 hover:bg-red-50 hover:text-red-700"
            aria-label={c.purgeOf(p.title)}
            disabled={busy !== null}
            onClick={() => setPurging(p)}
          >
            {c.purge}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PaperFilters value={filters} onChange={setFilters} status={false} dates={false} />
      {isLoading && !data ? (
        <SkeletonLines lines={6} />
      ) : data && data.records.length > 0 ? (
        <>
          <div className="bg-white">
            <Table caption={c.binPapers} columns={columns} rows={data.records} rowKey={(p) => p.id} />
          </div>
          <Pagination
            page={data.page}
            total={data.total}
            size={data.size}
            onChange={(page) => setFilters((f) => ({ ...f, page }))}
          />
        </>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty title={c.binEmpty} description={c.binEmptyHint(RECYCLE_BIN_DAYS)} />
        </div>
      )}
      <ConfirmDialog
        open={purging !== null}
        title={c.purgeTitle}
        confirmLabel={c.purgeConfirm}
        danger
        busy={busy !== null}
        onClose={() => setPurging(null)}
        onConfirm={() => {
          const p = purging;
          if (!p) return;
          void run(p.id, () => purgePaper(p.id), c.purged).then(() => setPurging(null));
        }}
      >
        {c.purgeText(purging?.title ?? '')}
      </ConfirmDialog>
    </>
  );
}

function QuestionBin() {
  const [page, setPage] = useState(1);
  const { data, isLoading, mutate } = useQuestionRecycleBin(page);
  const [purging, setPurging] = useState<RecycledQuestion | null>(null);
  const [busy, runRow] = useBusyKey();

  const run = (
    id: string,
    work: () => Promise<{ results: { ok: boolean; message: string | null }[] }>,
    done: string,
  ) =>
    runRow(id, async () => {
      const answer = await work();
      const failed = answer.results.find((r) => !r.ok);
      if (failed) toast.error(failed.message ?? c.failed);
      else toast.success(done);
      await mutate();
    });

  if (isLoading && !data) return <SkeletonLines lines={6} />;
  if (!data || data.records.length === 0) {
    return (
      <div className="rounded-xl border border-slate-200 bg-white">
        <Empty title={c.binQuestionsEmpty} description={c.binEmptyHint(RECYCLE_BIN_DAYS)} />
      </div>
    );
  }
  return (
    <>
      <ul className="space-y-3">
        {data.records.map((r) => (
          <li key={r.question.id} className="rounded-xl border border-slate-200 bg-white px-5 py-4">
            <QuestionBody question={r.question} idPrefix="bin" />
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-2 text-sm">
              <span className="text-slate-500">
                {r.question.typeName} · {c.deletedOn(formatDate(r.deletedAt))} ·{' '}
                <Days n={daysLeft(r.purgeAt)} />
              </span>
              <span className="flex gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  loading={busy === r.question.id}
                  disabled={busy !== null}
                  onClick={() => void run(r.question.id, () => restoreQuestions([r.question.id]), c.restored)}
                >
                  {c.restore}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-600 hover:bg-red-50"
                  disabled={busy !== null}
                  onClick={() => setPurging(r)}
                >
                  {c.purge}
                </Button>
              </span>
            </div>
          </li>
        ))}
      </ul>
      <Pagination page={data.page} total={data.total} size={data.size} onChange={setPage} />
      <ConfirmDialog
        open={purging !== null}
        title={c.purgeTitle}
        confirmLabel={c.purgeConfirm}
        danger
        busy={busy !== null}
        onClose={() => setPurging(null)}
        onConfirm={() => {
          const r = purging;
          if (!r) return;
          void run(r.question.id, () => deleteQuestionsForever([r.question.id]), c.purged).then(() =>
            setPurging(null),
          );
        }}
      >
        {c.purgeQuestionText}
      </ConfirmDialog>
    </>
  );
}
