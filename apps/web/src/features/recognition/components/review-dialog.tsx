import { useEffect, useState } from 'react';
import { isObjective } from '@zhzy/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Skeleton } from '../../../components/ui/skeleton';
import { zhCNRecognition as r } from '../../../i18n/recognition';
import { cn } from '../../../lib/utils';
import { useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import {
  confirmSheet,
  overrideAnswers,
  sheetKey,
  sheetsKey,
  useReviewSheet,
  useReviewSheets,
} from '../api/recognition';
import { OptionPicker, showResponse } from './option-picker';
import { ZoomablePage } from './zoomable-page';

/** One sheet: its page images with the overlay, and every answer, objective ones editable. */
function SheetView({ sheetId, onGo }: { sheetId: string; onGo: (id: string) => void }) {
  const { data, mutate } = useReviewSheet(sheetId);
  const mutateKey = useApiMutate();
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => setEdits({}), [sheetId]);
  if (!data) return <Skeleton className="h-96 w-full" />;
  const changed = Object.entries(edits).filter(
    ([q, v]) => data.answers.find((a) => a.questionId === q)?.response !== v,
  );
  const refresh = async () => {
    await mutate();
    await mutateKey(sheetsKey(data.sheet.homeworkId));
  };
  const save = async () => {
    setBusy(true);
    try {
      await overrideAnswers(
        sheetId,
        changed.map(([questionId, response]) => ({ questionId, response })),
      );
      setEdits({});
      toast(r.review.saved, 'success');
      await refresh();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await confirmSheet(sheetId);
      toast(r.review.confirmedToast, 'success');
      await refresh();
      if (data.nextId) onGo(data.nextId);
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <div className="space-y-3">
        {data.pages.map((p) => (
          <ZoomablePage
            key={p.pageId}
            pageId={p.pageId}
            width={p.width}
            height={p.height}
            overlay={p.overlay}
            alt={r.review.image(data.sheet.studentName, p.pageNo)}
          />
        ))}
      </div>
      <div className="space-y-3">
        <div>
          <p className="text-base font-semibold text-slate-800" data-testid="review-student">
            {data.sheet.studentName}
            <span className="ml-2 text-sm font-normal text-slate-500">
              {data.sheet.className} · {data.sheet.studentNo}
            </span>
          </p>
          <p className="text-sm text-slate-600" data-testid="review-total">
            {r.review.total(data.sheet.objectiveScore, data.sheet.totalScore)}
          </p>
        </div>
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
              <th className="py-1 pr-2 font-normal">{r.review.number}</th>
              <th className="py-1 pr-2 font-normal">{r.review.answer}</th>
              <th className="py-1 pr-2 font-normal">{r.review.key}</th>
              <th className="py-1 font-normal">{r.review.score}</th>
            </tr>
          </thead>
          <tbody>
            {data.answers.map((a) => (
              <tr key={a.questionId} className="border-b border-slate-100 align-top">
                <td className="py-1.5 pr-2 text-slate-600">{a.number}</td>
                <td className="py-1.5 pr-2">
                  {isObjective(a.kind) ? (
                    <div className="space-y-1">
                      <OptionPicker
                        label={`${r.review.number} ${a.number}`}
                        options={a.options}
                        multiple={a.kind === 'multiple'}
                        value={edits[a.questionId] ?? a.response ?? ''}
                        onChange={(v) => setEdits((e) => ({ ...e, [a.questionId]: v }))}
                      />
                      {(a.responseStatus === 'uncertain' || a.responseStatus === 'multiple') && (
                        <span className="text-xs text-orange-600">
                          {a.responseStatus === 'uncertain' ? r.review.uncertain : r.review.multiple}
                        </span>
                      )}
                    </div>
                  ) : (
                    <span className="text-xs text-slate-500">
                      {a.blank ? r.review.writtenBlank : a.hasCrop ? r.review.writtenCrop : r.review.written}
                    </span>
                  )}
                </td>
                <td className="py-1.5 pr-2 text-slate-600">
                  {isObjective(a.kind) ? showResponse(a.key) : ''}
                </td>
                <td className="py-1.5 tabular-nums text-slate-800">
                  {a.score === null ? '—' : `${a.score}/${a.fullScore}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={changed.length === 0}
            loading={busy}
            onClick={() => void save()}
          >
            {r.review.save}
          </Button>
          <Button size="sm" disabled={changed.length > 0} loading={busy} onClick={() => void confirm()}>
            {r.review.confirm}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={!data.prevId}
            onClick={() => data.prevId && onGo(data.prevId)}
          >
            {r.review.prev}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={!data.nextId}
            onClick={() => data.nextId && onGo(data.nextId)}
          >
            {r.review.next}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Paging through every sheet of a homework before results are published. */
export function ReviewDialog({
  homework,
  onClose,
}: {
  homework: { id: string; title: string } | null;
  onClose: () => void;
}) {
  const { data: sheets } = useReviewSheets(homework?.id ?? null);
  const [current, setCurrent] = useState<string | null>(null);
  useEffect(() => setCurrent(null), [homework?.id]);
  const selected = current ?? sheets?.[0]?.id ?? null;
  const mutate = useApiMutate();
  const [confirmingAll, setConfirmingAll] = useState(false);
  const [busyAll, setBusyAll] = useState(false);
  const pending = sheets?.filter((x) => x.reviewStatus === 'pending') ?? [];
  const openExceptions = sheets?.reduce((n, x) => n + x.openExceptions, 0) ?? 0;
  /** 全部确认: every pending sheet, one by one (each answers for itself; a refusal leaves that sheet pending). */
  const confirmAll = async () => {
    setBusyAll(true);
    let done = 0;
    for (const x of pending) {
      try {
        await confirmSheet(x.id, { silent: true });
        done += 1;
        await mutate(sheetKey(x.id));
      } catch {
        // counted below
      }
    }
    setBusyAll(false);
    setConfirmingAll(false);
    if (homework) await mutate(sheetsKey(homework.id));
    if (done > 0) toast(r.review.confirmAllDone(done), 'success');
    if (done < pending.length) toast.error(r.review.confirmAllFailed(pending.length - done));
  };
  return (
    <LargeDialog
      open={homework !== null}
      onClose={onClose}
      title={homework ? r.review.title(homework.title) : ''}
      lead={r.review.lead}
      width="xl"
      footer={
        <div className="flex w-full flex-wrap items-center justify-end gap-3">
          {sheets && sheets.length > 0 && (
            <span className="mr-auto text-sm text-slate-500" data-testid="confirm-all-state">
              {openExceptions > 0
                ? r.review.confirmAllBlocked(openExceptions)
                : pending.length === 0
                  ? r.review.allConfirmed
                  : ''}
            </span>
          )}
          {sheets && sheets.length > 0 && (
            <Button
              disabled={pending.length === 0 || openExceptions > 0}
              loading={busyAll}
              onClick={() => setConfirmingAll(true)}
            >
              {r.review.confirmAll}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            {r.review.close}
          </Button>
          <ConfirmDialog
            open={confirmingAll}
            title={r.review.confirmAllTitle}
            confirmLabel={r.review.confirmAll}
            busy={busyAll}
            onClose={() => setConfirmingAll(false)}
            onConfirm={() => void confirmAll()}
          >
            <p>{r.review.confirmAllBody(pending.length)}</p>
          </ConfirmDialog>
        </div>
      }
    >
      {!sheets ? (
        <p className="text-sm text-slate-500">{r.review.loading}</p>
      ) : sheets.length === 0 ? (
        <Empty title={r.review.none} />
      ) : (
        <div className="grid gap-4 md:grid-cols-[11rem_minmax(0,1fr)]">
          <ul aria-label={r.review.sheets} className="max-h-[70vh] space-y-1 overflow-y-auto">
            {sheets.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => setCurrent(s.id)}
                  aria-current={s.id === selected}
                  className={cn(
                    'w-full rounded-md px-2 py-1.5 text-left text-sm',
                    s.id === selected ? 'bg-sky-50 text-sky-800' : 'hover:bg-slate-50',
                  )}
                >
                  <span className="block font-medium">{s.studentName}</span>
                  <span className="block text-xs text-slate-500">
                    {s.reviewStatus === 'confirmed' ? r.review.confirmed : r.review.pending} ·{' '}
                    {r.points(s.objectiveScore)}
                    {s.openExceptions > 0 && (
                      <span className="ml-1 text-amber-700">{r.review.exceptionsOpen(s.openExceptions)}</span>
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {selected && <SheetView sheetId={selected} onGo={setCurrent} />}
        </div>
      )}
    </LargeDialog>
  );
}

export { sheetKey };
