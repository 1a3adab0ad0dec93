import { useEffect, useMemo, useState } from 'react';
import { DIFFICULTY_LEVELS } from '@zhzy/contracts';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton, SkeletonLines } from '../../../components/ui/skeleton';
import { Tree } from '../../../components/ui/tree';
import { t } from '../../../i18n/zh-CN';
import { animateScrollTo } from '../../../lib/scroll';
import { setSelection, useSelection } from '../../../lib/selection';
import { useBasket, useBasketActions } from '../../../features/basket/api/basket';
import { FilterChips } from '../../../features/questions/components/filter-chips';
import { QuestionCard } from '../../../features/questions/components/question-card';
import { StageSubjectChooser } from '../../../features/questions/components/stage-subject-chooser';
import {
  useBooknodes,
  useQuestionPage,
  useQuestionTypes,
  useStages,
  useTextbooks,
} from '../../../features/questions/api/catalog';

const PAGE_SIZE = 10;

/** 选题组卷: pick questions by textbook chapter, type and difficulty into the basket. */
export function Component() {
  const { data: stages } = useStages();
  const selection = useSelection();
  const subjectId = selection?.subjectId ?? null;

  // The first subject is chosen when nothing is selected yet, so the page is never blank.
  useEffect(() => {
    const first = stages?.[0];
    const known = stages?.some((s) => s.subjects.some((x) => x.id === subjectId));
    if (first?.subjects[0] && !known) setSelection({ stageId: first.id, subjectId: first.subjects[0].id });
  }, [stages, subjectId]);

  const { data: textbooks } = useTextbooks(subjectId);
  const [textbookId, setTextbookId] = useState<string | null>(null);
  const [booknodeId, setBooknodeId] = useState<string | null>(null);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [difficulty, setDifficulty] = useState<number | null>(null);
  const [page, setPage] = useState(1);

  const textbook = textbooks?.find((b) => b.id === textbookId) ?? textbooks?.[0] ?? null;
  const { data: nodes, isLoading: nodesLoading } = useBooknodes(textbook?.id ?? null);
  const { data: types } = useQuestionTypes(subjectId);

  // A new subject starts with its own first textbook and no filters.
  useEffect(() => {
    setTextbookId(null);
    setBooknodeId(null);
    setTypeId(null);
    setDifficulty(null);
    setPage(1);
  }, [subjectId]);

  const filters = useMemo(
    () => (subjectId ? { subjectId, typeId, difficulty, booknodeId, page, size: PAGE_SIZE } : null),
    [subjectId, typeId, difficulty, booknodeId, page],
  );
  const { data: result, isLoading } = useQuestionPage(filters);
  const { data: basket } = useBasket();
  const inBasket = useMemo(() => new Set(basket?.questionIds ?? []), [basket]);
  const actions = useBasketActions();
  const [busyId, setBusyId] = useState<string | null>(null);

  const toggle = async (id: string) => {
    setBusyId(id);
    try {
      if (inBasket.has(id)) await actions.remove([id]);
      else await actions.add([id]);
    } catch {
      // The client already showed the error.
    } finally {
      setBusyId(null);
    }
  };

  const refine = (apply: () => void) => {
    apply();
    setPage(1);
  };

  return (
    <div className="space-y-5">
      <section className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
        <StageSubjectChooser stages={stages} value={selection} onChange={setSelection} />
      </section>
      <div className="grid gap-5 lg:grid-cols-[280px_minmax(0,1fr)]">
        <aside className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 lg:sticky lg:top-20 lg:self-start">
          <Listbox
            label={t.questions.textbook}
            value={textbook?.id ?? null}
            placeholder={textbooks?.length === 0 ? t.questions.noTextbook : t.questions.chooseTextbook}
            disabled={!textbooks || textbooks.length === 0}
            className="w-full"
            buttonClassName="flex-1"
            options={(textbooks ?? []).map((b) => ({ value: b.id, label: `${b.publisher} ${b.name}` }))}
            onChange={(id) =>
              refine(() => {
                setTextbookId(id);
                setBooknodeId(null);
              })
            }
          />
          <div className="flex items-center justify-between border-t border-slate-100 pt-3">
            <h2 className="text-sm font-medium text-slate-700">{t.questions.chapters}</h2>
            <button
              type="button"
              className="text-xs text-blue-600 hover:underline disabled:text-slate-300 disabled:no-underline"
              disabled={booknodeId === null}
              onClick={() => refine(() => setBooknodeId(null))}
            >
              {t.questions.allChapters}
            </button>
          </div>
          <div className="max-h-72 overflow-y-auto lg:max-h-[calc(100vh-15rem)]">
            {nodesLoading ? (
              <SkeletonLines lines={6} />
            ) : nodes && nodes.length > 0 ? (
              <Tree
                key={textbook?.id}
                label={t.questions.chapters}
                nodes={nodes}
                selectedId={booknodeId}
                onSelect={(n) => refine(() => setBooknodeId(n.id))}
              />
            ) : (
              <p className="py-6 text-center text-sm text-slate-400">{t.questions.noTextbook}</p>
            )}
          </div>
        </aside>
        <section className="min-w-0 space-y-4" aria-label={t.rehearse.select}>
          <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
            <FilterChips
              label={t.questions.type}
              value={typeId}
              options={(types ?? []).map((x) => ({ value: x.id, label: x.name }))}
              onChange={(v) => refine(() => setTypeId(v))}
            />
            <FilterChips
              label={t.questions.difficulty}
              value={difficulty}
              options={DIFFICULTY_LEVELS.map((label, i) => ({ value: i + 1, label }))}
              onChange={(v) => refine(() => setDifficulty(v))}
            />
          </div>
          <p className="text-sm text-slate-500" aria-live="polite">
            {result ? t.questions.results(result.total) : '\u00a0'}
          </p>
          {isLoading && !result ? (
            <div className="space-y-4">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-44 rounded-xl" />
              ))}
            </div>
          ) : result && result.records.length > 0 ? (
            <div className="space-y-4">
              {result.records.map((q, i) => (
                <QuestionCard
                  key={q.id}
                  question={q}
                  index={(result.page - 1) * result.size + i + 1}
                  inBasket={inBasket.has(q.id)}
                  busy={busyId === q.id}
                  onToggle={() => void toggle(q.id)}
                />
              ))}
            </div>
          ) : (
            <div className="rounded-xl border border-slate-200 bg-white">
              <Empty title={t.questions.empty} description={t.questions.emptyHint} />
            </div>
          )}
          {result && (
            <Pagination
              page={result.page}
              total={result.total}
              size={result.size}
              onChange={(p) => {
                setPage(p);
                void animateScrollTo(0);
              }}
            />
          )}
        </section>
      </div>
    </div>
  );
}
