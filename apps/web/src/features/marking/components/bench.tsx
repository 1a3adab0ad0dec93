import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
} from 'react';
import { Link } from 'react-router-dom';
import type { Annotation, MarkBlock } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Empty } from '../../../components/ui/empty';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { MARKING_TEXT as T } from '../../../i18n/marking';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import {
  fetchItem,
  fetchNext,
  flagProblem,
  loadCrop,
  saveComments,
  submitMark,
  useMarkBlock,
  useMarkHistory,
} from '../api/marking';
import { MarkQueue, type ReadyItem } from '../stores/queue';
import { ANONYMOUS_MARKING_KEY, storage } from '../../../lib/session';
import { MARK_TASKS_KEY } from '../api/marking';
import { useSWRConfig } from 'swr';
import { itemOfKey, RubricButtons, RubricDialog, toggleItem, type Applied } from './rubric';
import { Thumb } from './thumb';
import { cleanScoreText, formatScore, readScores, scoreSteps } from '../utils/score';
import { Annotator, type Tool } from './annotator';
import { GroupsDialog } from './groups-dialog';

/** /write: the keyboard-first marking bench of one block. */
export function Bench({ blockId }: { blockId: string }) {
  const { data: block, mutate: reloadBlock } = useMarkBlock(blockId);
  if (!block)
    return (
      <div className="mx-auto max-w-6xl p-6">
        <Skeleton className="h-96 w-full" />
      </div>
    );
  return <BenchFor block={block} reloadBlock={() => void reloadBlock()} />;
}

function BenchFor({ block, reloadBlock }: { block: MarkBlock; reloadBlock: () => void }) {
  const queue = useMemo(
    () =>
      new MarkQueue({
        next: (count, skip) => fetchNext(block.id, count, skip),
        loadCrop: (url) => loadCrop(url),
        revoke: (url) => URL.revokeObjectURL(url),
      }),
    [block.id],
  );
  useEffect(() => {
    void queue.start();
    return () => queue.close();
  }, [queue]);
  const state = useSyncExternalStore(queue.subscribe, queue.getState);
  const current = state.current;
  const questions = block.questions;

  const [texts, setTexts] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const [annotations, setAnnotations] = useState<Annotation[]>([]);
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [tool, setTool] = useState<Tool>('none');
  const [toolText, setToolText] = useState('');
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [reveal, setReveal] = useState(false);
  const [student, setStudent] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [problemOpen, setProblemOpen] = useState(false);
  const [comments, setComments] = useState<string[]>(block.comments);
  const [applied, setApplied] = useState<Applied>({});
  const [rubricOpen, setRubricOpen] = useState(false);
  const [anonymous, setAnonymousState] = useState(() => storage.get(ANONYMOUS_MARKING_KEY) === true);
  const setAnonymous = (on: boolean) => {
    storage.set(ANONYMOUS_MARKING_KEY, on);
    setAnonymousState(on);
    if (on) {
      setReveal(false);
      setStudent(null);
    }
  };
  const { mutate: mutateKey } = useSWRConfig();
  // Items I made final since the block was (re)loaded: the block's counter follows each Enter without asking again.
  const [finalised, setFinalised] = useState(0);
  const [countedBlock, setCountedBlock] = useState(block);
  if (countedBlock !== block) {
    setCountedBlock(block);
    setFinalised(0);
  }
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  // A new item: its boxes start empty (or with my earlier mark, when revising) and the first box takes the keys.
  // The reset happens while rendering the new item (not in an effect after it), so Enter costs one commit.
  const sheetId = current?.item.sheetId ?? null;
  const [shownSheet, setShownSheet] = useState<string | null | undefined>(undefined);
  if (shownSheet !== sheetId) {
    setShownSheet(sheetId);
    const mine = current?.item.myMark;
    setTexts(questions.map((q) => (mine ? formatScore(mine.scores[q.questionId] ?? 0) : '')));
    setApplied(mine?.rubric ?? {});
    if (current) {
      setAnnotations(mine?.annotations ?? []);
      setComment(mine?.comment ?? '');
      setError('');
      setActive(0);
      setStudent(null);
    }
  }
  useEffect(() => {
    if (!sheetId) return;
    inputs.current[0]?.focus();
    // Again after a closing dialog has handed the focus back to where it was.
    const frame = requestAnimationFrame(() => {
      if (!inputs.current.some((el) => el === document.activeElement)) inputs.current[0]?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [sheetId]);

  useEffect(() => {
    if (!reveal || anonymous || !sheetId) return;
    let live = true;
    fetchItem(block.id, sheetId, true)
      .then((item) => {
        if (live && item.student)
          setStudent(T.studentLine(item.student.className, item.student.name, item.student.studentNo));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [reveal, anonymous, sheetId, block.id]);

  const focusBox = (i: number) => {
    setActive(i);
    inputs.current[i]?.focus();
    inputs.current[i]?.select();
  };

  // After a dialog closes (it hands the focus back to the button that opened it), the keys go to the score box again.
  const refocus = () =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() => inputs.current[0] && !inputs.current[0].disabled && focusBox(0)),
    );

  /** A score typed or clicked: the question's rubric items no longer say how it was reached. */
  const setText = (i: number, value: string) => {
    setTexts((prev) => prev.map((t, k) => (k === i ? cleanScoreText(value) : t)));
    const q = questions[i];
    if (q) setApplied((prev) => (prev[q.questionId]?.length ? { ...prev, [q.questionId]: [] } : prev));
  };

  /** Applies (or takes back) a rubric item: its question's score becomes what the applied items give. */
  const applyItem = (itemId: string) => {
    const item = block.rubricItems.find((r) => r.id === itemId);
    const i = questions.findIndex((q) => q.questionId === item?.questionId);
    if (!item || i < 0) return;
    const { ids, score } = toggleItem(applied, item, questions[i]!, block.rubricItems);
    setApplied({ ...applied, [item.questionId]: ids });
    setTexts((prev) => prev.map((t, k) => (k === i ? (score === null ? '' : formatScore(score)) : t)));
    setError('');
  };

  const submit = useCallback(() => {
    if (!current) return;
    const read = readScores(texts, questions, block.halfPoints);
    if (!read.ok) {
      setError(read.message);
      focusBox(read.index);
      return;
    }
    const shown = current;
    const rubric = Object.fromEntries(Object.entries(applied).filter(([, ids]) => ids.length > 0));
    const request = submitMark(block.id, {
      sheetId: shown.item.sheetId,
      scores: read.scores,
      annotations,
      comment,
      rubric,
    });
    queue.sending(shown.item.sheetId, request);
    queue.advance();
    request
      .then((res) => {
        queue.setCounts(res.remaining, res.myMarks);
        if (res.outcome === 'final') setFinalised((n) => n + 1);
        setStatus(T.outcome[res.outcome] ?? '');
        if (queue.getState().finished || res.outcome !== 'final') queue.refresh();
      })
      .catch(() => queue.putBack(shown));
  }, [current, texts, annotations, comment, applied, questions, block]);

  const onKey = (e: KeyboardEvent<HTMLInputElement>, i: number) => {
    const q = questions[i]!;
    const key = e.key;
    if (key === 'Enter') {
      e.preventDefault();
      submit();
    } else if (key === 'm' || key === 'M') {
      e.preventDefault();
      setText(i, formatScore(q.fullScore));
      if (i + 1 < questions.length) focusBox(i + 1);
    } else if (key === 'z' || key === 'Z') {
      e.preventDefault();
      setText(i, '0');
      if (i + 1 < questions.length) focusBox(i + 1);
    } else if (key === 'Tab') {
      e.preventDefault();
      focusBox((i + (e.shiftKey ? questions.length - 1 : 1)) % questions.length);
    } else if (key === 'h' || key === 'H') {
      e.preventDefault();
      if (!anonymous) setReveal((v) => !v);
    } else if (key === 'e' || key === 'E') {
      e.preventDefault();
      setProblemOpen(true);
    } else if (key === 'r' || key === 'R') {
      e.preventDefault();
      setRotation((r) => (r + 90) % 360);
    } else if (key === '+' || key === '=') {
      e.preventDefault();
      setZoom((z) => Math.min(3, z + 0.25));
    } else if (key === '-' || key === '_') {
      e.preventDefault();
      setZoom((z) => Math.max(0.5, z - 0.25));
    } else if ('cxptCXPT'.includes(key) && key.length === 1) {
      e.preventDefault();
      const next = ({ c: 'check', x: 'cross', p: 'pen', t: 'text' } as const)[
        key.toLowerCase() as 'c' | 'x' | 'p' | 't'
      ];
      setTool((t) => (t === next ? 'none' : next));
    } else if (key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && itemOfKey(block, key)) {
      e.preventDefault();
      applyItem(itemOfKey(block, key)!.id);
    } else if (key.length === 1 && !/[\d.]/.test(key) && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
    }
  };

  const reviewItem = async (sheet: string) => {
    const item = await fetchItem(block.id, sheet);
    queue.show(await queue.load(item));
    setHistoryOpen(false);
    refocus();
  };

  const sendProblem = async (note: string) => {
    if (!current) return;
    await flagProblem(block.id, current.item.sheetId, note);
    toast(T.problemSent, 'success');
    setProblemOpen(false);
    queue.advance();
    refocus();
  };

  const addComment = async () => {
    const c = comment.trim();
    if (!c || comments.includes(c)) return;
    setComments(await saveComments(block.id, [...comments, c].slice(-30)));
  };

  const task = current?.item.task;
  return (
    <div className="mx-auto flex w-full max-w-[1500px] flex-col gap-4 px-4 py-4 lg:flex-row">
      <section className="min-w-0 flex-1" aria-label={T.benchTitle}>
        <header className="mb-3 flex flex-wrap items-center gap-3">
          <Link to={paths.correct} className="text-sm text-blue-600 hover:underline">
            ← {T.back}
          </Link>
          <h1 className="text-lg font-semibold text-slate-900">
            {block.title}
            <span className="ml-2 text-sm font-normal text-slate-500">
              {T.fullScore(block.fullScore)} · {T.modeNames[block.mode]}
            </span>
          </h1>
          <span className="text-sm text-slate-500" data-testid="mark-counts">
            {T.myMarks(state.myMarks)} · {T.remaining(state.remaining)}
          </span>
          <span className="text-sm text-slate-500" data-testid="block-progress">
            {T.blockProgress(
              Math.min(block.progress.items, block.progress.done + finalised),
              block.progress.items,
            )}
          </span>
          <div className="ml-auto flex gap-2">
            <Button
              variant={anonymous ? 'primary' : 'secondary'}
              size="sm"
              aria-pressed={anonymous}
              title={T.anonymousHint}
              onClick={() => setAnonymous(!anonymous)}
            >
              {T.anonymous}
            </Button>
            {(block.permissions.mark || block.permissions.edit) && (
              <Button variant="secondary" size="sm" onClick={() => setRubricOpen(true)}>
                {T.rubricEdit}
              </Button>
            )}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setGroupsOpen(true)}
              disabled={block.mode === 'double'}
            >
              {T.groups}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setHistoryOpen(true)}>
              {T.historyTitle}
            </Button>
          </div>
        </header>
        <div className="mb-2 flex flex-wrap items-center gap-2 text-sm" role="toolbar" aria-label={T.tools}>
          {(['none', 'check', 'cross', 'pen', 'text'] as Tool[]).map((t) => (
            <button
              key={t}
              type="button"
              aria-pressed={tool === t}
              onClick={() => setTool(t)}
              className={cn(
                'h-8 min-w-8 rounded border px-2',
                tool === t ? 'border-red-500 bg-red-50 text-red-700' : 'border-slate-300 bg-white',
              )}
            >
              {T.toolNames[t]}
            </button>
          ))}
          {tool === 'text' && (
            <input
              value={toolText}
              onChange={(e) => setToolText(e.target.value)}
              placeholder={T.textToolPlaceholder}
              className="h-8 w-40 rounded border border-slate-300 px-2"
            />
          )}
          <Button variant="ghost" size="sm" onClick={() => setAnnotations((a) => a.slice(0, -1))}>
            {T.undo}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setAnnotations([])}>
            {T.clearMarks}
          </Button>
          <span className="mx-2 h-5 w-px bg-slate-200" />
          <Button variant="ghost" size="sm" onClick={() => setZoom((z) => Math.max(0.5, z - 0.25))}>
            {T.zoomOut}
          </Button>
          <span className="w-12 text-center tabular-nums">{Math.round(zoom * 100)}%</span>
          <Button variant="ghost" size="sm" onClick={() => setZoom((z) => Math.min(3, z + 0.25))}>
            {T.zoomIn}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setRotation((r) => (r + 90) % 360)}>
            {T.rotate}
          </Button>
          <span className="mx-2 h-5 w-px bg-slate-200" />
          <span className="text-slate-600" data-testid="student-name">
            {anonymous ? T.anonymousOn : reveal ? (student ?? '…') : T.studentHidden}
          </span>
          {!anonymous && (
            <Button variant="link" size="sm" onClick={() => setReveal((v) => !v)}>
              {reveal ? T.hideName : T.showName}
            </Button>
          )}
        </div>
        <div className="relative min-h-[360px] overflow-auto rounded-lg border border-slate-200 bg-slate-100 p-3">
          {current ? (
            <>
              {task === 'arbitration' && (
                <p className="mb-2 rounded bg-amber-50 px-3 py-1.5 text-sm text-amber-800">
                  {T.arbitrationLine(current.item.marks)}
                </p>
              )}
              {task === 'review' && (
                <p className="mb-2 rounded bg-blue-50 px-3 py-1.5 text-sm text-blue-800">{T.reviewing}</p>
              )}
              {current.item.problem && (
                <p className="mb-2 rounded bg-red-50 px-3 py-1.5 text-sm text-red-800">
                  {T.problemLine(current.item.problem.note, current.item.problem.by)}
                </p>
              )}
              <CropStack ready={current} zoom={zoom} rotation={rotation} block={block}>
                <Annotator annotations={annotations} onChange={setAnnotations} tool={tool} text={toolText} />
              </CropStack>
            </>
          ) : state.finished ? (
            <Empty
              title={T.allDone}
              description={T.allDoneHint}
              action={
                <div className="flex gap-2">
                  <Button variant="secondary" onClick={() => setHistoryOpen(true)}>
                    {T.historyTitle}
                  </Button>
                  <Link to={paths.correct} className="text-sm text-blue-600 hover:underline">
                    {T.back}
                  </Link>
                </div>
              }
            />
          ) : (
            <p className="p-10 text-center text-slate-500">{T.loading}</p>
          )}
        </div>
      </section>

      <aside className="w-full shrink-0 space-y-4 lg:w-[380px]" aria-label={T.scorePanel}>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <div className="space-y-3">
            {questions.map((q, i) => (
              <label key={q.questionId} className="flex items-center gap-3">
                <span className="w-32 text-sm text-slate-600">{T.scoreFor(q.no, q.fullScore)}</span>
                <input
                  ref={(el) => {
                    inputs.current[i] = el;
                  }}
                  aria-label={T.scoreFor(q.no, q.fullScore)}
                  inputMode="decimal"
                  autoComplete="off"
                  disabled={!current}
                  value={texts[i] ?? ''}
                  onFocus={() => setActive(i)}
                  onChange={(e) => {
                    setText(i, e.target.value);
                    setError('');
                  }}
                  onKeyDown={(e) => onKey(e, i)}
                  className={cn(
                    'h-11 w-24 rounded-md border px-3 text-right text-xl font-semibold tabular-nums',
                    active === i && current ? 'border-blue-500 ring-2 ring-blue-200' : 'border-slate-300',
                  )}
                />
                <button
                  type="button"
                  className="text-xs text-slate-500 hover:text-blue-600"
                  onClick={() => setText(i, formatScore(q.fullScore))}
                >
                  {T.full}
                </button>
                <button
                  type="button"
                  className="text-xs text-slate-500 hover:text-blue-600"
                  onClick={() => setText(i, '0')}
                >
                  {T.zero}
                </button>
              </label>
            ))}
            {questions.map((q, i) => (
              <div
                key={q.questionId}
                role="group"
                aria-label={T.scoreButtons(q.no)}
                className="flex flex-wrap gap-1"
                data-testid="score-buttons"
              >
                {scoreSteps(q.fullScore, block.halfPoints).map((v) => (
                  <button
                    key={v}
                    type="button"
                    disabled={!current}
                    aria-label={T.giveScore(q.no, v)}
                    onClick={() => {
                      setText(i, formatScore(v));
                      setError('');
                      inputs.current[i]?.focus();
                    }}
                    className={cn(
                      'h-8 min-w-8 rounded-md border px-1.5 text-sm tabular-nums',
                      texts[i] === formatScore(v)
                        ? 'border-blue-500 bg-blue-50 text-blue-700'
                        : 'border-slate-200 text-slate-700 hover:border-blue-300',
                    )}
                  >
                    {formatScore(v)}
                  </button>
                ))}
              </div>
            ))}
            {questions.map((q) => (
              <RubricButtons
                key={q.questionId}
                block={block}
                question={q}
                applied={applied[q.questionId] ?? []}
                disabled={!current}
                onToggle={(r) => {
                  applyItem(r.id);
                  inputs.current[questions.indexOf(q)]?.focus();
                }}
              />
            ))}
            {block.rubricItems.length === 0 && (block.permissions.mark || block.permissions.edit) && (
              <p className="text-xs text-slate-400">{T.rubricNone}</p>
            )}
          </div>
          {error && (
            <p role="alert" className="mt-2 text-sm text-red-600">
              {error}
            </p>
          )}
          <div className="mt-3 flex items-center gap-2">
            <Button onClick={submit} disabled={!current} className="flex-1">
              {T.submitKey}
            </Button>
            <Button variant="danger" onClick={() => setProblemOpen(true)} disabled={!current}>
              {T.problem}
            </Button>
          </div>
          <p className="mt-2 h-5 text-xs text-slate-500" aria-live="polite">
            {status}
          </p>
          <div className="mt-2">
            <label className="text-sm text-slate-600" htmlFor="mark-comment">
              {T.comment}
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id="mark-comment"
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                placeholder={T.commentPlaceholder}
                className="h-8 min-w-0 flex-1 rounded border border-slate-300 px-2 text-sm"
              />
              <Button variant="ghost" size="sm" onClick={() => void addComment()}>
                {T.addToBank}
              </Button>
            </div>
            {comments.length > 0 && (
              <div className="mt-2 flex flex-wrap gap-1.5" aria-label={T.commentBank}>
                {comments.map((c) => (
                  <button
                    key={c}
                    type="button"
                    onClick={() => setComment(c)}
                    className="rounded-full border border-slate-200 bg-slate-50 px-2 py-0.5 text-xs text-slate-700 hover:border-blue-300"
                  >
                    {c}
                  </button>
                ))}
              </div>
            )}
          </div>
        </div>

        <AnswerKey block={block} />
        <Shortcuts />
      </aside>

      <HistoryDialog
        open={historyOpen}
        onClose={() => {
          setHistoryOpen(false);
          refocus();
        }}
        block={block}
        onRevise={(s) => void reviewItem(s)}
      />
      {rubricOpen && (
        <RubricDialog
          block={block}
          onClose={() => {
            setRubricOpen(false);
            refocus();
          }}
          onSaved={() => {
            setRubricOpen(false);
            reloadBlock();
            refocus();
          }}
        />
      )}
      <ProblemDialog
        open={problemOpen}
        onClose={() => {
          setProblemOpen(false);
          refocus();
        }}
        onSend={sendProblem}
      />
      {groupsOpen && (
        <GroupsDialog
          block={block}
          onScored={(res, scored) => {
            // The counters follow at once: mine from the answer, the block's and the task list's asked again.
            queue.setCounts(res.remaining, res.myMarks);
            queue.drop(scored);
            reloadBlock();
            void mutateKey([MARK_TASKS_KEY]);
          }}
          onClose={() => {
            setGroupsOpen(false);
            refocus();
            reloadBlock();
            queue.refresh();
          }}
        />
      )}
    </div>
  );
}

/** The answer key, analysis and rubric beside the crop: the same for every item, so it does not re-render per item. */
const AnswerKey = memo(function AnswerKey({ block }: { block: MarkBlock }) {
  return (
    <div className="max-h-[420px] overflow-auto rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      {block.questions.map((q) => (
        <div key={q.questionId} className="mb-3 border-b border-slate-100 pb-3 last:border-0">
          <p className="mb-1 font-medium text-slate-800">{T.questionNo(q.no)}</p>
          <RichText html={q.stem} className="text-slate-600" />
          <p className="mt-2 font-medium text-emerald-700">{T.answerKey}</p>
          <RichText html={q.answer} className="text-slate-800" />
          {q.analysis && (
            <>
              <p className="mt-2 font-medium text-slate-700">{T.analysis}</p>
              <RichText html={q.analysis} className="text-slate-600" />
            </>
          )}
        </div>
      ))}
      {block.rubric && (
        <>
          <p className="font-medium text-slate-700">{T.rubricTitle}</p>
          <p className="whitespace-pre-wrap text-slate-600">{block.rubric}</p>
        </>
      )}
    </div>
  );
});

const Shortcuts = memo(function Shortcuts() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-xs text-slate-600 shadow-sm">
      <p className="mb-2 text-sm font-medium text-slate-800">{T.shortcuts}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {T.shortcutList.map(([k, v]) => (
          <div key={k} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono">{k}</kbd>
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
});

function CropStack({
  ready,
  zoom,
  rotation,
  block,
  children,
}: {
  ready: ReadyItem;
  zoom: number;
  rotation: number;
  block: MarkBlock;
  children: React.ReactNode;
}) {
  return (
    <div
      className="relative mx-auto w-full max-w-[900px] origin-top bg-white shadow"
      style={{ transform: `scale(${zoom}) rotate(${rotation}deg)` }}
      data-testid="crop-stack"
      data-sheet={ready.item.sheetId}
    >
      {ready.item.answers.map((a) => {
        const q = block.questions.find((x) => x.questionId === a.questionId);
        const url = ready.crops[a.questionId];
        return (
          <figure key={a.questionId} className="relative border-b border-slate-100 last:border-0">
            {block.questions.length > 1 && (
              <figcaption className="absolute top-1 left-2 text-xs text-slate-500">
                {T.questionNo(q?.no ?? '')}
              </figcaption>
            )}
            {url ? (
              <img
                src={url}
                alt={T.cropAlt(q?.no ?? '')}
                className="block w-full select-none"
                draggable={false}
              />
            ) : (
              <p className="p-8 text-center text-slate-500">{a.blank ? T.blankAnswer : T.noCrop}</p>
            )}
            {a.blank && url && (
              <span className="absolute top-1 right-2 rounded bg-slate-700/70 px-1.5 text-xs text-white">
                {T.blankAnswer}
              </span>
            )}
          </figure>
        );
      })}
      {children}
    </div>
  );
}

function HistoryDialog({
  open,
  onClose,
  block,
  onRevise,
}: {
  open: boolean;
  onClose: () => void;
  block: MarkBlock;
  onRevise: (sheetId: string) => void;
}) {
  const { data } = useMarkHistory(open ? block.id : null, 1);
  return (
    <Dialog open={open} onClose={onClose} title={T.historyTitle} className="max-w-4xl">
      {!data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.records.length === 0 ? (
        <Empty title={T.historyEmpty} />
      ) : (
        <ul
          className="grid max-h-[65vh] grid-cols-2 gap-3 overflow-auto sm:grid-cols-3"
          aria-label={T.historyTitle}
        >
          {data.records.map((r) => {
            const labels = Object.values(r.rubric)
              .flat()
              .map((id) => block.rubricItems.find((x) => x.id === id))
              .filter((x) => !!x)
              .map((x) => `${x.label} ${T.signedPoints(x.points)}`);
            return (
              <li key={r.sheetId}>
                <button
                  type="button"
                  aria-label={T.historyOpen(r.seq)}
                  onClick={() => onRevise(r.sheetId)}
                  className="block w-full rounded-lg border border-slate-200 p-2 text-left hover:border-blue-400 hover:bg-blue-50/40"
                >
                  <span className="mb-1 flex items-baseline justify-between text-sm">
                    <span className="text-slate-500">{T.groupItem(r.seq)}</span>
                    <span className="text-base font-semibold text-red-600 tabular-nums">
                      {T.historyScore(r.total)}
                    </span>
                  </span>
                  <span className="block max-h-40 overflow-hidden rounded border border-slate-100">
                    {r.answers.map((a) =>
                      a.cropUrl ? (
                        <Thumb
                          key={a.questionId}
                          url={a.cropUrl}
                          alt={T.cropAlt(questionNo(block, a.questionId))}
                        />
                      ) : (
                        <span key={a.questionId} className="block p-3 text-center text-xs text-slate-400">
                          {T.noCrop}
                        </span>
                      ),
                    )}
                  </span>
                  <span className="mt-1 block text-xs text-slate-500">{T.finalTotal(r.finalTotal)}</span>
                  {labels.length > 0 && (
                    <span className="mt-0.5 block truncate text-xs text-slate-500">{labels.join('、')}</span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}

const questionNo = (block: MarkBlock, questionId: string) =>
  block.questions.find((q) => q.questionId === questionId)?.no ?? '';

function ProblemDialog({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (note: string) => Promise<void>;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  return (
    <Dialog open={open} onClose={onClose} title={T.problemTitle} className="max-w-md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!note.trim()) {
            setError(T.problemNoteEmpty);
            return;
          }
          void onSend(note.trim()).then(() => setNote(''));
        }}
      >
        <label className="text-sm text-slate-600" htmlFor="problem-note">
          {T.problemNote}
        </label>
        <textarea
          id="problem-note"
          autoFocus
          value={note}
          onChange={(e) => {
            setNote(e.target.value);
            setError('');
          }}
          placeholder={T.problemPlaceholder}
          className="mt-1 h-24 w-full rounded border border-slate-300 p-2 text-sm"
        />
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
        <div className="mt-3 flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            {T.cancel}
          </Button>
          <Button type="submit">{T.send}</Button>
        </div>
      </form>
    </Dialog>
  );
}
