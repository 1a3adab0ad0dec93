import { DIFFICULTY_LEVELS } from '@zhzy/contracts';
import { RichText } from '../rich-text';
import { composition } from '../../i18n/composition';
import { cn } from '../../lib/utils';

/** What every question view needs; both the bank's `Question` and a paper's `PaperQuestion` fit. */
export interface QuestionLike {
  id: string;
  stem: string;
  options: { label: string; content: string }[];
  answer: string;
  analysis: string;
  knowledgePoints: { id: string; name: string }[];
}

const TONES = [
  '',
  'bg-emerald-50 text-emerald-700',
  'bg-teal-50 text-teal-700',
  'bg-sky-50 text-sky-700',
  'bg-amber-50 text-amber-700',
  'bg-rose-50 text-rose-700',
];

/** 容易 … 困难 as a small coloured tag. */
export function DifficultyTag({ level, className }: { level: number; className?: string }) {
  return (
    <span className={cn('rounded px-2 py-0.5 text-xs', TONES[level], className)}>
      {DIFFICULTY_LEVELS[level - 1] ?? ''}
    </span>
  );
}

const plainLength = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/\\\(|\\\)/g, '')
    .trim().length;

/** Options sit four to a row when short, two when medium, one when long — as on a printed paper. */
export function optionColumns(options: { content: string }[]): 1 | 2 | 4 {
  const longest = Math.max(0, ...options.map((o) => plainLength(o.content)));
  if (options.some((o) => o.content.includes('<img'))) return 2;
  if (longest <= 10) return 4;
  if (longest <= 26) return 2;
  return 1;
}

/** Stem with its number, options, and (on demand) answer, analysis and knowledge points. */
export function QuestionBody({
  question,
  no,
  showAnswer = false,
  idPrefix = 'q',
  className,
}: {
  question: QuestionLike;
  no?: number | string;
  showAnswer?: boolean;
  idPrefix?: string;
  className?: string;
}) {
  const cols = optionColumns(question.options);
  return (
    <div className={cn('text-[15px] leading-7 text-slate-800', className)}>
      <div id={`${idPrefix}-${question.id}`} className="flex gap-2">
        {no !== undefined && <span className="shrink-0 font-medium text-slate-500">{no}.</span>}
        <RichText html={question.stem} className="min-w-0 flex-1" />
      </div>
      {question.options.length > 0 && (
        <ol
          className={cn(
            'mt-2 grid gap-x-6 gap-y-1 pl-6',
            cols === 4 && 'grid-cols-2 sm:grid-cols-4',
            cols === 2 && 'sm:grid-cols-2',
          )}
        >
          {question.options.map((o) => (
            <li key={o.label} className="flex gap-1.5">
              <span className="shrink-0">{o.label}.</span>
              <RichText html={o.content} inline />
            </li>
          ))}
        </ol>
      )}
      {showAnswer && (
        <div
          id={`${idPrefix}-answer-${question.id}`}
          className="mt-3 space-y-2 rounded-lg bg-slate-50 px-4 py-3 text-sm leading-6"
        >
          <div className="flex gap-1">
            <span className="shrink-0 font-medium text-slate-700">{composition.questions.answer}：</span>
            {question.answer ? (
              <RichText html={question.answer} className="min-w-0" />
            ) : (
              <span className="text-slate-500">{composition.bank.none}</span>
            )}
          </div>
          {question.analysis && (
            <div className="flex gap-1">
              <span className="shrink-0 font-medium text-slate-700">{composition.questions.analysis}：</span>
              <RichText html={question.analysis} className="min-w-0" />
            </div>
          )}
          {question.knowledgePoints.length > 0 && (
            <p className="text-slate-500">
              {composition.questions.knowledgePoints}：
              {question.knowledgePoints.map((k) => k.name).join('、')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
