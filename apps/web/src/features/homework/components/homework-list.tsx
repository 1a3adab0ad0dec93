import { DateInput } from '../../../components/ui/date-input';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { HOMEWORK_STATES, type HomeworkState, type HomeworkSummary } from '@zhzy/contracts';
import { Page } from '../../../components/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { Menu } from '../../../components/ui/menu';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths, withQuery } from '../../../config/paths';
import { zhCNHomework as th } from '../../../i18n/zh-CN';
import { useApiRevalidate } from '../../../lib/swr';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useStages } from '../../../api/catalog';
import { useDefaultYearClasses } from '../../../api/classes';
import { HOMEWORK_LIST } from '../../../api/keys';
import {
  NO_FILTERS,
  PAGE_SIZE,
  deleteHomework,
  useHomeworkList,
  type HomeworkFilters,
} from '../api/homework';

// Dialogs load when opened: the landing page's first screen carries only the list (issue #25).
const PaperMarkingDialog = lazy(() =>
  import('./paper-marking-dialog').then((m) => ({ default: m.PaperMarkingDialog })),
);
const PublishDialog = lazy(() => import('./publish-dialog').then((m) => ({ default: m.PublishDialog })));
const ConfirmDialog = lazy(() =>
  import('../../../components/ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })),
);

/** What the app hands the list for printing a homework's cards (the printing feature's dialog). */
export type RenderPrintDialog = (homework: HomeworkSummary, onClose: () => void) => ReactNode;

const STATE_TONES: Record<HomeworkState, string> = {
  toScan: 'bg-slate-100 text-slate-700',
  scanning: 'bg-blue-50 text-blue-700',
  marking: 'bg-amber-50 text-amber-800',
  done: 'bg-emerald-50 text-emerald-700',
};

function isFiltered(f: HomeworkFilters): boolean {
  return Boolean(f.classId || f.subjectId || f.type || f.state || f.from || f.to || f.mine);
}

function Filters({
  value,
  onChange,
  orgId,
}: {
  value: HomeworkFilters;
  onChange: (f: HomeworkFilters) => void;
  orgId: string | null;
}) {
  const { data: years } = useDefaultYearClasses(orgId);
  const { data: stages } = useStages();
  const set = (patch: Partial<HomeworkFilters>) => onChange({ ...value, ...patch, page: 1 });
  // On phones the filters fold away behind one button.
  const [open, setOpen] = useState(false);
  const active = [
    value.classId,
    value.subjectId,
    value.type,
    value.state,
    value.from || value.to,
    value.mine,
  ].filter(Boolean).length;
  const subjects = useMemo(
    () =>
      (stages ?? []).flatMap((s) =>
        s.subjects.map((sub) => ({ value: sub.id, label: th.filters.subjectName(s.name, sub.name) })),
      ),
    [stages],
  );
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        className="sm:hidden"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {th.filters.toggle(active)}
      </Button>
      <div
        role="search"
        aria-label={th.filters.label}
        className={cn(
          'flex-wrap items-center gap-x-4 gap-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:flex',
          open ? 'flex' : 'hidden',
        )}
      >
        <Listbox
          label={th.filters.class}
          value={value.classId}
          options={[
            { value: '', label: th.filters.all },
            ...(years?.classes ?? []).map((c) => ({ value: c.id, label: c.name })),
          ]}
          placeholder={th.filters.all}
          onChange={(classId) => set({ classId })}
        />
        <Listbox
          label={th.filters.subject}
          value={value.subjectId}
          options={[{ value: '', label: th.filters.all }, ...subjects]}
          placeholder={th.filters.all}
          onChange={(subjectId) => set({ subjectId })}
        />
        <Listbox
          label={th.filters.type}
          value={value.type}
          options={[
            { value: '', label: th.filters.all },
            { value: 'homework', label: th.types.homework },
            { value: 'test', label: th.types.test },
          ]}
          placeholder={th.filters.all}
          onChange={(type) => set({ type })}
        />
        <Listbox
          label={th.filters.state}
          value={value.state}
          options={[
            { value: '', label: th.filters.all },
            ...HOMEWORK_STATES.map((s) => ({ value: s, label: th.states[s] })),
          ]}
          placeholder={th.filters.all}
          onChange={(state) => set({ state })}
        />
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-500">
          <label htmlFor="hw-from">{th.filters.from}</label>
          <DateInput
            id="hw-from"
            label={th.filters.from}
            value={value.from}
            max={value.to || undefined}
            onChange={(day) => set({ from: day })}
          />
          <label htmlFor="hw-to">{th.filters.to}</label>
          <DateInput
            id="hw-to"
            label={th.filters.to}
            value={value.to}
            min={value.from || undefined}
            onChange={(day) => set({ to: day })}
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-600">
          <input
            type="checkbox"
            checked={value.mine}
            onChange={(e) => set({ mine: e.target.checked })}
            className="size-4 accent-blue-600"
          />
          {th.filters.mine}
        </label>
        {isFiltered(value) && (
          <Button variant="link" onClick={() => onChange(NO_FILTERS)}>
            {th.filters.clear}
          </Button>
        )}
      </div>
    </>
  );
}

function HomeworkRow({
  hw,
  onPrint,
  onPaperMarking,
  onDelete,
}: {
  hw: HomeworkSummary;
  onPrint: () => void;
  onPaperMarking: () => void;
  onDelete: () => void;
}) {
  const q = { homeworkId: hw.id };
  const more = [
    ...(hw.permissions.editCard
      ? [{ kind: 'link' as const, label: th.actions.design, to: withQuery(paths.answerCard, q) }]
      : []),
    { kind: 'link' as const, label: th.actions.printPaper, to: withQuery(paths.print.printing, q) },
    { kind: 'link' as const, label: th.actions.printAnswer, to: withQuery(paths.print.answer, q) },
    { kind: 'link' as const, label: th.actions.printCode, to: withQuery(paths.print.code, q) },
    {
      kind: 'link' as const,
      label: hw.type === 'test' ? th.actions.scoreSheetTest : th.actions.scoreSheet,
      to: withQuery(hw.type === 'test' ? paths.print.gradeTest : paths.print.grade, q),
    },
    { kind: 'action' as const, label: th.actions.paperMarking, onSelect: onPaperMarking },
    ...(hw.permissions.delete
      ? [
          { kind: 'separator' as const, key: 'sep' },
          { kind: 'action' as const, label: th.actions.delete, onSelect: onDelete, danger: true },
        ]
      : []),
  ];
  const students = hw.classes.reduce((n, c) => n + c.studentCount, 0);
  return (
    <li>
      <article
        aria-label={hw.title}
        data-testid="homework-row"
        className="flex flex-col gap-3 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4 lg:flex-row lg:items-center"
      >
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-base font-semibold text-slate-900">{hw.title}</h3>
            <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">{hw.typeName}</span>
            <span
              data-testid="homework-state"
              className={cn('rounded px-1.5 py-0.5 text-xs', STATE_TONES[hw.state])}
            >
              {hw.stateName}
            </span>
            {hw.mine && <span className="text-xs text-slate-500">{th.mine}</span>}
          </div>
          <p className="text-sm text-slate-600">
            {th.row.meta(hw.stageName, hw.subjectName, hw.questionCount, hw.totalScore)}
            <span className="mx-1.5 text-slate-300">|</span>
            {th.row.dates(hw.startDate, hw.dueDate)}
          </p>
          <p className="text-sm text-slate-600">
            {th.row.classes(hw.classes.map((c) => c.name).join('、'), students)}
            {!hw.mine && <span className="ml-2 text-slate-500">{th.row.by(hw.createdByName)}</span>}
          </p>
          <p className="text-xs text-slate-500">
            {th.row.card(
              th.sizes[hw.card.size],
              hw.card.columns,
              hw.card.pageCount,
              hw.card.version,
              th.identity[hw.card.identity],
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-1.5 sm:gap-2">
          <Button size="sm" onClick={onPrint}>
            {th.actions.print}
          </Button>
          <ButtonLink size="sm" variant="secondary" to={withQuery(paths.scan, q)}>
            {th.actions.scan}
          </ButtonLink>
          <ButtonLink size="sm" variant="secondary" to={withQuery(paths.correct, q)}>
            {th.actions.mark}
          </ButtonLink>
          <ButtonLink size="sm" variant="secondary" to={withQuery(paths.analysis.grade, q)}>
            {th.actions.analyse}
          </ButtonLink>
          <Menu
            label={th.actions.moreOf(hw.title)}
            button={<span className="px-2 text-sm text-slate-600">{th.actions.more}</span>}
            buttonClassName="h-8 rounded-md border border-slate-300 bg-white shadow-sm hover:bg-slate-50"
            items={more}
          />
        </div>
      </article>
    </li>
  );
}

/**
 * /paperlist: the school's homework and tests of the default school year with their states (computed by the host),
 * filters, the actions each permits, and 发布作业 from one of the teacher's papers.
 */
export function HomeworkListScreen({
  orgId,
  renderPrintDialog,
}: {
  orgId: string | null;
  renderPrintDialog: RenderPrintDialog;
}) {
  const [filters, setFilters] = useState<HomeworkFilters>(NO_FILTERS);
  const [params, setParams] = useSearchParams();
  const handedPaper = params.get('publish');
  const [publishing, setPublishing] = useState<{ paperId: string | null } | null>(
    handedPaper ? { paperId: handedPaper } : null,
  );
  const [printing, setPrinting] = useState<HomeworkSummary | null>(null);
  const [paperMarking, setPaperMarking] = useState<HomeworkSummary | null>(null);
  const [deleting, setDeleting] = useState<HomeworkSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useHomeworkList(filters);
  const { data, isLoading, mutate } = list;
  const error = Boolean(list.error);
  const revalidate = useApiRevalidate();

  // /paperlist?publish=<paperId> (from /edit or /answerCard) opens 发布作业 with that paper.
  useEffect(() => {
    if (!handedPaper) return;
    setPublishing({ paperId: handedPaper });
    setParams(
      (p) => {
        p.delete('publish');
        return p;
      },
      { replace: true },
    );
  }, [handedPaper, setParams]);

  /** After a publish or delete: every homework list (this one, the print pages' picker) is read again. */
  const refresh = () => void revalidate(HOMEWORK_LIST);

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteHomework(deleting.id);
      toast.success(th.deleted(deleting.title));
      setDeleting(null);
      refresh();
    } catch {
      // The client showed why.
    } finally {
      setBusy(false);
    }
  };

  const records = data?.records ?? [];
  return (
    <Page
      title={th.title}
      lead={th.lead}
      wide
      actions={
        <div className="flex gap-2">
          <ButtonLink variant="secondary" to={paths.rehearse.select}>
            {th.goCompose}
          </ButtonLink>
          <Button onClick={() => setPublishing({ paperId: null })}>{th.publishButton}</Button>
        </div>
      }
    >
      <div className="space-y-4">
        <Filters value={filters} onChange={setFilters} orgId={orgId} />
        {error && !data ? (
          <div className="rounded-xl bg-white ring-1 ring-slate-200">
            <Empty
              title={th.loadFailed}
              action={
                <Button variant="secondary" onClick={() => void mutate()}>
                  {th.retry}
                </Button>
              }
            />
          </div>
        ) : isLoading && !data ? (
          <div className="space-y-3" role="status" aria-label={th.loading}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-28 rounded-xl" />
            ))}
          </div>
        ) : records.length === 0 ? (
          <div className="rounded-xl bg-white ring-1 ring-slate-200">
            {isFiltered(filters) ? (
              <Empty
                title={th.noMatch}
                description={th.noMatchHint}
                action={
                  <Button variant="secondary" onClick={() => setFilters(NO_FILTERS)}>
                    {th.filters.clear}
                  </Button>
                }
              />
            ) : (
              <Empty
                title={th.empty.title}
                description={
                  <span className="block text-left">
                    {th.empty.steps.map((s, i) => (
                      <span key={i} className="block">
                        {s}
                      </span>
                    ))}
                  </span>
                }
                action={
                  <div className="flex flex-wrap justify-center gap-2">
                    <ButtonLink variant="secondary" to={paths.rehearse.select}>
                      {th.goCompose}
                    </ButtonLink>
                    <Button onClick={() => setPublishing({ paperId: null })}>{th.publishButton}</Button>
                  </div>
                }
              />
            )}
          </div>
        ) : (
          <>
            <p className="text-sm text-slate-500" data-testid="homework-total">
              {th.total(data!.total)}
            </p>
            <ul className="space-y-3" aria-label={th.title}>
              {records.map((hw) => (
                <HomeworkRow
                  key={hw.id}
                  hw={hw}
                  onPrint={() => setPrinting(hw)}
                  onPaperMarking={() => setPaperMarking(hw)}
                  onDelete={() => setDeleting(hw)}
                />
              ))}
            </ul>
            <Pagination
              page={filters.page}
              total={data!.total}
              size={PAGE_SIZE}
              onChange={(page) => setFilters((f) => ({ ...f, page }))}
            />
          </>
        )}
      </div>

      <Suspense fallback={null}>
        {publishing && (
          <PublishDialog
            open
            orgId={orgId}
            initialPaperId={publishing.paperId}
            onClose={() => setPublishing(null)}
            onPublished={() => {
              setPublishing(null);
              setFilters(NO_FILTERS);
              refresh();
            }}
          />
        )}
        {printing && renderPrintDialog(printing, () => setPrinting(null))}
        {paperMarking && <PaperMarkingDialog homework={paperMarking} onClose={() => setPaperMarking(null)} />}
        {deleting !== null && (
          <ConfirmDialog
            open
            title={th.deleteTitle}
            confirmLabel={th.actions.delete}
            danger
            busy={busy}
            onConfirm={() => void confirmDelete()}
            onClose={() => setDeleting(null)}
          >
            {th.deleteBody(deleting.title)}
          </ConfirmDialog>
        )}
      </Suspense>
    </Page>
  );
}
