import { useEffect, useRef, useState, type ReactNode } from 'react';
import { SCAN_VIEWER } from '@zhzy/contracts';
import { Spinner } from '../../../components/ui/button';
import { ScanIcon } from '../../../components/icons';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';

export type TileUpload = 'local' | 'pending' | 'uploading' | 'uploaded' | 'failed';

/** One page as the viewer shows it, from the agent or from an uploaded file. */
export interface TilePage {
  key: string;
  seq: number;
  name: string;
  label?: string;
  thumbUrl: string | null;
  side?: 'front' | 'back' | null;
  blank?: boolean;
  upload: TileUpload;
  uploadError?: string | null;
  retryAt?: number | null;
  duplicate?: boolean;
  /** A rescan took this page's place. */
  rescanned?: boolean;
  /** This page waits for its rescan (the sheet is being scanned again). */
  awaitingRescan?: boolean;
}

/** Seconds left until `at`, ticking each second. */
function Countdown({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((at - now) / 1_000));
  return <span>{s.viewer.retryIn(left)}</span>;
}

const uploadTone: Record<TileUpload, string> = {
  local: 'bg-slate-100 text-slate-600',
  pending: 'bg-amber-50 text-amber-700',
  uploading: 'bg-blue-50 text-blue-700',
  uploaded: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
};

function uploadLabel(upload: TileUpload): string {
  return upload === 'uploading' ? s.viewer.upload.pending : s.viewer.upload[upload];
}

/** Where the next page will come: a tile of its own after the last page, or on the page a rescan replaces next. */
function ScanningMark({ overlay = false }: { overlay?: boolean }) {
  return (
    <span
      data-testid="scanning-tile"
      role="status"
      className={cn(
        'flex flex-col items-center justify-center gap-2 text-xs text-blue-700',
        overlay ? 'absolute inset-0 bg-white/75 font-medium' : 'h-full',
      )}
    >
      <Spinner />
      {s.viewer.scanning}
    </span>
  );
}

function PageTile({
  page,
  onRescan,
  rescanDisabled,
  scanningHere,
}: {
  page: TilePage;
  onRescan?: ((seq: number) => void) | undefined;
  rescanDisabled?: boolean | undefined;
  /** The page a rescan replaces next: the scanning mark sits on it. */
  scanningHere?: boolean;
}) {
  return (
    <li
      className={cn(
        'flex w-36 shrink-0 flex-col overflow-hidden rounded-lg border bg-white shadow-sm sm:w-40',
        page.awaitingRescan ? 'border-blue-400 ring-2 ring-blue-200' : 'border-slate-200',
      )}
      data-testid="scan-page"
      data-seq={page.seq}
      data-upload={page.upload}
      data-blank={page.blank ? 'true' : 'false'}
      data-rescan={page.awaitingRescan ? 'waiting' : page.rescanned ? 'done' : undefined}
    >
      <div className="relative flex h-48 items-center justify-center bg-slate-100 sm:h-52">
        {page.thumbUrl ? (
          <img
            src={page.thumbUrl}
            alt={s.viewer.thumbAlt(page.seq, page.name)}
            className="h-full w-full object-contain"
          />
        ) : (
          <Spinner className="text-slate-500" />
        )}
        {page.blank && (
          <span className="absolute top-1.5 left-1.5 rounded bg-slate-800/80 px-1.5 py-0.5 text-xs text-white">
            {s.viewer.blank}
          </span>
        )}
        {(page.awaitingRescan || page.rescanned) && (
          <span
            className={cn(
              'absolute top-1.5 right-1.5 rounded px-1.5 py-0.5 text-xs',
              page.awaitingRescan ? 'bg-blue-600 text-white' : 'bg-emerald-600/90 text-white',
            )}
          >
            {page.awaitingRescan ? s.rescan.waiting : s.rescan.done}
          </span>
        )}
        {scanningHere && <ScanningMark overlay />}
      </div>
      <div className="space-y-1 px-2 py-1.5 text-xs">
        <p className="flex items-center justify-between gap-1 text-slate-700">
          <span className="font-medium">{page.label ?? s.viewer.page(page.seq)}</span>
          {page.side && (
            <span className="text-slate-500">{page.side === 'front' ? s.viewer.front : s.viewer.back}</span>
          )}
        </p>
        <p className="truncate text-slate-500" title={page.name}>
          {page.name}
        </p>
        <p className="flex flex-wrap items-center gap-1">
          <span className={cn('rounded px-1.5 py-0.5', uploadTone[page.upload])}>
            {uploadLabel(page.upload)}
          </span>
          {page.duplicate && <span className="text-slate-500">{s.viewer.duplicate}</span>}
          {onRescan && !page.awaitingRescan && (
            <button
              type="button"
              className="ml-auto rounded px-1.5 py-0.5 font-medium text-blue-700 hover:bg-blue-50 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
              aria-label={s.rescan.buttonLabel(page.seq)}
              disabled={rescanDisabled}
              onClick={() => onRescan(page.seq)}
            >
              {s.rescan.button}
            </button>
          )}
        </p>
        {page.retryAt ? (
          <p className="text-amber-700">
            <Countdown at={page.retryAt} />
          </p>
        ) : null}
        {page.uploadError && page.upload !== 'uploaded' && (
          <p className="line-clamp-3 text-red-600" title={page.uploadError}>
            {page.uploadError}
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * The scan viewer (SPEC §9: 100 % wide, 400 px high): the pages of the batch as they arrive, newest last, with
 * blank pages marked, each page's upload state and, for scanned batches, 重扫 on each page. While the scanner runs,
 * 正在扫描 marks where the next page will come (after the last page, or on the page a rescan replaces next); the
 * viewer scrolls to keep that place, or the newest page of a running batch, in sight.
 */
export function PageViewer({
  pages,
  loading,
  empty,
  onRescan,
  rescanDisabled,
  follow = false,
}: {
  pages: TilePage[];
  /** A scan was asked for and no page has come yet (SPEC §4's loading flag): show where the next page will come. */
  loading: boolean;
  /** The batch is scanning: keep its newest page in sight as pages arrive. */
  follow?: boolean;
  empty?: ReactNode;
  /** 重扫 a page (its whole sheet); absent where pages cannot be rescanned (uploaded files). */
  onRescan?: (seq: number) => void;
  rescanDisabled?: boolean;
}) {
  const list = useRef<HTMLOListElement>(null);
  // A rescan's pages come back in place of the first page still waiting for it; other pages come last.
  const nextSeq = loading ? (pages.find((p) => p.awaitingRescan)?.seq ?? null) : null;
  const nextPlace = loading ? (nextSeq ?? 'end') : null;
  useEffect(() => {
    const box = list.current;
    if (!box || (!nextPlace && !follow)) return;
    const target =
      box.querySelector<HTMLElement>('[data-testid="scanning-tile"]') ??
      (box.lastElementChild as HTMLElement | null);
    if (!target) return;
    const boxTop = box.getBoundingClientRect().top;
    const { top, bottom } = target.getBoundingClientRect();
    if (bottom - boxTop > box.clientHeight) box.scrollTop += bottom - boxTop - box.clientHeight + 12;
    else if (top < boxTop) box.scrollTop -= boxTop - top + 12;
  }, [nextPlace, follow, pages.length]);
  return (
    <section
      aria-label={s.viewer.label}
      aria-busy={loading || undefined}
      data-testid="scan-viewer"
      style={{ width: SCAN_VIEWER.width, height: SCAN_VIEWER.heightPx }}
      className="relative overflow-hidden rounded-xl border border-slate-200 bg-slate-50"
    >
      {pages.length === 0 ? (
        <div className="flex h-full flex-col items-center justify-center gap-3 px-6 text-center">
          {loading ? (
            <Spinner className="size-8 text-blue-600" />
          ) : (
            <span className="flex size-14 items-center justify-center rounded-full bg-white text-slate-500 shadow-sm">
              <ScanIcon className="size-6" />
            </span>
          )}
          <p className="text-base font-medium text-slate-700">
            {loading ? s.viewer.scanning : s.viewer.empty}
          </p>
          {!loading && (
            <p className="max-w-md text-sm leading-6 text-slate-500">{empty ?? s.viewer.emptyHint}</p>
          )}
        </div>
      ) : (
        <ol ref={list} className="flex h-full flex-wrap content-start gap-3 overflow-y-auto p-3">
          {pages.map((p) => (
            <PageTile
              key={p.key}
              page={p}
              onRescan={onRescan}
              rescanDisabled={rescanDisabled}
              scanningHere={p.seq === nextSeq}
            />
          ))}
          {loading && nextSeq === null && (
            <li className="h-[268px] w-36 shrink-0 rounded-lg border border-dashed border-blue-300 bg-white sm:w-40">
              <ScanningMark />
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
