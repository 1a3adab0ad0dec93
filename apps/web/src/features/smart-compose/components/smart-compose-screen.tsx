import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  coefficientLevelName,
  DIFFICULTY_LEVELS,
  SmartComposeSchema,
  type SmartResult,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { CheckTree, checkedNames, compactChecked } from '../../../components/ui/check-tree';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { Segmented } from '../../../components/ui/segmented';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { TrashIcon } from '../../../components/icons';
import { paths, withQuery } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { setSelection, useSelection } from '../../../lib/selection';
import { cn } from '../../../lib/utils';
import {
  useBooknodes,
  useKnowledgeTree,
  useQuestionTypes,
  useStages,
  useTextbooks,
} from '../../../api/catalog';
import { useDefaultYearClasses } from '../../../api/classes';
import { useSession } from '../../../lib/session';
import { smartCompose } from '../api/smart';
import { defaultRows, rowKey, rowTotals, type TypeRow } from '../utils/rows';
import { ShowAnswersToggle } from '../../../components/ui/show-answers-toggle';

const s = composition.smart;
type Scope = 'booknode' | 'knowledge';

const input =
  'h-8 w-16 rounded-md border border-slate-300 bg-white px-2 text-center text-sm tabular-nums focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none aria-invalid:border-red-400 aria-invalid:bg-red-50';

/** 智能组卷: the teacher states what the paper needs; the optimiser picks questions and says what it could not meet. */
export function SmartComposeScreen() {
  const navigate = useNavigate();
  const { data: stages } = useStages();
  const selection = useSelection();
  const subjectId = selection?.subjectId ?? null;

  useEffect(() => {
    const first = stages?.[0];
    const known = stages?.some((x) => x.subjects.some((y) => y.id === subjectId));
    if (first?.subjects[0] && !known) setSelection({ stageId: first.id, subjectId: first.subjects[0].id });
  }, [stages, subjectId]);

  const [scope, setScope] = useState<Scope>('booknode');
  const { data: textbooks } = useTextbooks(subjectId);
  const [textbookId, setTextbookId] = useState<string | null>(null);
  const textbook = textbooks?.find((b) => b.id === textbookId) ?? textbooks?.[0] ?? null;
  const { data: chapters } = useBooknodes(textbook?.id ?? null);
  const { data: knowledge } = useKnowledgeTree(scope === 'knowledge' ? subjectId : null);
  const { data: types } = useQuestionTypes(subjectId);
  const { user } = useSession();
  const { data: current } = useDefaultYearClasses(user?.orgDefaultId ?? null);

  const [chapterChecked, setChapterChecked] = useState<Set<string>>(new Set());
  const [knowledgeChecked, setKnowledgeChecked] = useState<Set<string>>(new Set());
  const [rows, setRows] = useState<TypeRow[]>([]);
  const [difficulty, setDifficulty] = useState(0.5);
  const [classIds, setClassIds] = useState<Set<string>>(new Set());
  const [title, setTitle] = useState('');
  const [seed, setSeed] = useState(1);
  const [result, setResult] = useState<SmartResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'create' | null>(null);

  // A new subject starts from its own types and no chosen chapters.
  useEffect(() => {
    setTextbookId(null);
    setChapterChecked(new Set());
    setKnowledgeChecked(new Set());
    setResult(null);
    setRows([]);
  }, [subjectId]);
  useEffect(() => {
    if (types && rows.length === 0) setRows(defaultRows(types));
  }, [types, rows.length]);

  const totals = rowTotals(rows);
  const typeName = (id: string) => types?.find((x) => x.id === id)?.name ?? '';
  const scopeNames =
    scope === 'booknode'
      ? checkedNames(chapters ?? [], chapterChecked)
      : checkedNames(knowledge ?? [], knowledgeChecked);

  const body = useMemo(
    () => ({
      subjectId: subjectId ?? '',
      booknodeIds: scope === 'booknode' ? compactChecked(chapters ?? [], chapterChecked) : [],
      knowledgePointIds: scope === 'knowledge' ? compactChecked(knowledge ?? [], knowledgeChecked) : [],
      types: rows.map((r) => ({ typeId: r.typeId, count: Number(r.count), score: Number(r.score) })),
      difficulty,
      classIds: [...classIds],
      textbookId: scope === 'booknode' ? (textbook?.id ?? null) : null,
      ...(title.trim() ? { title: title.trim() } : {}),
    }),
    [
      subjectId,
      scope,
      chapters,
      chapterChecked,
      knowledge,
      knowledgeChecked,
      rows,
      difficulty,
      classIds,
      textbook,
      title,
    ],
  );

  const run = async (nextSeed: number, createPaper: boolean) => {
    const checked = SmartComposeSchema.safeParse({ ...body, seed: nextSeed, createPaper });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? s.invalid);
      return;
    }
    setError(null);
    setBusy(createPaper ? 'create' : 'preview');
    try {
      const answer = await smartCompose(checked.data);
      setSeed(nextSeed);
      if (createPaper && answer.paper) {
        void navigate(withQuery(paths.edit, { paperId: answer.paper.id }));
        return;
      }
      setResult(answer);
    } catch {
      // The client showed the host's message.
    } finally {
      setBusy(null);
    }
  };

  const setRow = (key: string, patch: Partial<TypeRow>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const unusedType = types?.find((x) => !rows.some((r) => r.typeId === x.id));

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,460px)_minmax(0,1fr)]">
      <form
        aria-label={s.formLabel}
        className="space-y-5 self-start rounded-xl border border-slate-200 bg-white p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void run(seed, false);
        }}
      >
        <SubjectPicker stages={stages} value={subjectId} onChange={(v) => v && setSelection(v)} />

        <fieldset className="space-y-3">
          <legend className="mb-2 text-sm font-semibold text-slate-900">{s.scope}</legend>
          <Segmented
            label={s.scope}
            value={scope}
            options={[
              { value: 'booknode', label: s.byChapter },
              { value: 'knowledge', label: s.byKnowledge },
            ]}
            onChange={setScope}
          />
          {scope === 'booknode' && (
            <Listbox
              label={composition.questions.textbook}
              value={textbook?.id ?? null}
              placeholder={composition.questions.chooseTextbook}
              disabled={!textbooks || textbooks.length === 0}
              options={(textbooks ?? []).map((b) => ({ value: b.id, label: `${b.publisher} ${b.name}` }))}
              onChange={(id) => {
                setTextbookId(id);
                setChapterChecked(new Set());
              }}
            />
          )}
          <div className="max-h-64 overflow-y-auto rounded-lg border border-slate-200 px-2 py-1.5">
            {(scope === 'booknode' ? chapters : knowledge) ? (
              <CheckTree
                key={`${scope}-${textbook?.id ?? subjectId}`}
                label={scope === 'booknode' ? s.chapters : s.knowledge}
                nodes={(scope === 'booknode' ? chapters : knowledge) ?? []}
                checked={scope === 'booknode' ? chapterChecked : knowledgeChecked}
                onChange={scope === 'booknode' ? setChapterChecked : setKnowledgeChecked}
              />
            ) : (
              <SkeletonLines lines={5} />
            )}
          </div>
          <p className="text-xs text-slate-500">
            {scopeNames.length === 0
              ? s.scopeAll
              : s.scopeChosen(scopeNames.slice(0, 3).join('、'), scopeNames.length)}
          </p>
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-semibold text-slate-900">{s.types}</legend>
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="pb-1 font-normal">{s.type}</th>
                <th className="pb-1 text-center font-normal">{s.count}</th>
                <th className="pb-1 text-center font-normal">{s.score}</th>
                <th className="pb-1 text-right font-normal">{s.subtotal}</th>
                <th className="pb-1">
                  <span className="sr-only">{s.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => {
                const n = Number(r.count);
                const sc = Number(r.score);
                const badCount = !(Number.isInteger(n) && n >= 1 && n <= 50);
                const badScore = !(/^\d{1,3}(\.\d)?$/.test(r.score.trim()) && sc <= 200);
                return (
                  <tr key={r.key}>
                    <td className="py-1 pr-2">
                      <Listbox
                        label={s.rowType(i + 1)}
                        hideLabel
                        value={r.typeId}
                        placeholder={s.chooseType}
                        buttonClassName="w-28"
                        options={(types ?? [])
                          .filter((x) => x.id === r.typeId || !rows.some((o) => o.typeId === x.id))
                          .map((x) => ({ value: x.id, label: x.name }))}
                        onChange={(typeId) => setRow(r.key, { typeId })}
                      />
                    </td>
                    <td className="py-1 text-center">
                      <input
                        aria-label={s.rowCount(typeName(r.typeId))}
                        inputMode="numeric"
                        value={r.count}
                        aria-invalid={badCount || undefined}
                        onChange={(e) => setRow(r.key, { count: e.target.value })}
                        className={input}
                      />
                    </td>
                    <td className="py-1 text-center">
                      <input
                        aria-label={s.rowScore(typeName(r.typeId))}
                        inputMode="decimal"
                        value={r.score}
                        aria-invalid={badScore || undefined}
                        onChange={(e) => setRow(r.key, { score: e.target.value })}
                        className={input}
                      />
                    </td>
                    <td className="py-1 text-right text-slate-600 tabular-nums">
                      {badCount || badScore ? '—' : s.points(Math.round(n * sc * 10) / 10)}
                    </td>
                    <td className="py-1 text-right">
                      <button
                        type="button"
                        aria-label={s.removeRow(typeName(r.typeId))}
                        disabled={rows.length <= 1}
                        onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                        className="rounded p-1 text-slate-500 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-30"
                      >
                        <TrashIcon className="size-4" />
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="flex items-center justify-between">
            <Button
              variant="ghost"
              size="sm"
              disabled={!unusedType}
              onClick={() =>
                unusedType &&
                setRows((list) => [
                  ...list,
                  {
                    key: rowKey(),
                    typeId: unusedType.id,
                    count: unusedType.objective ? '5' : '2',
                    score: unusedType.objective ? '3' : '10',
                  },
                ])
              }
            >
              {s.addRow}
            </Button>
            <span className="text-sm text-slate-600" data-testid="smart-totals">
              {s.totals(totals.count, totals.score)}
            </span>
          </div>
        </fieldset>

        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">{s.difficulty}</legend>
          <div className="flex items-center justify-between text-sm">
            <span className="text-slate-600">{s.target}</span>
            <span className="font-medium text-slate-900 tabular-nums">
              {difficulty.toFixed(2)} · {coefficientLevelName(difficulty)}
            </span>
          </div>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={difficulty}
            aria-label={s.difficulty}
            aria-valuetext={`${difficulty.toFixed(2)} ${coefficientLevelName(difficulty)}`}
            onChange={(e) => setDifficulty(Number(e.target.value))}
            className="mt-2 w-full accent-blue-600"
          />
          <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
            {/* The slider runs from 0 (困难) to 1 (容易): the 难度系数 is a score rate. */}
            {[...DIFFICULTY_LEVELS].reverse().map((l) => (
              <span key={l}>{l}</span>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">{s.classes}</legend>
          {current && current.classes.length > 0 ? (
            <div className="flex flex-wrap gap-2">
              {current.classes.map((c) => (
                <label
                  key={c.id}
                  className={cn(
                    'flex cursor-pointer items-center gap-1.5 rounded-md border px-2.5 py-1 text-sm',
                    classIds.has(c.id)
                      ? 'border-blue-300 bg-blue-50 text-blue-700'
                      : 'border-slate-200 text-slate-600',
                  )}
                >
                  <input
                    type="checkbox"
                    className="size-3.5 accent-blue-600"
                    checked={classIds.has(c.id)}
                    onChange={() =>
                      setClassIds((prev) => {
                        const next = new Set(prev);
                        if (next.has(c.id)) next.delete(c.id);
                        else next.add(c.id);
                        return next;
                      })
                    }
                  />
                  {c.name}
                </label>
              ))}
            </div>
          ) : (
            <p className="text-xs text-slate-500">{current?.year === null ? s.noYear : s.noClasses}</p>
          )}
          <p className="mt-2 text-xs text-slate-500">{s.classesHint}</p>
        </fieldset>

        <label className="block text-sm text-slate-700">
          <span className="font-semibold text-slate-900">{s.title}</span>
          <input
            value={title}
            maxLength={80}
            placeholder={s.titlePlaceholder}
            onChange={(e) => setTitle(e.target.value)}
            className="mt-2 h-9 w-full rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
          />
        </label>

        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            variant="secondary"
            loading={busy === 'preview'}
            disabled={busy !== null || !subjectId}
          >
            {result ? s.previewAgain : s.preview}
          </Button>
          {result && (
            <Button variant="secondary" disabled={busy !== null} onClick={() => void run(seed + 1, false)}>
              {s.another}
            </Button>
          )}
          <Button
            loading={busy === 'create'}
            disabled={busy !== null || !subjectId}
            onClick={() => void run(seed, true)}
          >
            {s.create}
          </Button>
        </div>
      </form>

      <section aria-label={s.resultLabel} className="min-w-0">
        {result ? (
          <SmartResultView result={result} seed={seed} />
        ) : (
          <div className="rounded-xl border border-slate-200 bg-white">
            <Empty title={s.emptyTitle} description={s.emptyHint} />
          </div>
        )}
      </section>
    </div>
  );
}

/** The optimiser's answer: what it achieved, what it could not, coverage, and the questions by type. */
export function SmartResultView({ result, seed }: { result: SmartResult; seed: number }) {
  const [answers, setAnswers] = useState(false);
  const count = result.selections.reduce((n, x) => n + x.questions.length, 0);
  const requested = result.selections.reduce((n, x) => n + x.requested, 0);
  const covered = result.coverage.covered.length;
  const all = covered + result.coverage.missing.length;
  let no = 0;
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">{s.resultTitle}</h2>
          <span className="text-xs text-slate-500">{s.batch(seed)}</span>
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Stat
            label={s.statCount}
            value={count === requested ? String(count) : `${count} / ${requested}`}
            ok={count === requested}
          />
          <Stat label={s.statScore} value={String(result.totalScore)} ok />
          <Stat
            label={s.statDifficulty}
            value={
              result.achievedDifficulty === null
                ? '—'
                : `${result.achievedDifficulty.toFixed(2)} ${coefficientLevelName(result.achievedDifficulty)}`
            }
            hint={s.targetWas(result.targetDifficulty.toFixed(2))}
            ok={result.withinTolerance}
          />
          <Stat
            label={s.statCoverage}
            value={all === 0 ? '—' : `${covered} / ${all}`}
            ok={result.coverage.missing.length === 0}
          />
        </dl>
        <div className="mt-4">
          {result.explanations.length === 0 ? (
            <p className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">{s.allMet}</p>
          ) : (
            <ul
              className="space-y-1.5 rounded-md bg-amber-50 px-4 py-3 text-sm leading-6 text-amber-900"
              aria-label={s.explanations}
            >
              {result.explanations.map((line) => (
                <li key={line} className="list-disc pl-1 marker:text-amber-500 ml-4">
                  {line}
                </li>
              ))}
            </ul>
          )}
        </div>
        {all > 0 && (
          <div className="mt-4 space-y-2 text-sm">
            <p className="text-slate-600">{s.coverageTitle}</p>
            <div className="flex flex-wrap gap-1.5">
              {result.coverage.covered.map((k) => (
                <span key={k.id} className="rounded bg-emerald-50 px-2 py-0.5 text-xs text-emerald-700">
                  {k.name}
                </span>
              ))}
              {result.coverage.missing.map((k) => (
                <span
                  key={k.id}
                  className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-500 line-through decoration-slate-400"
                  title={s.missing}
                >
                  {k.name}
                </span>
              ))}
            </div>
          </div>
        )}
      </div>
      <div className="flex items-center justify-end">
        <ShowAnswersToggle checked={answers} onChange={setAnswers} />
      </div>
      {result.selections.map((sel) => (
        <section
          key={sel.typeId}
          aria-label={sel.typeName}
          className="rounded-xl border border-slate-200 bg-white p-5"
        >
          <h3 className="mb-3 font-semibold text-slate-900">
            {s.typeHeading(sel.typeName, sel.questions.length, sel.requested, sel.score)}
          </h3>
          <ol className="space-y-4">
            {sel.questions.map((q) => {
              no += 1;
              return (
                <li key={q.id} className="border-b border-slate-100 pb-4 last:border-0 last:pb-0">
                  <QuestionBody question={q} no={no} showAnswer={answers} idPrefix="sm" />
                  <div className="mt-1 flex flex-wrap items-center gap-2 pl-6 text-xs text-slate-500">
                    <DifficultyTag level={q.difficulty} />
                    {q.knowledgePoints.map((k) => k.name).join('、')}
                  </div>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </div>
  );
}

function Stat({ label, value, hint, ok }: { label: string; value: string; hint?: string; ok: boolean }) {
  return (
    <div className={cn('rounded-lg px-3 py-2', ok ? 'bg-slate-50' : 'bg-amber-50')}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={cn('text-base font-semibold tabular-nums', ok ? 'text-slate-900' : 'text-amber-800')}>
        {value}
      </dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}
