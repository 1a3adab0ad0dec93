import { useState } from 'react';
import { Listbox } from '../../../components/ui/listbox';
import { composition } from '../../../i18n/composition';
import {
  mergeWithNext,
  removeQuestion,
  setQuestion,
  splitQuestion,
  type ImportItem,
  scoreOk,
  type Section,
} from './word-import-model';
import { ImportedQuestionCard } from './word-import-question';

const w = composition.word;

const INPUT =
  'mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none';

/** The side-by-side fix-up of one paper: the document as read on the left, the detected questions on the right. */
export function WordImportReview({
  item,
  types,
  typeName,
  onChange,
}: {
  item: ImportItem;
  types: { id: string; name: string }[] | undefined;
  typeName: (id: string) => string;
  onChange: (change: Partial<ImportItem>) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const sections = item.sections;
  const setSections = (next: Section[]) => onChange({ sections: next });
  const source = item.preview?.source ?? [];
  let no = 0;
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="text-sm text-slate-600">
          {w.paperTitle}
          <input
            value={item.title}
            maxLength={80}
            onChange={(e) => onChange({ title: e.target.value })}
            className={INPUT}
          />
        </label>
        <label className="text-sm text-slate-600">
          {w.subtitle}
          <input
            value={item.subtitle}
            maxLength={120}
            onChange={(e) => onChange({ subtitle: e.target.value })}
            className={INPUT}
          />
        </label>
      </div>
      {item.preview && item.preview.warnings.length > 0 && (
        <ul className="space-y-1 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {item.preview.warnings.map((x) => (
            <li key={x}>{x}</li>
          ))}
        </ul>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-label={w.original} className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-700">
            {w.original} <span className="font-normal text-slate-400">{w.originalHint}</span>
          </h3>
          <div className="max-h-[65vh] overflow-auto rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm leading-6 whitespace-pre-wrap text-slate-700 lg:sticky lg:top-0">
            {source.length === 0 ? (
              <p className="text-slate-400">{w.noOriginal}</p>
            ) : (
              source.map((line, i) => <p key={i}>{line}</p>)
            )}
          </div>
        </section>
        <section aria-label={w.detected} className="min-w-0 space-y-5">
          <h3 className="text-sm font-semibold text-slate-700">{w.detected}</h3>
          {sections.map((section, si) => (
            <section key={si} aria-label={section.title} className="space-y-3">
              <div className="flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 px-3 py-2">
                <input
                  aria-label={w.sectionTitle(si + 1)}
                  value={section.title}
                  maxLength={40}
                  onChange={(e) =>
                    setSections(sections.map((s, i) => (i === si ? { ...s, title: e.target.value } : s)))
                  }
                  className="h-8 w-40 rounded-md border border-slate-300 bg-white px-2 text-sm font-semibold focus:border-blue-500 focus:outline-none"
                />
                <Listbox
                  label={w.sectionType}
                  value={section.typeId}
                  placeholder={w.sectionType}
                  options={(types ?? []).map((x) => ({ value: x.id, label: x.name }))}
                  onChange={(typeId) =>
                    setSections(sections.map((s, i) => (i === si ? { ...s, typeId } : s)))
                  }
                />
                <label className="flex items-center gap-1.5 text-sm text-slate-600">
                  {composition.compose.eachScore}
                  <input
                    inputMode="decimal"
                    aria-label={w.sectionScore(si + 1)}
                    defaultValue={section.defaultScore}
                    onChange={(e) => {
                      const v = Number(e.target.value);
                      if (e.target.value.trim() !== '' && scoreOk(v))
                        setSections(sections.map((s, i) => (i === si ? { ...s, defaultScore: v } : s)));
                    }}
                    className="h-8 w-14 rounded-md border border-slate-300 bg-white px-2 text-center text-sm focus:border-blue-500 focus:outline-none"
                  />
                  {composition.compose.points}
                </label>
              </div>
              <ol className="space-y-2">
                {section.questions.map((q, qi) => {
                  no += 1;
                  const key = `${si}-${qi}`;
                  return (
                    <ImportedQuestionCard
                      key={`${key}-${q.no}`}
                      no={no}
                      question={q}
                      defaultScore={section.defaultScore}
                      types={types}
                      typeName={typeName}
                      editing={editing === key}
                      canMerge={qi + 1 < section.questions.length}
                      onEditing={(open) => setEditing(open ? key : null)}
                      onChange={(next) => setSections(setQuestion(sections, si, qi, next))}
                      onMerge={() => {
                        setEditing(null);
                        setSections(mergeWithNext(sections, si, qi));
                      }}
                      onSplit={() => {
                        setEditing(null);
                        setSections(splitQuestion(sections, si, qi));
                      }}
                      onRemove={() => {
                        setEditing(null);
                        setSections(removeQuestion(sections, si, qi));
                      }}
                    />
                  );
                })}
              </ol>
            </section>
          ))}
        </section>
      </div>
    </div>
  );
}
