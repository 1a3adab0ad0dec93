import type { AgentBatch } from '@zhzy/contracts';
import { AlertIcon, InfoIcon } from '../../../components/icons';
import { Button } from '../../../components/ui/button';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import type { BatchNotice, ScanSessionState } from '../stores/scan-session';

const stateTone: Record<AgentBatch['state'], string> = {
  scanning: 'bg-blue-50 text-blue-700 ring-blue-200',
  paused: 'bg-amber-50 text-amber-800 ring-amber-200',
  done: 'bg-slate-100 text-slate-600 ring-slate-200',
};

function Count({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: number;
  tone?: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={cn('text-xl font-semibold tabular-nums text-slate-900', tone)} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString('zh-CN', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });

/**
 * Every notice of the batch, verbatim (feeder empty, jam, double feed, cover open, busy, interrupted, errors). The
 * batch's current notice leads; once the batch scans again (继续扫描, 重扫) the agent clears it, and the notices of
 * the runs before only stay in the list below.
 */
function Notices({ notices, current }: { notices: BatchNotice[]; current: AgentBatch['lastNotice'] }) {
  if (notices.length === 0) return null;
  const lead = current && notices[0]!.notice.at === current.at ? notices[0]! : null;
  const older = lead ? notices.slice(1) : notices;
  const serious = lead ? lead.notice.kind !== 'feederEmpty' : false;
  return (
    <div className="mt-3 space-y-2" aria-label={s.batch.notices} role="region">
      {lead && (
        <p
          role={serious ? 'alert' : 'status'}
          data-testid="scan-notice"
          className={cn(
            'flex items-start gap-2 rounded-lg px-3 py-2 text-sm',
            serious ? 'bg-amber-50 text-amber-900' : 'bg-blue-50 text-blue-900',
          )}
        >
          {serious ? (
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
          ) : (
            <InfoIcon className="mt-0.5 size-4 shrink-0" />
          )}
          <span>{lead.notice.message}</span>
        </p>
      )}
      {older.length > 0 && (
        <ul className="max-h-24 space-y-1 overflow-y-auto text-xs text-slate-500" data-testid="older-notices">
          {older.map((n) => (
            <li key={`${n.batchId}-${n.notice.at}-${n.notice.kind}`}>
              <span className="tabular-nums">{timeOf(n.notice.at)}</span> {n.notice.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The current batch: state, counts from the agent, pause / 继续扫描 / 结束 / retry, and its notices. */
export function BatchPanel({
  state,
  onPause,
  onResume,
  onFinish,
  onRetry,
}: {
  state: ScanSessionState;
  onPause: () => void;
  onResume: () => void;
  onFinish: () => void;
  onRetry: () => void;
}) {
  const batch = state.batches.find((b) => b.id === state.currentBatchId) ?? null;
  if (!batch) return null;
  const notices = state.notices.filter((n) => n.batchId === batch.id);
  const busy = state.action !== null;
  const deviceError =
    state.device?.state === 'error' &&
    state.device.message &&
    !notices.some((n) => n.notice.message === state.device?.message)
      ? state.device.message
      : null;
  return (
    <section
      aria-label={s.batch.title}
      className="rounded-xl border border-slate-200 bg-white p-4"
      data-testid="batch-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <h2 className="text-base font-semibold text-slate-900">{s.batch.title}</h2>
          <span
            className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1', stateTone[batch.state])}
            data-testid="batch-state"
          >
            {s.batch.states[batch.state]}
          </span>
          <span className="truncate text-sm text-slate-500">{batch.source.text}</span>
        </div>
        <div className="flex flex-wrap gap-2">
          {batch.state === 'scanning' && (
            <Button
              variant="secondary"
              size="sm"
              onClick={onPause}
              loading={state.action === 'pause'}
              disabled={busy}
            >
              {s.batch.pause}
            </Button>
          )}
          {batch.state === 'paused' && (
            <Button size="sm" onClick={onResume} loading={state.action === 'resume'} disabled={busy}>
              {s.batch.resume}
            </Button>
          )}
          {batch.state !== 'done' && (
            <Button
              variant="secondary"
              size="sm"
              onClick={onFinish}
              loading={state.action === 'finish'}
              disabled={busy}
            >
              {s.batch.finish}
            </Button>
          )}
          {batch.failedCount > 0 && (
            <Button
              variant="danger"
              size="sm"
              onClick={onRetry}
              loading={state.action === 'retry'}
              disabled={busy}
            >
              {s.batch.retry}
            </Button>
          )}
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Count label={s.batch.scanned} value={batch.pageCount} testId="count-scanned" />
        <Count
          label={s.batch.uploaded}
          value={batch.uploadedCount}
          tone="text-emerald-700"
          testId="count-uploaded"
        />
        <Count
          label={s.batch.failed}
          value={batch.failedCount}
          tone={batch.failedCount ? 'text-red-600' : undefined}
          testId="count-failed"
        />
        <Count label={s.batch.blank} value={batch.blankCount} testId="count-blank" />
      </dl>
      {deviceError && (
        <p
          role="alert"
          className="mt-3 flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {deviceError}
        </p>
      )}
      <Notices notices={notices} current={batch.lastNotice} />
    </section>
  );
}
