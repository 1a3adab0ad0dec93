import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { DIFFICULTY_LEVELS, type Question } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { Skeleton, SkeletonLines } from '../../../components/ui/skeleton';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { Tree } from '../../../components/ui/tree';
import { paths, withQuery } from '../../../config/paths';
import { composition } from '../../../i18n/composition';
import { setSelection, useSelection } from '../../../lib/selection';
import { useBooknodes, useStages, useTextbooks } from '../../../api/catalog';
import { paperFromQuestions, useChapterSets } from '../api/sync';
import { SET_RULES, findNode, unitOf, type SetKind } from '../utils/sets';

const s = composition.sync;

/** 同步课堂: textbook → chapter → 课前预习, 课后作业, 随堂练习, 单元测试, each one click from the basket or a paper. */
export function SyncClassScreen({ onAddToBasket }: { onAddToBasket: (ids: string[]) => Promise<void> }) {
  const navigate = useNavigate();
  const { data: stages } = useStages();
  const selection = useSelection();
  const subjectId = selection?.subjectId ?? null;
  useEffect(() => {
    const first = stages?.[0];
    const known = stages?.some((x) => x.subjects.some((y) => y.id === subjectId));
    if (first?.subjects[0] && !known) setSelection({ stageId: first.id, subjectId: first.subjects[0].id });
  }, [stages, subjectId]);

  const { data: textbooks } = useTextbooks(subjectId);
  const [textbookId, setTextbookId] = useState<string | null>(null);
  const textbook = textbooks?.find((b) => b.id === textbookId) ?? textbooks?.[0] ?? null;
  const { data: nodes } = useBooknodes(textbook?.id ?? null);
  const [nodeId, setNodeId] = useState<string | null>(null);
  useEffect(() => {
    setTextbookId(null);
    setNodeId(null);
  }, [subjectId]);

  // The first section of the first chapter is open at the start, so the sets show at once.
  const chosen = nodeId ?? nodes?.[0]?.children[0]?.id ?? nodes?.[0]?.id ?? null;
  const node = nodes && chosen ? findNode(nodes, chosen) : null;
  const unit = nodes && chosen ? unitOf(nodes, chosen) : null;
  const { data: sets, isLoading } = useChapterSets(subjectId, node?.id ?? null, unit?.id ?? null);

  return (
    <div className="grid gap-5 lg:grid-cols-[300px_minmax(0,1fr)]">
      <aside className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 lg:sticky lg:top-20 lg:self-start">
        <SubjectPicker
          stages={stages}
          value={subjectId}
          onChange={(v) => v && setSelection(v)}
          className="w-full"
        />
        <Listbox
          label={composition.questions.textbook}
          value={textbook?.id ?? null}
          placeholder={composition.questions.chooseTextbook}
          disabled={!textbooks || textbooks.length === 0}
          className="w-full"
          buttonClassName="flex-1"
          options={(textbooks ?? []).map((b) => ({ value: b.id, label: `${b.publisher} ${b.name}` }))}
          onChange={(id) => {
            setTextbookId(id);
            setNodeId(null);
          }}
        />
        <div className="max-h-80 overflow-y-auto border-t border-slate-100 pt-3 lg:max-h-[calc(100vh-17rem)]">
          {nodes ? (
            nodes.length > 0 ? (
              <Tree
                key={textbook?.id}
                label={composition.questions.chapters}
                nodes={nodes}
                selectedId={chosen}
                onSelect={(n) => setNodeId(n.id)}
              />
            ) : (
              <p className="py-6 text-center text-sm text-slate-500">{composition.questions.noTextbook}</p>
            )
          ) : (
            <SkeletonLines lines={6} />
          )}
        </div>
      </aside>
      <section aria-label={s.setsLabel} className="min-w-0 space-y-4">
        {node && (
          <p className="text-sm text-slate-500">
            {s.lead(node.name, unit && unit.id !== node.id ? unit.name : null)}
          </p>
        )}
        {isLoading || !sets ? (
          node ? (
            <div className="grid gap-4 xl:grid-cols-2">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-64 rounded-xl" />
              ))}
            </div>
          ) : (
            <div className="rounded-xl border border-slate-200 bg-white">
              <Empty title={s.pickChapter} />
            </div>
          )
        ) : (
          <div className="grid gap-4 xl:grid-cols-2">
            {SET_RULES.map((rule) => (
              <SetCard
                key={rule.kind}
                kind={rule.kind}
                wanted={rule.count}
                levels={rule.levels}
                questions={sets[rule.kind]}
                scopeName={rule.scope === 'unit' ? (unit?.name ?? '') : (node?.name ?? '')}
                onAddToBasket={onAddToBasket}
                onMakePaper={async (ids) => {
                  if (!subjectId || !node) return;
                  const title = s.paperTitle(
                    rule.scope === 'unit' ? (unit?.name ?? node.name) : node.name,
                    s.names[rule.kind],
                  );
                  const id = await paperFromQuestions({
                    subjectId,
                    textbookId: textbook?.id ?? null,
                    title: title.slice(0, 80),
                    questionIds: ids,
                  });
                  void navigate(withQuery(paths.edit, { paperId: id }));
                }}
              />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}

function SetCard({
  kind,
  wanted,
  levels,
  questions,
  scopeName,
  onAddToBasket,
  onMakePaper,
}: {
  kind: SetKind;
  wanted: number;
  levels: number[];
  questions: Question[];
  scopeName: string;
  onAddToBasket: (ids: string[]) => Promise<void>;
  onMakePaper: (ids: string[]) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'basket' | 'paper' | null>(null);
  const ids = questions.map((q) => q.id);
  const shown = open ? questions : questions.slice(0, 2);
  const run = (which: 'basket' | 'paper', work: () => Promise<void>) => {
    setBusy(which);
    void work()
      .catch(() => undefined)
      .finally(() => setBusy(null));
  };
  const listId = `set-${kind}`;
  return (
    <article
      aria-labelledby={`${listId}-title`}
      className="flex flex-col rounded-xl border border-slate-200 bg-white"
    >
      <header className="border-b border-slate-100 px-5 py-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id={`${listId}-title`} className="text-base font-semibold text-slate-900">
            {s.names[kind]}
          </h2>
          <span className="text-xs text-slate-500">{s.count(questions.length)}</span>
        </div>
        <p className="mt-0.5 text-xs text-slate-500">
          {s.rule(scopeName, levels.map((l) => DIFFICULTY_LEVELS[l - 1]).join('、'))} · {s.purpose[kind]}
        </p>
      </header>
      <div className="flex-1 px-5 py-4">
        {questions.length === 0 ? (
          <p className="text-sm text-slate-500">{s.none}</p>
        ) : (
          <>
            {questions.length < wanted && (
              <p className="mb-3 rounded bg-amber-50 px-3 py-1.5 text-xs text-amber-800">
                {s.short(wanted, questions.length)}
              </p>
            )}
            <ol id={listId} className="space-y-3">
              {shown.map((q, i) => (
                <li key={q.id} className="border-b border-slate-100 pb-3 last:border-0 last:pb-0">
                  <QuestionBody question={q} no={i + 1} idPrefix={`sc-${kind}`} />
                  <div className="mt-1 flex items-center gap-2 pl-6 text-xs text-slate-500">
                    <span>{q.typeName}</span>
                    <DifficultyTag level={q.difficulty} />
                  </div>
                </li>
              ))}
            </ol>
            {questions.length > 2 && (
              <button
                type="button"
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => setOpen((v) => !v)}
                className="mt-2 text-sm text-blue-600 hover:underline"
              >
                {open ? s.collapse : s.expand(questions.length)}
              </button>
            )}
          </>
        )}
      </div>
      <footer className="flex flex-wrap justify-end gap-2 border-t border-slate-100 px-5 py-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={ids.length === 0 || busy !== null}
          loading={busy === 'basket'}
          aria-label={s.toBasketOf(s.names[kind])}
          onClick={() => run('basket', () => onAddToBasket(ids))}
        >
          {s.toBasket}
        </Button>
        <Button
          size="sm"
          disabled={ids.length === 0 || busy !== null}
          loading={busy === 'paper'}
          aria-label={s.toPaperOf(s.names[kind])}
          onClick={() => run('paper', () => onMakePaper(ids))}
        >
          {s.toPaper}
        </Button>
      </footer>
    </article>
  );
}
