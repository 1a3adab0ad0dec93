import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { zhCNRecognition as r } from '../../../i18n/recognition';
import { useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useScanBatches } from '../../../api/homework';
import { checkBatch, exceptionsKey, tallyKey, useExceptions, useTally } from '../api/recognition';
import { ExceptionQueue } from './exception-queue';
import { ReviewDialog } from './review-dialog';

const time = (iso: string) => {
  const d = new Date(iso);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return r.when(d.getMonth() + 1, d.getDate(), hm);
};

function Stat({ label, value, unit, tone }: { label: string; value: number; unit: string; tone?: 'warn' }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd
        className={cn(
          'text-xl font-semibold tabular-nums',
          tone === 'warn' && value > 0 ? 'text-amber-700' : 'text-slate-800',
        )}
      >
        {value}
        <span className="ml-0.5 text-xs font-normal text-slate-500">{unit}</span>
      </dd>
    </div>
  );
}

/**
 * The live recognition of a batch on /scan: a running tally while pages arrive, students still missing per
 * homework, the exception queue with its one-click fixes, and the review of every sheet. Opened for a homework,
 * only the batches bound to it.
 */
export function RecognitionPanel({ homeworkId = null }: { homeworkId?: string | null } = {}) {
  const { data: batches } = useScanBatches(homeworkId);
  const [chosen, setChosen] = useState<string | null>(null);
  const batchId = chosen ?? batches?.[0]?.id ?? null;
  const { data: tally } = useTally(batchId);
  const { data: exceptions } = useExceptions(batchId);
  const mutate = useApiMutate();
  const [reviewing, setReviewing] = useState<{ id: string; title: string } | null>(null);
  const [checking, setChecking] = useState(false);

  const refresh = async () => {
    if (!batchId) return;
    await Promise.all([mutate(tallyKey(batchId)), mutate(exceptionsKey(batchId))]);
  };

  if (batches && batches.length === 0)
    return (
      <section className="rounded-xl border border-slate-200 bg-white" aria-label={r.title}>
        <Empty title={r.noBatch} description={r.noBatchHint} className="py-8" />
      </section>
    );

  return (
    <section aria-label={r.title} className="space-y-4" data-testid="recognition-panel">
      <div className="rounded-xl border border-slate-200 bg-white p-4">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 className="text-lg font-semibold text-slate-800">{r.title}</h2>
            <p className="max-w-2xl text-sm text-slate-500">{r.lead}</p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            {batches && batches.length > 0 && (
              <Listbox
                label={r.batch}
                hideLabel
                placeholder={r.batch}
                value={batchId ?? ''}
                onChange={setChosen}
                options={batches.map((b, i) => ({
                  value: b.id,
                  label: r.batchName(batches.length - i, time(b.createdAt), b.pageCount),
                }))}
                className="w-64"
              />
            )}
            <Button
              variant="secondary"
              size="sm"
              loading={checking}
              disabled={!batchId}
              onClick={async () => {
                if (!batchId) return;
                setChecking(true);
                try {
                  await checkBatch(batchId);
                  toast(r.checked, 'success');
                  await refresh();
                } catch {
                  // shown by the client
                } finally {
                  setChecking(false);
                }
              }}
            >
              {r.check}
            </Button>
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5" data-testid="tally">
          <Stat label={r.stats.received} value={tally?.pagesReceived ?? 0} unit={r.stats.pages} />
          <Stat label={r.stats.read} value={tally?.pagesRead ?? 0} unit={r.stats.pages} />
          <Stat label={r.stats.queued} value={tally?.pagesQueued ?? 0} unit={r.stats.pages} />
          <Stat label={r.stats.sheets} value={tally?.sheetsRead ?? 0} unit={r.stats.sheetUnit} />
          <Stat
            label={r.stats.exceptions}
            value={tally?.exceptionsOpen ?? 0}
            unit={r.stats.itemUnit}
            tone="warn"
          />
        </dl>
        {tally?.homework.map((h) => (
          <div
            key={h.id}
            className="mt-4 rounded-lg border border-slate-100 p-3"
            data-testid="tally-homework"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-medium text-slate-800">
                {h.title}
                <span className="ml-2 font-normal text-slate-500">
                  {r.homework.progress(h.sheetsRead, h.students)}
                </span>
              </p>
              <Button size="sm" onClick={() => setReviewing({ id: h.id, title: h.title })}>
                {r.homework.review}
              </Button>
            </div>
            <p className="mt-2 text-xs text-slate-500">
              {h.missing.length === 0 ? r.homework.noneMissing : r.homework.missing(h.missing.length)}
            </p>
            {h.missing.length > 0 && (
              <p className="mt-1 text-sm leading-6 text-slate-700" data-testid="missing-students">
                {h.missing
                  .slice(0, 30)
                  .map((m) => m.name)
                  .join('、')}
                {h.missing.length > 30 && ` ${r.homework.more(h.missing.length)}`}
              </p>
            )}
          </div>
        ))}
        {tally && tally.pages.length > 0 && (
          <details className="mt-4">
            <summary className="cursor-pointer text-sm text-slate-600">{r.recent}</summary>
            <ul className="mt-2 divide-y divide-slate-100 text-sm">
              {tally.pages.slice(0, 50).map((p) => (
                <li key={p.pageId} className="flex flex-wrap gap-x-3 py-1.5">
                  <span className="w-16 text-slate-500">{r.pageLine(p.seq)}</span>
                  <span className={cn('w-14', p.status === 'failed' ? 'text-amber-700' : 'text-slate-600')}>
                    {r.pageStatus[p.status]}
                  </span>
                  <span className="text-slate-800">{p.studentName ?? ''}</span>
                  {p.pageNo !== null && <span className="text-slate-500">{r.cardPage(p.pageNo)}</span>}
                  {p.objectiveScore !== null && (
                    <span className="text-slate-500">{r.score(p.objectiveScore)}</span>
                  )}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <ExceptionQueue exceptions={exceptions ?? []} tally={tally} onChanged={() => void refresh()} />
      <ReviewDialog homework={reviewing} onClose={() => setReviewing(null)} />
    </section>
  );
}
