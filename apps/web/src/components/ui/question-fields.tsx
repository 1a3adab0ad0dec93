import { DIFFICULTY_LEVELS } from '@zhzy/contracts';
import { Button } from './button';
import { Listbox } from './listbox';
import { RichEditor } from './rich-editor';
import { Segmented } from './segmented';
import { composition } from '../../i18n/composition';
import { cn } from '../../lib/utils';

/** A question as the teacher writes or fixes it. */
export interface QuestionDraft {
  typeId: string;
  difficulty: number;
  stem: string;
  options: { label: string; content: string }[];
  answer: string;
  analysis: string;
}

export type QuestionErrors = Partial<Record<'typeId' | 'stem' | 'options' | 'answer', string>>;

const LETTERS = 'ABCDEFGH';
const f = composition.questionForm;

export const isChoice = (typeName: string) => (f.choiceTypes as readonly string[]).includes(typeName);
export const isJudge = (typeName: string) => typeName === f.judgeType;
const plain = (html: string) => html.replace(/<[^>]*>/g, '').trim();

/** Options relabelled A, B, C … in order. */
export const relabel = (options: { content: string }[]) =>
  options.map((o, i) => ({ label: LETTERS[i]!, content: o.content }));

/** The rules the host applies, checked before sending so the teacher sees them next to the field. */
export function checkQuestion(q: QuestionDraft, typeName: string): QuestionErrors {
  const errors: QuestionErrors = {};
  if (!q.typeId) errors.typeId = f.typeRequired;
  if (!plain(q.stem) && !q.stem.includes('<img')) errors.stem = f.stemRequired;
  if (isChoice(typeName)) {
    const filled = q.options.filter((o) => plain(o.content) || o.content.includes('<img'));
    if (filled.length < 2) errors.options = f.optionsRequired;
    const letters = q.answer.replace(/[^A-H]/g, '');
    if (!letters) errors.answer = f.choiceAnswerRequired;
    else if (typeName !== f.multiType && letters.length !== 1) errors.answer = f.singleAnswer;
    else if (typeName === f.multiType && letters.length < 2) errors.answer = f.multiAnswer;
  }
  if (isJudge(typeName) && q.answer !== f.judgeTrue && q.answer !== f.judgeFalse) {
    errors.answer = f.judgeAnswerRequired;
  }
  return errors;
}

/** Type, difficulty, stem, options, answer and analysis of one question. */
export function QuestionFields({
  value,
  onChange,
  typeName,
  types,
  errors = {},
}: {
  value: QuestionDraft;
  onChange: (next: QuestionDraft) => void;
  typeName: string;
  /** When given, the type can be chosen. */
  types?: { id: string; name: string }[] | undefined;
  errors?: QuestionErrors;
}) {
  const set = (patch: Partial<QuestionDraft>) => onChange({ ...value, ...patch });
  const choice = isChoice(typeName);
  const judge = isJudge(typeName);
  const multi = typeName === f.multiType;
  const letters = value.answer.replace(/[^A-H]/g, '');

  const toggleLetter = (l: string) => {
    if (!multi) return set({ answer: l });
    const next = letters.includes(l) ? letters.replace(l, '') : letters + l;
    set({ answer: [...next].sort().join('') });
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        {types && (
          <div>
            <Listbox
              label={f.type}
              value={value.typeId || null}
              placeholder={f.chooseType}
              options={types.map((x) => ({ value: x.id, label: x.name }))}
              onChange={(typeId) => set({ typeId, answer: '' })}
            />
            {errors.typeId && <p className="mt-1 text-xs text-red-600">{errors.typeId}</p>}
          </div>
        )}
        <div className="flex items-center gap-2">
          <span className="text-sm text-slate-500">{f.difficulty}</span>
          <Segmented
            label={f.difficulty}
            value={String(value.difficulty)}
            options={DIFFICULTY_LEVELS.map((label, i) => ({ value: String(i + 1), label }))}
            onChange={(v) => set({ difficulty: Number(v) })}
          />
        </div>
      </div>
      <RichEditor
        label={f.stem}
        value={value.stem}
        onChange={(stem) => set({ stem })}
        minRows={3}
        error={errors.stem}
        hint={f.stemHint}
      />
      {choice && (
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">{f.options}</legend>
          {value.options.map((o, i) => (
            <div key={i} className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <RichEditor
                  label={f.option(LETTERS[i]!)}
                  value={o.content}
                  minRows={1}
                  compact
                  onChange={(content) =>
                    set({ options: value.options.map((x, j) => (j === i ? { ...x, content } : x)) })
                  }
                />
              </div>
              <Button
                variant="ghost"
                size="sm"
                className="mt-8"
                disabled={value.options.length <= 2}
                aria-label={f.removeOption(LETTERS[i]!)}
                onClick={() => set({ options: relabel(value.options.filter((_, j) => j !== i)), answer: '' })}
              >
                {f.remove}
              </Button>
            </div>
          ))}
          {errors.options && <p className="text-xs text-red-600">{errors.options}</p>}
          <Button
            variant="secondary"
            size="sm"
            disabled={value.options.length >= 8}
            onClick={() => set({ options: relabel([...value.options, { content: '' }]) })}
          >
            {f.addOption}
          </Button>
        </fieldset>
      )}
      {choice ? (
        <div role="group" aria-label={f.correctAnswer}>
          <span className="mb-1.5 block text-sm font-medium text-slate-700">{f.correctAnswer}</span>
          <div className="flex flex-wrap gap-2">
            {value.options.map((o) => (
              <button
                key={o.label}
                type="button"
                aria-pressed={letters.includes(o.label)}
                onClick={() => toggleLetter(o.label)}
                className={cn(
                  'size-9 rounded-md border text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
                  letters.includes(o.label)
                    ? 'border-blue-600 bg-blue-600 text-white'
                    : 'border-slate-300 bg-white text-slate-700 hover:border-blue-400',
                )}
              >
                {o.label}
              </button>
            ))}
          </div>
          {errors.answer && <p className="mt-1 text-xs text-red-600">{errors.answer}</p>}
        </div>
      ) : judge ? (
        <div>
          <span className="mb-1.5 block text-sm font-medium text-slate-700">{f.correctAnswer}</span>
          <Segmented
            label={f.correctAnswer}
            value={
              value.answer === f.judgeFalse ? f.judgeFalse : value.answer === f.judgeTrue ? f.judgeTrue : ''
            }
            options={[
              { value: f.judgeTrue, label: f.judgeTrue },
              { value: f.judgeFalse, label: f.judgeFalse },
            ]}
            onChange={(answer) => set({ answer })}
          />
          {errors.answer && <p className="mt-1 text-xs text-red-600">{errors.answer}</p>}
        </div>
      ) : (
        <RichEditor
          label={f.answer}
          value={value.answer}
          onChange={(answer) => set({ answer })}
          minRows={2}
          error={errors.answer}
        />
      )}
      <RichEditor
        label={f.analysis}
        value={value.analysis}
        onChange={(analysis) => set({ analysis })}
        minRows={2}
      />
    </div>
  );
}
