import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useBlocker, useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '@zhzy/api-client';
import {
  coefficientLevelName,
  DIFFICULTY_COEFFICIENT_HINT,
  draftCoefficient,
  MESSAGES,
  PAPER_STATUS_NAMES,
  SavePaperSchema,
  type PaperDocument,
  type PaperStatus,
  type Question,
} from '@zhzy/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Empty } from '../../../components/ui/empty';
import { Menu, type MenuEntry } from '../../../components/ui/menu';
import { isChoice, relabel, type QuestionDraft } from '../../../components/ui/question-fields';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { ChevronDownIcon, ChevronLeftIcon } from '../../../components/icons';
import { paths, withQuery } from '../../../config/paths';
import { SCREENS, t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useQuestionTypes } from '../../../api/catalog';
import { createQuestion, editPaperQuestion, exportWord, openPaper, savePaper } from '../api/paper';
import { useHistory } from '../hooks/use-history';
import {
  addQuestions,
  contentKey,
  draftOf,
  itemNumbers,
  itemScore,
  locate,
  moveItem,
  moveItemTo,
  moveSection,
  paperQuestionOf,
  paperTotal,
  questionCount,
  questionIdsOf,
  removeItem,
  removeSection,
  replaceItem,
  saveBodyOf,
  sectionNumeral,
  sectionTotal,
  setItemScore,
  setSectionNote,
  setSectionScore,
  setSectionTitle,
  type Draft,
} from '../utils/draft';
import { PaperSections, type SectionActions } from './paper-sections';
import { QuestionDialog } from './question-dialog';
import { SimilarDrawer } from './similar-drawer';

const EMPTY: Draft = { title: '', subtitle: '', status: 'draft', sections: [] };

/** The paper's predicted 难度系数 (score-weighted, the shared convention: a score rate, higher is easier). */
export function paperDifficulty(draft: Draft): number | null {
  return draftCoefficient(
    draft.sections.flatMap((s) =>
      s.items.flatMap((i) => (i.question ? [{ level: i.question.difficulty, score: itemScore(i, s) }] : [])),
    ),
  );
}

/** Focuses the first enabled of the given buttons once the move has been drawn. */
function focusLater(...ids: string[]) {
  requestAnimationFrame(() => {
    for (const id of ids) {
      const el = document.getElementById(id) as HTMLButtonElement | null;
      if (el && !el.disabled) {
        el.focus();
        return;
      }
    }
  });
}

/**
 * The composition centre: the paper as an editable document with undo, saving with versions, and export. A paper
 * composed from the basket hands its basket paper to `onSavedFromBasket` after each successful save (the route
 * empties that basket: its questions are in the paper now).
 */
export function ComposeScreen({
  onSavedFromBasket,
}: {
  onSavedFromBasket?: (basketPaperId: string) => void | Promise<void>;
} = {}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const paperId = params.get('paperId');
  const type = params.get('type');
  const textbookId = params.get('textbookId');

  const [doc, setDocState] = useState<PaperDocument | null>(null);
  const docRef = useRef<PaperDocument | null>(null);
  const setDoc = (d: PaperDocument) => {
    docRef.current = d;
    setDocState(d);
  };
  const [loadState, setLoadState] = useState<'loading' | 'ready' | 'error'>('loading');
  const history = useHistory<Draft>(EMPTY);
  const { reset, replace, undo, redo } = history;
  const draft = history.value;
  const [savedKey, setSavedKey] = useState(contentKey(EMPTY));
  const dirty = loadState === 'ready' && contentKey(draft) !== savedKey;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const [busy, setBusy] = useState<PaperStatus | 'edit' | null>(null);
  const [exporting, setExporting] = useState<number | null | undefined>(undefined);
  const [conflict, setConflict] = useState<string | null>(null);
  const [similarFor, setSimilarFor] = useState<string | null>(null);
  const [editFor, setEditFor] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [answers, setAnswers] = useState<Set<string>>(new Set());
  const [live, setLive] = useState('');
  const loadedId = useRef<string | null>(null);
  const onSavedFromBasketRef = useRef(onSavedFromBasket);
  onSavedFromBasketRef.current = onSavedFromBasket;
  const skipBlock = useRef(false);

  const { data: types } = useQuestionTypes(doc?.subjectId ?? null);
  const numbering = doc?.settings.numbering ?? 'continuous';
  const numbers = useMemo(() => itemNumbers(draft, numbering), [draft, numbering]);
  const total = paperTotal(draft);
  const count = questionCount(draft);
  const difficulty = paperDifficulty(draft);

  const adopt = useCallback(
    (d: PaperDocument) => {
      setDoc(d);
      loadedId.current = d.id;
      reset(draftOf(d));
      setSavedKey(contentKey(draftOf(d)));
      setLoadState('ready');
    },
    [reset],
  );

  const load = useCallback(
    async (q: { paperId: string; type: string | null; textbookId: string | null }) => {
      setLoadState('loading');
      try {
        const d = await openPaper(q);
        adopt(d);
        // From now on the URL names the paper itself, so a reload reopens it rather than composing again.
        if (q.type === '2') setParams({ paperId: d.id }, { replace: true });
      } catch {
        setLoadState('error');
      }
    },
    [adopt, setParams],
  );

  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!paperId) return;
    if (type !== '2' && loadedId.current === paperId) return;
    // One request per query, however often React runs the effect.
    const key = `${paperId}|${type}|${textbookId}`;
    if (requested.current === key) return;
    requested.current = key;
    void load({ paperId, type, textbookId });
  }, [paperId, type, textbookId, load]);

  // ───────────── saving ─────────────

  const save = useCallback(
    async (status?: PaperStatus): Promise<boolean> => {
      const current = docRef.current;
      if (!current) return false;
      const sent = draftRef.current;
      const body = saveBodyOf(sent, current.version, status ?? sent.status);
      const checked = SavePaperSchema.safeParse(body);
      if (!checked.success) {
        toast.error(checked.error.issues[0]?.message ?? MESSAGES.invalidParams);
        return false;
      }
      setBusy(body.status);
      try {
        const saved = await savePaper(current.id, checked.data);
        setDoc(saved);
        replace((prev) => ({
          ...prev,
          status: saved.status,
          // New sections got their ids from the host: keep them, so the next save updates rather than recreates.
          sections: prev.sections.map((s, i) => {
            const got = saved.sections[i];
            return s.id === null && got && got.typeId === s.typeId ? { ...s, id: got.id } : s;
          }),
        }));
        setSavedKey(contentKey(draftOf(saved)));
        toast.success(saved.status === 'final' ? composition.compose.savedFinal : composition.compose.saved);
        if (saved.basketPaperId) void onSavedFromBasketRef.current?.(saved.basketPaperId);
        return true;
      } catch (error) {
        if (isApiError(error) && error.status === 409) setConflict(error.message);
        else toast.error(isApiError(error) ? error.message : MESSAGES.internal);
        return false;
      } finally {
        setBusy(null);
      }
    },
    [replace],
  );

  const go = async (to: string) => {
    if (dirtyRef.current && !(await save())) return;
    skipBlock.current = true;
    void navigate(to);
  };

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !skipBlock.current && dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const exportCopy = async (copy: 'student' | 'teacher') => {
    if (dirtyRef.current && !(await save())) return;
    const current = docRef.current;
    if (!current) return;
    setExporting(0);
    try {
      const name = `${current.title}${copy === 'student' ? composition.compose.studentSuffix : composition.compose.teacherSuffix}.docx`;
      await exportWord(current.id, copy, name, (p) => setExporting(p));
      toast.success(composition.compose.exported);
    } catch {
      // 下载失败 was shown by the client.
    } finally {
      setExporting(undefined);
    }
  };

  // ───────────── edits ─────────────

  const dialogsOpen =
    similarFor !== null || editFor !== null || adding || conflict !== null || blocker.state === 'blocked';

  const actions: SectionActions = {
    moveItem: (key, delta) => {
      const loc = locate(draft, key);
      if (!loc) return;
      const to = loc.index + delta;
      if (to < 0 || to >= loc.section.items.length) return;
      history.commit((d) => moveItem(d, loc.section.key, loc.index, to));
      setLive(composition.compose.moved((numbers.get(key) ?? 0) + delta));
      focusLater(delta < 0 ? `up-${key}` : `down-${key}`, delta < 0 ? `down-${key}` : `up-${key}`);
    },
    moveSection: (key, delta) => {
      const from = draft.sections.findIndex((s) => s.key === key);
      const to = from + delta;
      if (from < 0 || to < 0 || to >= draft.sections.length) return;
      history.commit((d) => moveSection(d, from, to));
      setLive(composition.compose.sectionMoved(draft.sections[from]!.title, sectionNumeral(to)));
      focusLater(
        delta < 0 ? `sec-up-${key}` : `sec-down-${key}`,
        delta < 0 ? `sec-down-${key}` : `sec-up-${key}`,
      );
    },
    dropItem: (key, sectionKey, index) => history.commit((d) => moveItemTo(d, key, sectionKey, index)),
    dropSection: (key, index) =>
      history.commit((d) => {
        const from = d.sections.findIndex((s) => s.key === key);
        return from < 0 ? d : moveSection(d, from, index > from ? index - 1 : index);
      }),
    setItemScore: (key, score) => history.commit((d) => setItemScore(d, key, score), `score:${key}`),
    setSectionScore: (key, score) => history.commit((d) => setSectionScore(d, key, score), `each:${key}`),
    setSectionTitle: (key, title) => history.commit((d) => setSectionTitle(d, key, title), `title:${key}`),
    setSectionNote: (key, note) => history.commit((d) => setSectionNote(d, key, note), `note:${key}`),
    removeItem: (key) => {
      history.commit((d) => removeItem(d, key));
      toast(composition.compose.removedToast(numbers.get(key) ?? 0));
    },
    removeSection: (key) => {
      const index = draft.sections.findIndex((s) => s.key === key);
      history.commit((d) => removeSection(d, key));
      toast(composition.compose.sectionRemovedToast(sectionNumeral(Math.max(0, index))));
    },
    openSimilar: setSimilarFor,
    openEdit: setEditFor,
    toggleAnswer: (key) =>
      setAnswers((prev) => {
        const next = new Set(prev);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
  };

  // Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y) undo and redo; Ctrl+S saves. The listener reads refs, so a key pressed
  // right after a dialog closed is not judged by the state of the render before.
  const keysLive = useRef(false);
  keysLive.current = !dialogsOpen && loadState === 'ready';
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!keysLive.current || !(e.ctrlKey || e.metaKey)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') redo();
      else if (key === 's') void saveRef.current();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  const pickSimilar = (q: Question) => {
    const key = similarFor;
    if (!key) return;
    const no = numbers.get(key) ?? 0;
    history.commit((d) => replaceItem(d, key, paperQuestionOf(q)));
    setSimilarFor(null);
    toast.success(composition.compose.replaced(no));
  };

  const submitEdit = async (value: QuestionDraft, typeName: string): Promise<boolean> => {
    const key = editFor;
    if (!key) return false;
    if (dirtyRef.current && !(await save())) return false;
    const current = docRef.current;
    const loc = locate(draftRef.current, key);
    const item = loc?.section.items[loc.index];
    if (!current || !loc || !item) return false;
    try {
      const saved = await editPaperQuestion(current.id, {
        version: current.version,
        questionId: item.questionId,
        stem: value.stem,
        options: isChoice(typeName) ? relabel(value.options) : [],
        answer: value.answer,
        analysis: value.analysis,
        difficulty: value.difficulty,
      });
      setDoc(saved);
      const copy = saved.sections[loc.sectionIndex]?.items[loc.index]?.question;
      if (copy) history.commit((d) => replaceItem(d, key, copy));
      else reset(draftOf(saved));
      setSavedKey(contentKey(draftOf(saved)));
      toast.success(composition.compose.edited);
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 409) setConflict(error.message);
      else toast.error(isApiError(error) ? error.message : MESSAGES.internal);
      return false;
    }
  };

  const submitAdd = async (value: QuestionDraft, typeName: string): Promise<boolean> => {
    const current = docRef.current;
    if (!current) return false;
    try {
      const q = await createQuestion({
        subjectId: current.subjectId,
        typeId: value.typeId,
        difficulty: value.difficulty,
        stem: value.stem,
        options: isChoice(typeName) ? relabel(value.options) : [],
        answer: value.answer,
        analysis: value.analysis,
      });
      const objective = types?.find((x) => x.id === q.typeId)?.objective ?? false;
      history.commit((d) => addQuestions(d, [paperQuestionOf(q)], () => (objective ? 3 : 10)));
      toast.success(composition.compose.added);
      return true;
    } catch {
      return false;
    }
  };

  const reload = async () => {
    const current = docRef.current;
    setConflict(null);
    if (current) {
      loadedId.current = null;
      requested.current = null;
      await load({ paperId: current.id, type: null, textbookId: null });
    }
  };

  // ───────────── screens ─────────────

  if (!paperId) {
    return (
      <Shell>
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty
            title={composition.compose.noPaper}
            description={composition.compose.noPaperHint}
            action={
              <div className="mt-2 flex gap-2">
                <ButtonLink to={paths.rehearse.select}>{composition.compose.goPick}</ButtonLink>
                <ButtonLink to={paths.cloudResources.personPaper} variant="secondary">
                  {composition.compose.myPapers}
                </ButtonLink>
              </div>
            }
          />
        </div>
      </Shell>
    );
  }
  if (loadState === 'error') {
    return (
      <Shell>
        <div className="rounded-xl border border-slate-200 bg-white">
          <Empty
            title={composition.compose.openFailed}
            description={composition.compose.openFailedHint}
            action={
              <div className="mt-2 flex gap-2">
                <Button
                  onClick={() => {
                    requested.current = null;
                    void load({ paperId, type, textbookId });
                  }}
                >
                  {t.retry}
                </Button>
                <ButtonLink to={paths.rehearse.select} variant="secondary">
                  {composition.compose.goPick}
                </ButtonLink>
              </div>
            }
          />
        </div>
      </Shell>
    );
  }
  if (loadState === 'loading' || !doc) {
    return (
      <Shell>
        <div className="rounded-xl border border-slate-200 bg-white p-8">
          <SkeletonLines lines={10} />
        </div>
      </Shell>
    );
  }

  const similarItem = similarFor
    ? (locate(draft, similarFor)?.section.items.find((i) => i.key === similarFor) ?? null)
    : null;
  const editLoc = editFor ? locate(draft, editFor) : null;
  const editItem = editLoc?.section.items[editLoc.index] ?? null;
  const settingsHref = withQuery(paths.paperset, { paperId: doc.id });
  const cardHref = withQuery(paths.answerCard, { paperId: doc.id });
  const exportItems: MenuEntry[] = [
    { kind: 'action', label: composition.compose.exportStudent, onSelect: () => void exportCopy('student') },
    { kind: 'action', label: composition.compose.exportTeacher, onSelect: () => void exportCopy('teacher') },
  ];

  return (
    <div className="mx-auto w-full max-w-[1400px] px-4 pb-16 sm:px-6">
      <p className="sr-only" aria-live="polite">
        {live}
      </p>
      <div className="z-20 -mx-4 mb-5 border-b border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:sticky lg:top-16">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <div className="flex min-w-0 items-center gap-3">
            <Link
              to={paths.rehearse.select}
              className="inline-flex items-center text-sm text-slate-500 hover:text-blue-700"
              aria-label={composition.compose.back}
            >
              <ChevronLeftIcon className="size-4" />
            </Link>
            <h1 className="text-lg font-semibold text-slate-900">{SCREENS.edit.title}</h1>
            <span
              className={cn(
                'rounded px-2 py-0.5 text-xs',
                draft.status === 'final' ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-200 text-slate-600',
              )}
            >
              {PAPER_STATUS_NAMES[draft.status]}
            </span>
            <span className="text-xs text-slate-500" data-testid="save-state" aria-live="polite">
              {dirty ? composition.compose.unsaved : composition.compose.allSaved}
            </span>
          </div>
          <div className="ml-auto flex flex-wrap items-center gap-1.5">
            <Button
              variant="ghost"
              size="sm"
              onClick={undo}
              disabled={!history.canUndo}
              title={composition.compose.undoHint}
            >
              {composition.compose.undo}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={redo}
              disabled={!history.canRedo}
              title={composition.compose.redoHint}
            >
              {composition.compose.redo}
            </Button>
            <span className="mx-1 hidden h-5 w-px bg-slate-300 md:inline" aria-hidden="true" />
            <span className="hidden flex-wrap items-center gap-1.5 md:flex">
              <Button variant="secondary" size="sm" onClick={() => setAdding(true)}>
                {composition.compose.addOwn}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => void go(settingsHref)}>
                {SCREENS.paperset.title}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => void go(cardHref)}>
                {composition.compose.answerCard}
              </Button>
              {exporting === undefined && (
                <Menu
                  label={composition.compose.export}
                  buttonClassName="h-8 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50"
                  button={
                    <>
                      {composition.compose.export}
                      <ChevronDownIcon className="size-4" />
                    </>
                  }
                  items={exportItems}
                />
              )}
            </span>
            {exporting !== undefined && (
              <span
                className="inline-flex h-8 items-center gap-2 rounded-md border border-slate-200 bg-white px-3 text-sm text-slate-600"
                role="status"
              >
                <span className="h-1.5 w-16 overflow-hidden rounded bg-slate-200">
                  <span
                    className={cn('block h-full bg-blue-600', exporting === null && 'w-1/3 animate-pulse')}
                    style={exporting === null ? undefined : { width: `${Math.round(exporting * 100)}%` }}
                  />
                </span>
                {composition.compose.exporting(exporting === null ? null : Math.round(exporting * 100))}
              </span>
            )}
            <span className="md:hidden">
              <Menu
                label={composition.compose.moreActions}
                buttonClassName="h-8 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm"
                button={
                  <>
                    {composition.compose.more}
                    <ChevronDownIcon className="size-4" />
                  </>
                }
                items={[
                  { kind: 'action', label: composition.compose.addOwn, onSelect: () => setAdding(true) },
                  { kind: 'action', label: SCREENS.paperset.title, onSelect: () => void go(settingsHref) },
                  {
                    kind: 'action',
                    label: composition.compose.answerCard,
                    onSelect: () => void go(cardHref),
                  },
                  { kind: 'separator', key: 'export' },
                  ...exportItems,
                ]}
              />
            </span>
            <span className="mx-1 hidden h-5 w-px bg-slate-300 md:inline" aria-hidden="true" />
            <Button
              variant="secondary"
              size="sm"
              loading={busy === 'draft'}
              disabled={busy !== null}
              onClick={() => void save('draft')}
            >
              {composition.compose.saveDraft}
            </Button>
            <Button
              size="sm"
              loading={busy === 'final'}
              disabled={busy !== null}
              onClick={() => void save('final')}
            >
              {composition.compose.saveFinal}
            </Button>
          </div>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-[240px_minmax(0,1fr)]">
        <aside className="order-last lg:order-first" aria-label={composition.compose.outline}>
          <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 lg:sticky lg:top-36">
            <h2 className="text-sm font-medium text-slate-700">{composition.compose.outline}</h2>
            <dl className="grid grid-cols-2 gap-2 text-center">
              <div className="rounded-lg bg-slate-50 py-2">
                <dt className="text-xs text-slate-500">{composition.compose.countLabel}</dt>
                <dd className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="paper-count">
                  {count}
                </dd>
              </div>
              <div className="rounded-lg bg-slate-50 py-2">
                <dt className="text-xs text-slate-500">{composition.compose.totalLabel}</dt>
                <dd className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="paper-total">
                  {total}
                </dd>
              </div>
            </dl>
            {difficulty !== null && (
              <p
                className="text-xs text-slate-500"
                title={DIFFICULTY_COEFFICIENT_HINT}
                data-testid="paper-difficulty"
              >
                {composition.compose.difficulty}：
                {composition.compose.difficultyValue(difficulty.toFixed(2), coefficientLevelName(difficulty))}
              </p>
            )}
            <ol className="space-y-1 text-sm">
              {draft.sections.map((s, i) => (
                <li key={s.key}>
                  <button
                    type="button"
                    onClick={() =>
                      document.getElementById(`s-${s.key}`)?.scrollIntoView({ behavior: 'smooth' })
                    }
                    className="flex w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-left text-slate-600 hover:bg-slate-50 hover:text-slate-900"
                  >
                    <span className="truncate">
                      {sectionNumeral(i)}、{s.title}
                    </span>
                    <span className="shrink-0 text-xs text-slate-500 tabular-nums">
                      {composition.compose.outlineRow(s.items.length, sectionTotal(s))}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          </div>
        </aside>

        <div className="min-w-0 rounded-xl border border-slate-200 bg-white px-4 py-6 sm:px-8">
          <div className="mb-8 space-y-2 text-center">
            <input
              aria-label={composition.compose.paperTitle}
              value={draft.title}
              maxLength={80}
              onChange={(e) => {
                const title = e.target.value;
                history.commit((d) => ({ ...d, title }), 'title');
              }}
              className="w-full rounded-md border border-transparent px-2 py-1 text-center text-xl font-semibold text-slate-900 hover:border-slate-200 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none sm:text-2xl"
            />
            <input
              aria-label={composition.compose.subtitle}
              placeholder={composition.compose.subtitlePlaceholder}
              value={draft.subtitle}
              maxLength={120}
              onChange={(e) => {
                const subtitle = e.target.value;
                history.commit((d) => ({ ...d, subtitle }), 'subtitle');
              }}
              className="w-full rounded-md border border-transparent px-2 py-1 text-center text-sm text-slate-600 hover:border-slate-200 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            />
            <p className="text-sm text-slate-500" aria-live="polite" data-testid="paper-summary">
              {composition.compose.summary(count, total)}
            </p>
          </div>
          {draft.sections.length === 0 ? (
            <Empty
              title={composition.compose.empty}
              description={composition.compose.emptyHint}
              action={
                <div className="mt-2 flex gap-2">
                  <Button variant="secondary" onClick={() => void go(paths.rehearse.select)}>
                    {composition.compose.goPick}
                  </Button>
                  <Button onClick={() => setAdding(true)}>{composition.compose.addOwn}</Button>
                </div>
              }
            />
          ) : (
            <PaperSections draft={draft} numbers={numbers} actions={actions} showAnswers={answers} />
          )}
        </div>
      </div>

      <SimilarDrawer
        item={similarItem}
        no={similarFor ? (numbers.get(similarFor) ?? 0) : 0}
        exclude={questionIdsOf(draft)}
        onPick={pickSimilar}
        onClose={() => setSimilarFor(null)}
      />
      <QuestionDialog
        open={editItem !== null}
        mode="edit"
        question={editItem?.question}
        no={editFor ? numbers.get(editFor) : 0}
        types={types}
        onSubmit={submitEdit}
        onClose={() => setEditFor(null)}
      />
      <QuestionDialog
        open={adding}
        mode="add"
        types={types}
        onSubmit={submitAdd}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        open={conflict !== null}
        title={composition.compose.conflictTitle}
        confirmLabel={composition.compose.reload}
        onConfirm={() => void reload()}
        onClose={() => setConflict(null)}
      >
        <p>{conflict}</p>
        <p className="mt-2">{composition.compose.conflictHint}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title={composition.compose.leaveTitle}
        confirmLabel={composition.compose.leaveSave}
        busy={busy !== null}
        onConfirm={() =>
          void save().then((ok) => {
            if (ok && blocker.state === 'blocked') blocker.proceed();
          })
        }
        onClose={() => {
          if (blocker.state !== 'blocked') return;
          // The router applies reset() in a transition: keys work again at once, not a render later.
          keysLive.current = true;
          blocker.reset();
        }}
        extra={
          <Button variant="secondary" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
            {composition.compose.leaveDiscard}
          </Button>
        }
      >
        {composition.compose.leaveText}
      </ConfirmDialog>
    </div>
  );
}

/** The frame of the empty, loading and error states (the page title stays an h1). */
function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 lg:py-8">
      <h1 className="mb-5 text-xl font-semibold text-slate-900 sm:text-2xl">{SCREENS.edit.title}</h1>
      {children}
    </div>
  );
}
