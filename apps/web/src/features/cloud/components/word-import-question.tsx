import { DIFFICULTY_LEVELS, type ImportedQuestion } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { Button } from '../../../components/ui/button';
import { QuestionFields, checkQuestion } from '../../../components/ui/question-fields';
import { AlertIcon } from '../../../components/icons';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';
import { paragraphsOf, scoreOk, toDraft } from './word-import-model';

const w = composition.word;

/** One detected question: its warnings on it, edited in place, merged with the next, split or deleted. */
export function ImportedQuestionCard({
  no,
  question: q,
  defaultScore,
  types,
  typeName,
  editing,
  canMerge,
  onEditing,
  onChange,
  onMerge,
  onSplit,
  onRemove,
}: {
  /** The number shown (counted across the paper). */
  no: number;
  question: ImportedQuestion;
  /** The section's score per question, shown until this one has its own. */
  defaultScore: number;
  types: { id: string; name: string }[] | undefined;
  typeName: (id: string) => string;
  editing: boolean;
  canMerge: boolean;
  onEditing: (open: boolean) => void;
  onChange: (q: ImportedQuestion) => void;
  onMerge: () => void;
  onSplit: () => void;
  onRemove: () => void;
}) {
  const errors = checkQuestion(toDraft(q), typeName(q.typeId));
  const notes = [...q.warnings, ...Object.values(errors)];
  return (
    <li
      data-testid="imported-question"
      className={cn(
        'rounded-lg border px-4 py-3',
        notes.length > 0 ? 'border-amber-300 bg-amber-50/40' : 'border-slate-200',
      )}
    >
      <div className="flex items-start gap-3">
        <span className="shrink-0 text-sm font-medium text-slate-500">{no}.</span>
        <div className="min-w-0 flex-1 text-sm">
          <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <span className="rounded bg-slate-100 px-1.5 py-0.5">{typeName(q.typeId)}</span>
            <span>{DIFFICULTY_LEVELS[q.difficulty - 1]}</span>
            <label className="flex items-center gap-1">
              <input
                inputMode="decimal"
                aria-label={w.scoreOf(no)}
                defaultValue={q.score ?? ''}
                placeholder={String(defaultScore)}
                onChange={(e) => {
                  const raw = e.target.value.trim();
                  const v = Number(raw);
                  if (raw === '') onChange({ ...q, score: null });
                  else if (scoreOk(v)) onChange({ ...q, score: v });
                }}
                className="h-6 w-14 rounded border border-slate-300 bg-white px-1 text-center focus:border-blue-500 focus:outline-none"
              />
              {composition.compose.points}
            </label>
          </div>
          {!editing && <RichText html={q.stem} className="line-clamp-3" />}
          {!editing && q.answer && (
            <p className="mt-1 text-xs text-slate-600">
              {composition.questionForm.answer}：<RichText html={q.answer} className="inline" />
            </p>
          )}
          {notes.map((x) => (
            <p key={x} role="note" className="mt-1 flex items-start gap-1 text-xs text-amber-800">
              <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
              {x}
            </p>
          ))}
        </div>
        <div className="flex shrink-0 flex-wrap justify-end gap-1">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={editing}
            aria-label={w.fixOf(no)}
            onClick={() => onEditing(!editing)}
          >
            {editing ? w.done : w.fix}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={!canMerge}
            aria-label={w.mergeNextOf(no)}
            onClick={onMerge}
          >
            {w.mergeNext}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={paragraphsOf(q.stem).length < 2}
            aria-label={w.splitOf(no)}
            onClick={onSplit}
          >
            {w.split}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="hover:text-red-600"
            aria-label={w.removeOf(no)}
            onClick={onRemove}
          >
            {composition.compose.remove}
          </Button>
        </div>
      </div>
      {editing && (
        <div className="mt-3 border-t border-slate-100 pt-3">
          <QuestionFields
            value={toDraft(q)}
            typeName={typeName(q.typeId)}
            types={types}
            errors={errors}
            onChange={(d) => onChange({ ...q, ...d, warnings: [] })}
          />
        </div>
      )}
    </li>
  );
}
