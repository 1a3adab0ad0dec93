import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { AGENT_PRINT_MAX_COPIES, type PrintJob } from '@zhzy/contracts';
import { AlertIcon, CheckIcon, InfoIcon } from '../../../components/icons';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { zhCNPrintAgent as t } from '../../../i18n/print-agent';
import { api } from '../../../lib/api';
import { cn } from '../../../lib/utils';
import type { AgentPrinting } from '../hooks/use-agent-printing';

const formatBytes = (n: number) =>
  n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1048576).toFixed(1)} MB`;

/** What the panel prints: a host call that answers a PDF, and its JSON body; or why it cannot yet (Chinese). */
export type DirectPrintSource =
  { path: string; body: Record<string, unknown>; title: string } | { error: string };

/**
 * 直接打印 through the scan agent: printer, copies, duplex, always at 100 %; the agent downloads the PDF from the host
 * with the teacher's token and prints it, and the panel follows the job. Without an agent (or unpaired, or outdated)
 * it says why and how to fix it, and the dialog's PDF download remains the way to print.
 */
export function DirectPrintPanel({
  agent,
  source,
  pagesPerCopy,
  defaultDuplex,
}: {
  agent: AgentPrinting;
  /** Called when 直接打印 is clicked (the dialog's choices at that moment). */
  source: () => DirectPrintSource;
  pagesPerCopy?: number;
  defaultDuplex?: boolean;
}) {
  const ids = useId();
  const [chosenId, setPrinterId] = useState('');
  const [copies, setCopies] = useState('1');
  const [duplex, setDuplex] = useState(Boolean(defaultDuplex));
  const [job, setJob] = useState<PrintJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const printers = agent.status === 'ready' ? agent.printers : [];
  // The teacher's choice while it is listed; otherwise the default printer, or the first.
  const printer = printers.find((p) => p.id === chosenId) ?? printers.find((p) => p.isDefault) ?? printers[0];
  const printerId = printer?.id ?? '';
  const noDuplex = printer?.duplex === false;

  const start = async () => {
    if (agent.status !== 'ready') return;
    setError(null);
    setJob(null);
    const n = Number(copies);
    if (!Number.isInteger(n) || n < 1 || n > AGENT_PRINT_MAX_COPIES) return setError(t.copiesInvalid);
    if (!printer) return setError(t.pickPrinter);
    const what = source();
    if ('error' in what) return setError(what.error);
    const accessToken = api.session.accessToken;
    if (!accessToken) return setError(t.signIn);
    setBusy(true);
    try {
      await agent.print(
        {
          printerId: printer.id,
          copies: n,
          duplex: duplex && !noDuplex,
          paper: 'auto',
          title: what.title,
          source: { baseUrl: window.location.origin, path: what.path, body: what.body, accessToken },
        },
        setJob,
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${ids}-h`} className="mt-4 rounded-lg border border-slate-200 px-3 py-3">
      <h3 id={`${ids}-h`} className="text-sm font-medium text-slate-800">
        {t.heading}
      </h3>
      {agent.status === 'checking' && <p className="mt-1 text-xs text-slate-500">{t.checking}</p>}
      {agent.status === 'unavailable' && (
        <p
          className="mt-1 flex gap-2 text-xs leading-5 text-slate-600"
          data-testid="direct-print-unavailable"
        >
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-slate-500" />
          <span>
            {t[agent.reason]}
            {agent.reason !== 'outdated' && (
              <>
                {' '}
                <Link className="text-blue-600 hover:underline" to={paths.scan}>
                  {t.pairLink}
                </Link>
              </>
            )}
          </span>
        </p>
      )}
      {agent.status === 'ready' && printers.length === 0 && (
        <p className="mt-1 flex items-center gap-2 text-xs text-slate-600">
          {t.noPrinters}
          <Button size="sm" variant="secondary" loading={agent.refreshing} onClick={agent.refresh}>
            {t.refresh}
          </Button>
        </p>
      )}
      {agent.status === 'ready' && printers.length > 0 && (
        <div className="mt-2 space-y-2 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${ids}-printer`} className="text-slate-700">
              {t.printer}
            </label>
            <select
              id={`${ids}-printer`}
              value={printerId}
              onChange={(e) => setPrinterId(e.target.value)}
              className="h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              {printers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.isDefault ? t.defaultMark : ''} · {t.printerStates[p.state]}
                </option>
              ))}
            </select>
            <Button size="sm" variant="secondary" loading={agent.refreshing} onClick={agent.refresh}>
              {t.refresh}
            </Button>
          </div>
          {printer?.stateMessage && (
            <p className="text-xs text-amber-700">
              {printer.name}：{printer.stateMessage}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-4">
            <label className="flex items-center gap-2 text-slate-700">
              {t.copies}
              <input
                type="number"
                min={1}
                max={AGENT_PRINT_MAX_COPIES}
                value={copies}
                onChange={(e) => setCopies(e.target.value)}
                className="h-8 w-16 rounded-md border border-slate-300 px-2 text-sm"
              />
            </label>
            <label
              className={cn('flex items-center gap-2 text-slate-700', noDuplex && 'opacity-60')}
              title={noDuplex ? t.duplexUnsupported : undefined}
            >
              <input
                type="checkbox"
                checked={duplex && !noDuplex}
                disabled={noDuplex}
                onChange={(e) => setDuplex(e.target.checked)}
                className="size-4 accent-blue-600"
              />
              {t.duplex}
            </label>
          </div>
          <p className="text-xs text-slate-500">{t.unscaled}</p>
          <div className="flex flex-wrap items-center gap-2">
            <Button loading={busy} onClick={() => void start()}>
              {t.print}
            </Button>
            {busy && job && !['done', 'failed', 'cancelled'].includes(job.state) && (
              <Button size="sm" variant="secondary" onClick={() => void agent.cancel(job.id).then(setJob)}>
                {t.cancel}
              </Button>
            )}
          </div>
        </div>
      )}
      {job && <JobStatus job={job} pagesPerCopy={pagesPerCopy} />}
      {error && (
        <p role="alert" className="mt-2 flex gap-2 text-sm text-red-600">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {error}
        </p>
      )}
    </section>
  );
}

function JobStatus({ job, pagesPerCopy }: { job: PrintJob; pagesPerCopy: number | undefined }) {
  const done = job.state === 'done';
  const failed = job.state === 'failed' || job.state === 'cancelled';
  return (
    <p
      role="status"
      data-testid="direct-print-status"
      className={cn(
        'mt-2 flex flex-wrap items-center gap-2 text-sm',
        done ? 'text-emerald-700' : failed ? 'text-red-600' : 'text-slate-600',
      )}
    >
      {done && <CheckIcon className="size-4" />}
      <span>
        {t.states[job.state]}
        {failed && job.message ? `：${job.message}` : ''}
      </span>
      {job.state === 'downloading' && job.bytes > 0 && (
        <span className="text-xs text-slate-500">{t.progress(formatBytes(job.bytes))}</span>
      )}
      {(job.pages ?? pagesPerCopy) !== undefined && !failed && (
        <span className="text-xs text-slate-500">{t.pages((job.pages ?? pagesPerCopy)!, job.copies)}</span>
      )}
    </p>
  );
}
