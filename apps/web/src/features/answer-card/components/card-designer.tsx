import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router-dom';
import type {
  CardElementOf,
  HomeworkCard,
  HomeworkDetail,
  HomeworkSummary,
  PaperCard,
} from '@zhzy/contracts';
import { AlertIcon, CheckIcon, ChevronLeftIcon, ChevronRightIcon, InfoIcon } from '../../../components/icons';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Empty } from '../../../components/ui/empty';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { zhCNCards as tc } from '../../../i18n/zh-CN';
import { useApiMutate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useHomeworkDetail } from '../../../api/homework';
import { keys } from '../../../api/keys';
import {
  editHomeworkCard,
  homeworkCardKey,
  paperCardKey,
  savePaperCard,
  useHomeworkCard,
  usePaperCard,
} from '../api/card';
import { useCardDesign } from '../hooks/use-card-design';
import { boxKey, warningsByBox } from '../utils/settings';
import { CardPageSvg, type CardPrintedWords } from './card-page-svg';
import { ResizableBox } from './resizable-box';
import { ScoreBoxPanel } from './score-box-panel';
import { SettingsPanel } from './settings-panel';

const WORDS: CardPrintedWords = tc.words;

/** What the app hands the designer for printing a published card (the printing feature's dialog). */
export type RenderPrint = (homework: HomeworkSummary, blockedReason: string | null) => ReactNode;

type Source =
  | { mode: 'paper'; id: string; card: PaperCard }
  | { mode: 'homework'; id: string; card: HomeworkCard; homework: HomeworkDetail };

/**
 * /answerCard: the card of a paper (`paperId`) or of a published homework (`homeworkId`, whose edits make a new card
 * version), designed on a live preview laid out in the browser by the same `layoutCard` that prints and reads it.
 */
export function CardDesigner({
  paperId,
  homeworkId,
  renderPrint,
}: {
  paperId: string | null;
  homeworkId: string | null;
  renderPrint?: RenderPrint;
}) {
  const paperCard = usePaperCard(homeworkId ? null : paperId);
  const hwCard = useHomeworkCard(homeworkId);
  const hwDetail = useHomeworkDetail(homeworkId);

  let source: Source | null = null;
  if (homeworkId && hwCard.data && hwDetail.data)
    source = { mode: 'homework', id: homeworkId, card: hwCard.data, homework: hwDetail.data };
  else if (!homeworkId && paperId && paperCard.data)
    source = { mode: 'paper', id: paperId, card: paperCard.data };
  const failed = homeworkId ? Boolean(hwCard.error) || Boolean(hwDetail.error) : Boolean(paperCard.error);

  if (!paperId && !homeworkId) {
    return (
      <Frame title={tc.title}>
        <Empty
          title={tc.missingTitle}
          description={tc.missingHint}
          action={
            <div className="flex gap-2">
              <ButtonLink to={paths.rehearse.select}>{tc.goCompose}</ButtonLink>
              <ButtonLink to={paths.paperlist} variant="secondary">
                {tc.goList}
              </ButtonLink>
            </div>
          }
        />
      </Frame>
    );
  }
  if (!source) {
    return (
      <Frame title={tc.title}>
        {failed ? (
          <Empty
            title={tc.loadFailed}
            action={
              <ButtonLink to={paths.paperlist} variant="secondary">
                {tc.goList}
              </ButtonLink>
            }
          />
        ) : (
          <div className="mx-auto max-w-3xl px-6 py-10">
            <SkeletonLines lines={8} />
          </div>
        )}
      </Frame>
    );
  }
  return <LoadedDesigner key={`${source.mode}:${source.id}`} source={source} renderPrint={renderPrint} />;
}

/** The page frame without the app's top nav (SPEC §2): a header with the way back, then the content. */
function Frame({
  title,
  subtitle,
  back,
  status,
  actions,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  back?: { to: string; label: string };
  status?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-slate-100">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-[1600px] flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <Link
            to={back?.to ?? paths.paperlist}
            className="inline-flex items-center gap-1 text-sm text-blue-600 hover:underline"
          >
            <ChevronLeftIcon className="size-4" />
            {back?.label ?? tc.goList}
          </Link>
          <div className="min-w-0 flex-1">
            <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
            {subtitle && <p className="truncate text-sm text-slate-500">{subtitle}</p>}
          </div>
          {status}
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
      </header>
      {children}
    </div>
  );
}

function LoadedDesigner({ source, renderPrint }: { source: Source; renderPrint?: RenderPrint }) {
  const { card } = source;
  const version = source.mode === 'paper' ? source.card.latestVersion + 1 : source.card.currentVersion;
  const design = useCardDesign(card.paper, card.settings, { cardId: card.cardId, version });
  const { settings, layout, dirty } = design;
  const editable = source.mode === 'paper' ? source.card.editable : source.homework.permissions.editCard;
  const mutate = useApiMutate();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [pageIndex, setPageIndex] = useState(0);
  const [activeBox, setActiveBox] = useState<string | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const previewRef = useRef<HTMLDivElement>(null);

  const pages = layout.pages;
  const page = pages[Math.min(pageIndex, pages.length - 1)]!;
  const boxWarnings = useMemo(() => warningsByBox(layout.warnings), [layout.warnings]);

  // Leaving with unsaved changes asks first; a navigation the designer starts itself after saving does not.
  const guard = useRef(dirty);
  guard.current = dirty;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      guard.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const save = useCallback(async (): Promise<boolean> => {
    if (!editable || saving) return false;
    setSaving(true);
    try {
      if (source.mode === 'paper') {
        const saved = await savePaperCard(source.id, settings);
        design.markSaved(saved.settings);
        await mutate(paperCardKey(source.id), saved, { revalidate: false });
        toast.success(tc.saved);
      } else {
        const before = source.card.currentVersion;
        const saved = await editHomeworkCard(source.id, settings);
        design.markSaved(saved.settings);
        await mutate(homeworkCardKey(source.id), saved, { revalidate: false });
        void mutate(keys.homeworkDetail(source.id));
        toast.success(saved.currentVersion === before ? tc.unchanged : tc.savedVersion(saved.currentVersion));
      }
      return true;
    } catch {
      // The client already showed the host's message.
      return false;
    } finally {
      setSaving(false);
    }
  }, [editable, saving, source, settings, design, mutate]);

  const publish = async () => {
    if (dirty && !(await save())) return;
    guard.current = false;
    void navigate(withQuery(paths.paperlist, { publish: source.id }));
  };

  const locate = (key: string) => {
    const index = pages.findIndex((p) =>
      p.elements.some((e) => e.type === 'writtenBox' && boxKey(e) === key),
    );
    if (index < 0) return;
    setPageIndex(index);
    // After the page switched, focus that box's edge so the arrow keys adjust it at once.
    requestAnimationFrame(() => {
      previewRef.current
        ?.querySelector<SVGGElement>(`[data-box-key="${CSS.escape(key)}"] [role="separator"]`)
        ?.focus();
    });
  };

  const adjusted = Object.keys(settings.writtenHeights).length;
  const status = (
    <span
      data-testid="card-status"
      className={cn(
        'rounded-full px-2.5 py-1 text-xs font-medium',
        dirty ? 'bg-amber-50 text-amber-700' : 'bg-emerald-50 text-emerald-700',
      )}
    >
      {dirty
        ? tc.status.unsaved
        : source.mode === 'paper' && !source.card.saved
          ? tc.status.defaults
          : tc.status.saved}
    </span>
  );

  const printBlocked = dirty ? tc.saveBeforePrint : null;
  const actions = (
    <>
      {source.mode === 'paper' && (
        <ButtonLink variant="ghost" to={withQuery(paths.print.printing, { paperId: source.id })}>
          {tc.printPaper}
        </ButtonLink>
      )}
      {editable && (
        <Button
          variant={source.mode === 'paper' ? 'secondary' : 'primary'}
          disabled={!dirty}
          loading={saving}
          onClick={() => void save()}
        >
          {source.mode === 'paper' ? tc.save : tc.saveVersion}
        </Button>
      )}
      {source.mode === 'paper' && source.card.editable && (
        <Button onClick={() => void publish()} disabled={saving}>
          {tc.publish}
        </Button>
      )}
      {source.mode === 'homework' && renderPrint?.(source.homework, printBlocked)}
    </>
  );

  const subtitle =
    source.mode === 'paper'
      ? tc.paperMode(card.paper.title)
      : tc.homeworkMode(source.homework.title, source.card.currentVersion);
  const back =
    source.mode === 'paper'
      ? { to: withQuery(paths.edit, { paperId: source.id }), label: tc.backToEdit }
      : { to: paths.paperlist, label: tc.goList };

  return (
    <Frame title={tc.title} subtitle={subtitle} back={back} status={status} actions={actions}>
      <div className="mx-auto grid max-w-[1600px] gap-5 px-4 py-5 lg:grid-cols-[320px_minmax(0,1fr)]">
        <aside className="space-y-4 lg:order-first" aria-label={tc.settings.heading}>
          {!editable && (
            <p className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200">
              <InfoIcon className="mt-0.5 size-4 shrink-0 text-slate-500" />
              {source.mode === 'paper' ? tc.readOnlyPaper : tc.readOnlyHomework}
            </p>
          )}
          <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 className="mb-3 text-base font-semibold text-slate-900">{tc.settings.heading}</h2>
            <SettingsPanel settings={settings} disabled={!editable} onChange={design.update} />
          </section>
          <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 className="text-base font-semibold text-slate-900">{tc.boxes.heading}</h2>
            <p className="mt-1 text-sm leading-6 text-slate-500">{tc.boxes.hint}</p>
            <div className="mt-2 flex items-center justify-between gap-2 text-sm">
              <span className="text-slate-600">{tc.boxes.adjusted(adjusted)}</span>
              <Button variant="link" disabled={!editable || adjusted === 0} onClick={design.resetHeights}>
                {tc.boxes.reset}
              </Button>
            </div>
          </section>
          <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 className="text-base font-semibold text-slate-900">{tc.scoreBoxes.heading}</h2>
            <p className="mb-3 mt-1 text-sm leading-6 text-slate-500">{tc.scoreBoxes.intro}</p>
            <ScoreBoxPanel
              paper={card.paper}
              settings={settings}
              disabled={!editable}
              onChange={design.update}
            />
          </section>
          <CheckPanel
            warnings={layout.warnings}
            failed={design.failed}
            pageCount={pages.length}
            size={layout.size}
            onLocate={locate}
          />
          {source.mode === 'paper' && (
            <p className="px-1 text-xs leading-5 text-slate-500">{tc.publishHint}</p>
          )}
        </aside>

        <section aria-label={tc.pages.label} className="order-first min-w-0 space-y-3 lg:order-none">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <PageNav
              count={pages.length}
              index={Math.min(pageIndex, pages.length - 1)}
              onChange={setPageIndex}
            />
            <Button variant="ghost" size="sm" aria-pressed={zoomed} onClick={() => setZoomed((z) => !z)}>
              {zoomed ? tc.zoomFit : tc.zoomIn}
            </Button>
          </div>
          <div ref={previewRef} className="overflow-x-auto rounded-xl bg-slate-200/70 p-3 sm:p-6">
            <div
              className="mx-auto bg-white shadow-lg ring-1 ring-slate-900/10"
              style={
                zoomed
                  ? { width: `${Math.round(page.widthMm * 5)}px`, maxWidth: 'none' }
                  : { maxWidth: `${Math.round(page.widthMm * 3.6)}px` }
              }
            >
              <CardPageSvg
                page={page}
                words={WORDS}
                interactive
                label={tc.preview(layout.title, page.index + 1, pages.length)}
                className="block h-auto w-full select-none"
                renderWritten={(e: CardElementOf<'writtenBox'>) => {
                  const key = boxKey(e);
                  return (
                    <ResizableBox
                      e={e}
                      pageWidthMm={page.widthMm}
                      warn={boxWarnings.has(key)}
                      active={activeBox === key}
                      onResize={editable ? design.setBoxHeight : () => undefined}
                      onActive={setActiveBox}
                    />
                  );
                }}
              />
            </div>
          </div>
          {settings.identity === 'qr' && <p className="text-xs text-slate-500">{tc.qrNote}</p>}
        </section>
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title={tc.leave.title}
        confirmLabel={tc.leave.confirm}
        danger
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        {tc.leave.body}
      </ConfirmDialog>
    </Frame>
  );
}

function PageNav({
  count,
  index,
  onChange,
}: {
  count: number;
  index: number;
  onChange: (i: number) => void;
}) {
  return (
    <nav aria-label={tc.pages.label} className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        aria-label={tc.pages.prev}
        disabled={index === 0}
        onClick={() => onChange(index - 1)}
      >
        <ChevronLeftIcon className="size-4" />
      </Button>
      {Array.from({ length: count }, (_, i) => (
        <Button
          key={i}
          size="sm"
          variant={i === index ? 'primary' : 'secondary'}
          aria-current={i === index ? 'page' : undefined}
          onClick={() => onChange(i)}
        >
          {tc.pages.of(i + 1)}
        </Button>
      ))}
      <Button
        variant="secondary"
        size="sm"
        aria-label={tc.pages.next}
        disabled={index >= count - 1}
        onClick={() => onChange(index + 1)}
      >
        <ChevronRightIcon className="size-4" />
      </Button>
      <span data-testid="page-count" className="text-sm text-slate-500">
        {tc.pages.total(count)}
      </span>
    </nav>
  );
}

function CheckPanel({
  warnings,
  failed,
  pageCount,
  size,
  onLocate,
}: {
  warnings: { code: string; questionId?: string | undefined; message: string }[];
  failed: boolean;
  pageCount: number;
  size: string;
  onLocate: (key: string) => void;
}) {
  const ok = warnings.length === 0 && !failed;
  return (
    <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" aria-live="polite">
      <h2 className="text-base font-semibold text-slate-900">{tc.check.heading}</h2>
      {ok ? (
        <p className="mt-2 flex gap-2 text-sm text-emerald-700">
          <CheckIcon className="mt-0.5 size-4 shrink-0" />
          {tc.check.ok(pageCount)}
        </p>
      ) : (
        <ul className="mt-2 space-y-2" data-testid="card-warnings">
          {failed && (
            <li className="flex gap-2 text-sm text-red-700">
              <AlertIcon className="mt-0.5 size-4 shrink-0" />
              {tc.check.failed}
            </li>
          )}
          {warnings.map((w, i) => (
            <li key={`${w.code}-${w.questionId ?? ''}-${i}`} className="flex gap-2 text-sm text-amber-800">
              <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-500" />
              <span className="min-w-0 flex-1">{w.message}</span>
              {w.questionId && (
                <Button variant="link" onClick={() => onLocate(w.questionId!)}>
                  {tc.check.locate}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p data-testid="pages-per-student" className="mt-2 text-sm text-slate-600">
        {tc.check.perStudent(pageCount, size)}
      </p>
    </section>
  );
}
