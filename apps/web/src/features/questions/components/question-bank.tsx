import { useEffect, useMemo, useState } from 'react';
import {
  AREAS,
  DIFFICULTY_LEVELS,
  LOCAL_STATE_DEFAULTS,
  QUESTION_OWNER_NAMES,
  type Area,
  type QuestionScope,
  type QuestionSort,
} from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SearchForm } from '../../../components/ui/search-form';
import { Listbox } from '../../../components/ui/listbox';
import { Pagination } from '../../../components/ui/pagination';
import { Segmented } from '../../../components/ui/segmented';
import { Skeleton, SkeletonLines } from '../../../components/ui/skeleton';
import { Tree } from '../../../components/ui/tree';
import { ChevronDownIcon } from '../../../components/icons';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { animateScrollTo } from '../../../lib/scroll';
import { setSelection, useSelection } from '../../../lib/selection';
import { cn } from '../../../lib/utils';
import {
  useBooknodes,
  useKnowledgeTree,
  useQuestionTypes,
  useStages,
  useTextbooks,
} from '../../../api/catalog';
import { useFilterOptions, useQuestionPage, type BankQuery } from '../api/catalog';
import { FilterChips } from './filter-chips';
import { QuestionCard, type BasketControls } from './question-card';
import { StageSubjectChooser } from './stage-subject-chooser';

const PAGE_SIZE = 10;
type ChapterType = 'booknode' | 'knowledge';

interface Filters {
  typeId: string | null;
  difficulty: number | null;
  year: number | null;
  source: string | null;
  region: Area | null;
  scope: QuestionScope;
  sort: QuestionSort;
  keyword: string;
}

const NO_FILTERS: Filters = {
  typeId: null,
  difficulty: null,
  year: null,
  source: null,
  region: null,
  scope: 'all',
  sort: 'default',
  keyword: '',
};

/** 选题组卷: browse by chapter or knowledge point, filter, search, and pick questions into the basket. */
export function QuestionBank({
  basket,
  onAddMany,
}: {
  basket: BasketControls;
  /** Adds every question of the page that is not in the basket yet. */
  onAddMany: (ids: string[]) => Promise<void>;
}) {
  const { data: stages } = useStages();
  const selection = useSelection();
  const subjectId = selection?.subjectId ?? null;

  // The first subject is chosen when nothing is selected yet, so the page is never blank.
  useEffect(() => {
    const first = stages?.[0];
    const known = stages?.some((s) => s.subjects.some((x) => x.id === subjectId));
    if (first?.subjects[0] && !known) setSelection({ stageId: first.id, subjectId: first.subjects[0].id });
  }, [stages, subjectId]);

  const [chapterType, setChapterType] = useState<ChapterType>(LOCAL_STATE_DEFAULTS.chapterType);
  const { data: textbooks } = useTextbooks(subjectId);
  const [textbookId, setTextbookId] = useState<string | null>(null);
  const [nodeId, setNodeId] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [keywordText, setKeywordText] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  // Phones show the tree on demand, so the questions are on the first screen.
  const [treeOpen, setTreeOpen] = useState(false);
  const [nodeName, setNodeName] = useState<string | null>(null);

  const textbook = textbooks?.find((b) => b.id === textbookId) ?? textbooks?.[0] ?? null;
  const { data: nodes, isLoading: nodesLoading } = useBooknodes(
    chapterType === 'booknode' ? (textbook?.id ?? null) : null,
  );
  const { data: knowledge, isLoading: knowledgeLoading } = useKnowledgeTree(
    chapterType === 'knowledge' ? subjectId : null,
  );
  const { data: types } = useQuestionTypes(subjectId);
  const { data: options } = useFilterOptions(subjectId);

  // A new subject starts with its own first textbook and no filters.
  useEffect(() => {
    setTextbookId(null);
    setNodeId(null);
    setNodeName(null);
    setFilters(NO_FILTERS);
    setKeywordText('');
    setPage(1);
  }, [subjectId]);

  const query = useMemo<BankQuery | null>(
    () =>
      subjectId
        ? {
            subjectId,
            ...filters,
            booknodeId: chapterType === 'booknode' ? nodeId : null,
            knowledgePointId: chapterType === 'knowledge' ? nodeId : null,
            page,
            size: PAGE_SIZE,
          }
        : null,
    [subjectId, filters, chapterType, nodeId, page],
  );
  const { data: result, isLoading } = useQuestionPage(query);

  const refine = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const active =
    filters.typeId !== null ||
    filters.difficulty !== null ||
    filters.year !== null ||
    filters.source !== null ||
    filters.region !== null ||
    filters.scope !== 'all' ||
    filters.keyword !== '';

  const regionCount = new Map(options?.regions.map((r) => [r.value, r.count]));
  const notInBasket = (result?.records ?? []).filter((q) => !basket.has(q.id)).map((q) => q.id);
  const tree = chapterType === 'booknode' ? nodes : knowledge;
  const treeLoading = chapterType === 'booknode' ? nodesLoading : knowledgeLoading;

  return (
    <div className="space-y-5">
      <section className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
        <StageSubjectChooser stages={stages} value={selection} onChange={setSelection} />
      </section>
      <div className="grid gap-5 lg:grid-cols-[280px_minmax(0,1fr)]">
        <aside className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 lg:sticky lg:top-20 lg:self-start">
          <Segmented
            label={composition.bank.browseBy}
            value={chapterType}
            options={[
              { value: 'booknode', label: composition.bank.byChapter },
              { value: 'knowledge', label: composition.bank.byKnowledge },
            ]}
            onChange={(v) => {
              setChapterType(v);
              setNodeId(null);
              setNodeName(null);
              setPage(1);
            }}
            className="w-full [&>button]:flex-1"
          />
          {chapterType === 'booknode' && (
            <Listbox
              label={composition.questions.textbook}
              value={textbook?.id ?? null}
              placeholder={
                textbooks?.length === 0
                  ? composition.questions.noTextbook
                  : composition.questions.chooseTextbook
              }
              disabled={!textbooks || textbooks.length === 0}
              className="w-full"
              buttonClassName="flex-1"
              options={(textbooks ?? []).map((b) => ({ value: b.id, label: `${b.publisher} ${b.name}` }))}
              onChange={(id) => {
                setTextbookId(id);
                setNodeId(null);
                setNodeName(null);
                setPage(1);
              }}
            />
          )}
          <button
            type="button"
            aria-expanded={treeOpen}
            aria-controls="bank-tree"
            onClick={() => setTreeOpen((v) => !v)}
            className="flex w-full items-center justify-between rounded-md border border-slate-200 px-3 py-2 text-sm text-slate-700 lg:hidden"
          >
            <span className="truncate">
              {nodeName ??
                (chapterType === 'booknode'
                  ? composition.questions.allChapters
                  : composition.bank.allKnowledge)}
            </span>
            <ChevronDownIcon
              className={cn('size-4 shrink-0 text-slate-500 transition-transform', treeOpen && 'rotate-180')}
            />
          </button>
          <div id="bank-tree" className={cn('space-y-3', treeOpen ? 'block' : 'hidden', 'lg:block')}>
            <div className="flex items-center justify-between border-t border-slate-100 pt-3">
              <h2 className="text-sm font-medium text-slate-700">
                {chapterType === 'booknode' ? composition.questions.chapters : composition.bank.knowledgeTree}
              </h2>
              <button
                type="button"
                className="text-xs text-blue-600 hover:underline disabled:text-slate-300 disabled:no-underline"
                disabled={nodeId === null}
                onClick={() => {
                  setNodeId(null);
                  setNodeName(null);
                  setPage(1);
                }}
              >
                {chapterType === 'booknode'
                  ? composition.questions.allChapters
                  : composition.bank.allKnowledge}
              </button>
            </div>
            <div className="max-h-72 overflow-y-auto lg:max-h-[calc(100vh-19rem)]">
              {treeLoading ? (
                <SkeletonLines lines={6} />
              ) : tree && tree.length > 0 ? (
                <Tree
                  key={`${chapterType}-${textbook?.id ?? subjectId}`}
                  label={
                    chapterType === 'booknode'
                      ? composition.questions.chapters
                      : composition.bank.knowledgeTree
                  }
                  nodes={tree}
                  selectedId={nodeId}
                  onSelect={(n) => {
                    setNodeId(n.id);
                    setNodeName(n.name);
                    setPage(1);
                  }}
                />
              ) : (
                <p className="py-6 text-center text-sm text-slate-500">
                  {chapterType === 'booknode'
                    ? composition.questions.noTextbook
                    : composition.bank.noKnowledge}
                </p>
              )}
            </div>
          </div>
        </aside>
        <section className="min-w-0 space-y-4" aria-label={t.rehearse.select}>
          <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
            <SearchForm
              label={composition.bank.search}
              placeholder={composition.bank.searchPlaceholder}
              submit={composition.bank.searchButton}
              className="flex flex-wrap items-center gap-2"
              inputClassName="bg-white"
              maxLength={50}
              text={keywordText}
              onTextChange={setKeywordText}
              active={filters.keyword}
              onSearch={(keyword) => refine({ keyword })}
            />
            <FilterChips
              label={composition.questions.type}
              value={filters.typeId}
              options={(types ?? []).map((x) => ({ value: x.id, label: x.name }))}
              onChange={(v) => refine({ typeId: v })}
            />
            <FilterChips
              label={composition.questions.difficulty}
              value={filters.difficulty}
              options={DIFFICULTY_LEVELS.map((label, i) => ({
                value: i + 1,
                label,
                title: composition.bank.scoreRate[i],
              }))}
              onChange={(v) => refine({ difficulty: v })}
            />
            {options && options.years.length > 0 && (
              <FilterChips
                label={composition.bank.year}
                value={filters.year}
                options={options.years.map((y) => ({ value: y.value, label: String(y.value) }))}
                onChange={(v) => refine({ year: v })}
              />
            )}
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <Listbox
                label={composition.bank.source}
                value={filters.source ?? ''}
                placeholder={composition.bank.allSources}
                buttonClassName="w-56"
                options={[
                  { value: '', label: composition.bank.allSources },
                  ...(options?.sources ?? []).map((x) => ({
                    value: x.value,
                    label: composition.bank.withCount(x.value, x.count),
                  })),
                ]}
                onChange={(v) => refine({ source: v || null })}
              />
              <Listbox
                label={composition.bank.region}
                value={filters.region ?? ''}
                placeholder={composition.bank.allRegions}
                buttonClassName="w-40"
                options={[
                  { value: '', label: composition.bank.allRegions },
                  ...AREAS.map((a) => ({
                    value: a,
                    label: composition.bank.withCount(a, regionCount.get(a) ?? 0),
                  })),
                ]}
                onChange={(v) => refine({ region: v || null })}
              />
              <Listbox
                label={composition.bank.scope}
                value={filters.scope}
                placeholder={composition.bank.scopeAll}
                buttonClassName="w-32"
                options={[
                  { value: 'all', label: composition.bank.scopeAll },
                  { value: 'system', label: QUESTION_OWNER_NAMES.system },
                  { value: 'school', label: QUESTION_OWNER_NAMES.school },
                  { value: 'mine', label: QUESTION_OWNER_NAMES.personal },
                ]}
                onChange={(v) => refine({ scope: v })}
              />
            </div>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-500" aria-live="polite">
              {result ? composition.questions.results(result.total) : '\u00a0'}
              {active && (
                <button
                  type="button"
                  className="ml-3 text-blue-600 hover:underline"
                  onClick={() => {
                    setFilters(NO_FILTERS);
                    setKeywordText('');
                    setPage(1);
                  }}
                >
                  {composition.bank.clearFilters}
                </button>
              )}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <Segmented
                label={composition.bank.sort}
                value={filters.sort}
                options={[
                  { value: 'default', label: composition.bank.sortDefault },
                  { value: 'newest', label: composition.bank.sortNewest },
                  { value: 'mostUsed', label: composition.bank.sortMostUsed },
                ]}
                onChange={(v) => refine({ sort: v })}
              />
              <Button
                variant="secondary"
                size="sm"
                disabled={notInBasket.length === 0}
                loading={adding}
                onClick={() => {
                  setAdding(true);
                  void onAddMany(notInBasket).finally(() => setAdding(false));
                }}
              >
                {composition.bank.addPage(notInBasket.length)}
              </Button>
            </div>
          </div>
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
                  basket={basket}
                />
              ))}
            </div>
          ) : (
            <div className="rounded-xl border border-slate-200 bg-white">
              <Empty
                title={
                  filters.keyword ? composition.bank.noMatch(filters.keyword) : composition.questions.empty
                }
                description={composition.questions.emptyHint}
              />
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
