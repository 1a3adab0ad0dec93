import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  HOMEWORK_MESSAGES,
  buildPath,
  calls,
  type CardPdfRequest,
  type HomeworkSummary,
} from '@zhzy/contracts';
import { AlertIcon, CheckIcon, InfoIcon } from '../../../components/icons';
import { Button, type ButtonVariant } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { paths, withQuery } from '../../../config/paths';
import { zhCNPrint as tp } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { downloadCardPdf } from '../api/printing';
import { useAgentPrinting } from '../hooks/use-agent-printing';
import { DirectPrintPanel, type DirectPrintSource } from './direct-print';

type Kind = CardPdfRequest['kind'];

const formatBytes = (n: number) =>
  n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1048576).toFixed(1)} MB`;

/**
 * Prints a homework's answer cards: one personalised card per student of the chosen classes, or one generic card (only
 * when the card does not identify students by QR code). Prints them directly through the scan agent when it is there
 * (printer, copies, duplex, always unscaled), or downloads the PDF of the current card version to print at 100 %.
 */
export function CardPrintDialog({
  homework,
  open,
  onClose,
}: {
  homework: HomeworkSummary;
  open: boolean;
  onClose: () => void;
}) {
  const ids = useId();
  const card = homework.card;
  const genericAllowed = card.identity !== 'qr';
  const [kind, setKind] = useState<Kind>('students');
  const [classIds, setClassIds] = useState<string[]>(() => homework.classes.map((c) => c.id));
  const [busy, setBusy] = useState(false);
  const [loaded, setLoaded] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pdf, setPdf] = useState<{ url: string; filename: string } | null>(null);
  const agent = useAgentPrinting();

  useEffect(() => () => (pdf ? URL.revokeObjectURL(pdf.url) : undefined), [pdf]);

  const students = useMemo(
    () => homework.classes.filter((c) => classIds.includes(c.id)).reduce((n, c) => n + c.studentCount, 0),
    [homework.classes, classIds],
  );
  const toggle = (id: string, on: boolean) =>
    setClassIds((list) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id)));

  /** The request of the current choices, or why it cannot be made. */
  const choice = (): { request: CardPdfRequest; filename: string } | { error: string } => {
    if (kind === 'students') {
      if (classIds.length === 0) return { error: tp.cards.pickClass };
      if (students === 0) return { error: HOMEWORK_MESSAGES.noStudents };
    }
    const filename =
      kind === 'students' ? tp.cards.filePersonal(homework.title) : tp.cards.fileGeneric(homework.title);
    return { request: kind === 'students' ? { kind, classIds } : { kind }, filename };
  };

  const directSource = (): DirectPrintSource => {
    const c = choice();
    if ('error' in c) return c;
    return {
      path: buildPath(calls.downloadHomeworkCards.path, { id: homework.id }),
      body: c.request,
      title: c.filename.replace(/\.pdf$/, ''),
    };
  };

  const download = async () => {
    setError(null);
    const c = choice();
    if ('error' in c) return setError(c.error);
    const { request, filename } = c;
    setBusy(true);
    setLoaded(0);
    try {
      const blob = await downloadCardPdf(homework.id, request, filename, (n) => setLoaded(n));
      setPdf((old) => {
        if (old) URL.revokeObjectURL(old.url);
        return { url: URL.createObjectURL(blob), filename };
      });
    } catch {
      // The client showed 下载失败 (or the host's reason).
    } finally {
      setBusy(false);
      setLoaded(null);
    }
  };

  const sheetsPerStudent = card.pageCount;
  return (
    <Dialog open={open} onClose={onClose} title={tp.cards.title} className="sm:max-w-lg">
      <p className="text-sm text-slate-600">
        <span className="font-medium text-slate-800">{homework.title}</span>
        <span className="ml-2 text-slate-500">
          {tp.cards.summary(
            card.size,
            card.columns,
            card.pageCount,
            card.version,
            tp.identity[card.identity],
          )}
        </span>
      </p>

      <fieldset className="mt-4 space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">{tp.cards.kind}</legend>
        {(['students', 'generic'] as const).map((k) => {
          const disabled = k === 'generic' && !genericAllowed;
          return (
            <label
              key={k}
              className={cn(
                'flex gap-2.5 rounded-lg border px-3 py-2 text-sm',
                kind === k ? 'border-blue-500 bg-blue-50/60' : 'border-slate-200',
                disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
              )}
            >
              <input
                type="radio"
                name={`${ids}-kind`}
                checked={kind === k}
                disabled={disabled}
                onChange={() => setKind(k)}
                className="mt-0.5 size-4 accent-blue-600"
              />
              <span>
                <span className="block font-medium text-slate-800">{tp.cards.kinds[k].label}</span>
                <span className="block text-xs leading-5 text-slate-500">{tp.cards.kinds[k].hint}</span>
              </span>
            </label>
          );
        })}
        {!genericAllowed && (
          <p className="flex gap-2 rounded-md bg-slate-50 px-3 py-2 text-xs leading-5 text-slate-600">
            <InfoIcon className="mt-0.5 size-4 shrink-0 text-slate-500" />
            <span>
              {HOMEWORK_MESSAGES.qrNeedsStudents}
              {homework.permissions.editCard && (
                <>
                  {' '}
                  <Link
                    className="text-blue-600 hover:underline"
                    to={withQuery(paths.answerCard, { homeworkId: homework.id })}
                  >
                    {tp.cards.changeIdentity}
                  </Link>
                </>
              )}
            </span>
          </p>
        )}
      </fieldset>

      {kind === 'students' && (
        <fieldset className="mt-4">
          <legend className="mb-1 text-sm font-medium text-slate-700">{tp.cards.classes}</legend>
          <div className="grid gap-1.5 sm:grid-cols-2">
            {homework.classes.map((c) => (
              <label key={c.id} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={classIds.includes(c.id)}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                  className="size-4 accent-blue-600"
                />
                {tp.cards.classOption(c.name, c.studentCount)}
              </label>
            ))}
          </div>
          <p className="mt-2 text-sm text-slate-600" data-testid="card-print-total">
            {tp.cards.total(students, sheetsPerStudent, card.size)}
          </p>
        </fieldset>
      )}

      <p className="mt-4 flex gap-2 rounded-md bg-amber-50 px-3 py-2 text-xs leading-5 text-amber-800">
        <AlertIcon className="mt-0.5 size-4 shrink-0" />
        <span>
          {tp.cards.scaleNote}{' '}
          <Link className="text-blue-700 underline" to={withQuery(paths.print.test, { size: card.size })}>
            {tp.cards.calibrate}
          </Link>
        </span>
      </p>

      <DirectPrintPanel
        agent={agent}
        source={directSource}
        pagesPerCopy={sheetsPerStudent}
        defaultDuplex={sheetsPerStudent > 1}
      />

      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      )}
      {pdf && (
        <p role="status" className="mt-3 flex flex-wrap items-center gap-2 text-sm text-emerald-700">
          <CheckIcon className="size-4" />
          {tp.cards.downloaded(pdf.filename)}
          <a className="text-blue-600 underline" href={pdf.url} target="_blank" rel="noopener noreferrer">
            {tp.cards.openPdf}
          </a>
        </p>
      )}

      <div className="mt-5 flex flex-wrap items-center justify-end gap-2">
        {busy && loaded !== null && (
          <span className="mr-auto text-xs text-slate-500">{tp.cards.progress(formatBytes(loaded))}</span>
        )}
        <Button variant="secondary" onClick={onClose}>
          {tp.close}
        </Button>
        <Button loading={busy} onClick={() => void download()}>
          {tp.cards.download}
        </Button>
      </div>
    </Dialog>
  );
}

/** A button that opens the card print dialog; disabled with the reason shown when printing must wait. */
export function CardPrintButton({
  homework,
  blockedReason = null,
  variant = 'primary',
  size = 'md',
}: {
  homework: HomeworkSummary;
  blockedReason?: string | null;
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant={variant}
        size={size}
        disabled={blockedReason !== null}
        title={blockedReason ?? undefined}
        onClick={() => setOpen(true)}
      >
        {tp.cards.button}
      </Button>
      {open && <CardPrintDialog homework={homework} open onClose={() => setOpen(false)} />}
    </>
  );
}
