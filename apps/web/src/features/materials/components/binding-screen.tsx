import { useEffect, useState } from 'react';
import type { BindingItem } from '@zhzy/contracts';
import { ArrowUpIcon, CloseIcon } from '../../../components/icons';
import { Page } from '../../../components/page';
import { Segmented } from '../../../components/ui/segmented';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { SearchForm } from '../../../components/ui/search-form';
import { TextField } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { paths } from '../../../config/paths';
import { formatSize, tm } from '../../../i18n/materials';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { bindBooklet, checkBinding, useBindableMaterials, usePapers } from '../api/materials';

const tb = tm.binding;

interface Chosen extends BindingItem {
  title: string;
  detail: string;
}

type Source = 'mine' | 'school' | 'materials';

function SearchBox({ placeholder, onSearch }: { placeholder: string; onSearch: (v: string) => void }) {
  return (
    <SearchForm
      label={placeholder}
      placeholder={placeholder}
      submit={tm.searchButton}
      maxLength={50}
      button={{ variant: 'secondary', size: 'sm', className: 'h-9' }}
      onSearch={onSearch}
    />
  );
}

function PaperList({
  kind,
  chosen,
  onAdd,
}: {
  kind: 'mine' | 'school';
  chosen: Chosen[];
  onAdd: (c: Chosen) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const { data } = usePapers(kind, keyword);
  return (
    <div className="space-y-3">
      <SearchBox placeholder={tb.searchPapers} onSearch={setKeyword} />
      {!data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.records.length === 0 ? (
        <Empty title={tb.noPapers} className="py-8" />
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.records.map((p) => {
            const added = chosen.some((c) => c.type === 'paper' && c.id === p.id);
            return (
              <li key={p.id} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-800">{p.title}</p>
                  <p className="text-xs text-slate-500">
                    {p.stageName}
                    {p.subjectName} · {tb.questions(p.questionCount)}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant={added ? 'ghost' : 'secondary'}
                  disabled={added}
                  aria-label={`${tb.add} ${p.title}`}
                  onClick={() =>
                    onAdd({
                      type: 'paper',
                      id: p.id,
                      title: p.title,
                      detail: `${tb.typePaper} · ${p.subjectName} · ${tb.questions(p.questionCount)}`,
                    })
                  }
                >
                  {added ? tb.added : tb.add}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function MaterialList({ chosen, onAdd }: { chosen: Chosen[]; onAdd: (c: Chosen) => void }) {
  const [keyword, setKeyword] = useState('');
  const { data } = useBindableMaterials(keyword);
  return (
    <div className="space-y-3">
      <SearchBox placeholder={tb.searchMaterials} onSearch={setKeyword} />
      {!data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.records.length === 0 ? (
        <Empty title={tb.noMaterials} className="py-8" />
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.records.map((m) => {
            const added = chosen.some((c) => c.type === 'material' && c.id === m.id);
            const word = m.kind === 'word';
            const name = `${m.name}.${m.ext}`;
            return (
              <li key={m.id} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-800">{name}</p>
                  <p className={cn('text-xs', word ? 'text-amber-700' : 'text-slate-500')}>
                    {word
                      ? tb.wordHint
                      : `${tm.kinds[m.kind]} · ${m.pageCount ? `${tm.pages(m.pageCount)} · ` : ''}${formatSize(m.sizeBytes)}`}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant={added ? 'ghost' : 'secondary'}
                  disabled={added || word}
                  aria-label={`${tb.add} ${name}`}
                  onClick={() =>
                    onAdd({
                      type: 'material',
                      id: m.id,
                      title: name,
                      detail: `${tm.kinds[m.kind]}${m.pageCount ? ` · ${tm.pages(m.pageCount)}` : ''}`,
                    })
                  }
                >
                  {added ? tb.added : tb.add}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** /paperbinding: papers and materials picked, ordered and bound into one printable PDF booklet. */
export function BindingScreen() {
  const [source, setSource] = useState<Source>('mine');
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [title, setTitle] = useState<string>(tb.defaultTitle);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [cover, setCover] = useState(true);
  const [pageNumbers, setPageNumbers] = useState(true);
  const [withAnswers, setWithAnswers] = useState(false);
  const [pageSize, setPageSize] = useState<'A4' | 'A3'>('A4');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null | undefined>(undefined);

  // The host says which chosen items cannot be bound (a paper no longer shared, a deleted file) before rendering.
  useEffect(() => {
    if (chosen.length === 0) {
      setProblems({});
      return;
    }
    let alive = true;
    checkBinding(chosen.map(({ type, id }) => ({ type, id })))
      .then((r) => {
        if (!alive) return;
        setProblems(
          Object.fromEntries(r.items.filter((i) => i.problem).map((i) => [`${i.type}:${i.id}`, i.problem!])),
        );
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [chosen]);

  const move = (index: number, delta: number) =>
    setChosen((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + delta, 0, item!);
      return next;
    });

  const bind = async () => {
    if (!title.trim()) {
      setTitleError(tb.bookletTitle);
      return;
    }
    setProgress(null);
    try {
      await bindBooklet(
        {
          title: title.trim(),
          items: chosen.map(({ type, id }) => ({ type, id })),
          cover,
          pageNumbers,
          withAnswers,
          pageSize,
        },
        (loaded, total) => setProgress(total ? Math.round((loaded / total) * 100) : null),
      );
      toast(tb.done, 'success');
    } catch {
      // The client showed the failure (or the host reason).
    } finally {
      setProgress(undefined);
    }
  };

  const blocked = Object.keys(problems).length > 0;
  const sources: { key: Source; label: string }[] = [
    { key: 'mine', label: tb.myPapers },
    { key: 'school', label: tb.schoolPapers },
    { key: 'materials', label: tb.materials },
  ];

  return (
    <Page
      title={tb.title}
      lead={tb.lead}
      wide
      actions={
        <ButtonLink to={paths.schoolmaterials} variant="secondary">
          {tb.backToMaterials}
        </ButtonLink>
      }
    >
      <div className="grid gap-5 lg:grid-cols-2">
        <section className="rounded-xl border border-slate-200 bg-white p-4" aria-label={tb.sources}>
          <div role="tablist" aria-label={tb.sources} className="mb-4 flex gap-5 border-b border-slate-200">
            {sources.map((s) => (
              <button
                key={s.key}
                type="button"
                role="tab"
                aria-selected={source === s.key}
                onClick={() => setSource(s.key)}
                className={cn(
                  '-mb-px border-b-2 px-1 pb-2 text-sm',
                  source === s.key
                    ? 'border-blue-600 font-medium text-blue-700'
                    : 'border-transparent text-slate-500 hover:text-slate-800',
                )}
              >
                {s.label}
              </button>
            ))}
          </div>
          <div className="max-h-[560px] overflow-y-auto">
            {source === 'materials' ? (
              <MaterialList chosen={chosen} onAdd={(c) => setChosen((l) => [...l, c])} />
            ) : (
              <PaperList
                key={source}
                kind={source}
                chosen={chosen}
                onAdd={(c) => setChosen((l) => [...l, c])}
              />
            )}
          </div>
        </section>

        <section className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 className="mb-3 text-base font-semibold text-slate-900">{tb.chosen(chosen.length)}</h2>
          {chosen.length === 0 ? (
            <Empty title={tb.emptyChosen} description={tb.emptyChosenHint} className="py-10" />
          ) : (
            <ol className="space-y-2" aria-label={tb.chosen(chosen.length)}>
              {chosen.map((c, i) => {
                const problem = problems[`${c.type}:${c.id}`];
                return (
                  <li
                    key={`${c.type}:${c.id}`}
                    data-testid="binding-item"
                    className={cn(
                      'flex items-center gap-3 rounded-lg border px-3 py-2',
                      problem ? 'border-red-200 bg-red-50' : 'border-slate-200',
                    )}
                  >
                    <span className="w-6 text-center text-sm font-semibold text-slate-500">{i + 1}</span>
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium text-slate-800">{c.title}</p>
                      <p className={cn('text-xs', problem ? 'text-red-600' : 'text-slate-500')}>
                        {problem ?? c.detail}
                      </p>
                    </div>
                    <div className="flex gap-0.5">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`${tb.up} ${c.title}`}
                        disabled={i === 0}
                        onClick={() => move(i, -1)}
                      >
                        <ArrowUpIcon className="size-4" />
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`${tb.down} ${c.title}`}
                        disabled={i === chosen.length - 1}
                        onClick={() => move(i, 1)}
                      >
                        <ArrowUpIcon className="size-4 rotate-180" />
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`${tb.remove} ${c.title}`}
                        onClick={() => setChosen((l) => l.filter((_, j) => j !== i))}
                      >
                        <CloseIcon className="size-4" />
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
          {blocked && <p className="mt-3 text-sm text-red-600">{tb.problems}</p>}

          <div className="mt-5 space-y-3 border-t border-slate-200 pt-4">
            <TextField
              label={tb.bookletTitle}
              value={title}
              maxLength={60}
              error={titleError}
              onChange={(e) => {
                setTitle(e.target.value);
                setTitleError(null);
              }}
            />
            <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-700">
              <label className="flex items-center gap-1.5">
                <input type="checkbox" checked={cover} onChange={(e) => setCover(e.target.checked)} />
                {tb.cover}
              </label>
              <label className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={pageNumbers}
                  onChange={(e) => setPageNumbers(e.target.checked)}
                />
                {tb.pageNumbers}
              </label>
              <label className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={withAnswers}
                  onChange={(e) => setWithAnswers(e.target.checked)}
                />
                {tb.withAnswers}
              </label>
              <span className="flex items-center gap-1.5">
                {tb.pageSize}
                <Segmented<'A4' | 'A3'>
                  label={tb.pageSize}
                  value={pageSize}
                  options={[
                    { value: 'A4', label: tb.pageA4 },
                    { value: 'A3', label: tb.pageA3 },
                  ]}
                  onChange={setPageSize}
                />
              </span>
            </div>
            <div className="flex items-center gap-3">
              <Button
                loading={progress !== undefined}
                disabled={chosen.length === 0 || blocked}
                onClick={() => void bind()}
              >
                {tb.bind}
              </Button>
              {progress !== undefined && (
                <span className="flex flex-1 items-center gap-2" role="status">
                  <span className="h-1.5 flex-1 overflow-hidden rounded bg-slate-200">
                    <span
                      className={cn(
                        'block h-full bg-blue-600 transition-all',
                        progress === null && 'animate-pulse',
                      )}
                      style={{ width: `${progress ?? 40}%` }}
                    />
                  </span>
                  <span className="text-xs text-slate-500">{tb.binding(progress)}</span>
                </span>
              )}
            </div>
          </div>
        </section>
      </div>
    </Page>
  );
}
