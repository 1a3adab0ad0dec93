import { useState } from 'react';
import { DIFFICULTY_LEVELS, type Question } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { RichText } from '../../../components/rich-text';
import { t } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';

const difficultyTone = [
  '',
  'bg-emerald-50 text-emerald-700',
  'bg-teal-50 text-teal-700',
  'bg-sky-50 text-sky-700',
  'bg-amber-50 text-amber-700',
  'bg-rose-50 text-rose-700',
];

/** One question: stem, options, meta, the answer on demand, and the basket button. */
export function QuestionCard({
  question,
  index,
  inBasket,
  busy,
  onToggle,
}: {
  question: Question;
  index: number;
  inBasket: boolean;
  busy: boolean;
  onToggle: () => void;
}) {
  const [showAnswer, setShowAnswer] = useState(false);
  const level = DIFFICULTY_LEVELS[question.difficulty - 1] ?? '';
  const answerId = `answer-${question.id}`;
  return (
    <article
      aria-labelledby={`q-${question.id}`}
      className={cn(
        'rounded-xl border bg-white transition-colors',
        inBasket ? 'border-blue-200 ring-1 ring-blue-100' : 'border-slate-200 hover:border-slate-300',
      )}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-2.5 text-xs text-slate-500">
        <span className="rounded bg-slate-100 px-2 py-0.5 text-slate-700">{question.typeName}</span>
        <span className={cn('rounded px-2 py-0.5', difficultyTone[question.difficulty])}>{level}</span>
        {question.year && <span>{t.questions.year(question.year)}</span>}
        {question.source && <span>{question.source}</span>}
        <span className="ml-auto">{t.questions.used(question.usageCount)}</span>
      </div>
      <div className="px-5 py-4 text-[15px] leading-7 text-slate-800">
        <div id={`q-${question.id}`} className="flex gap-2">
          <span className="shrink-0 font-medium text-slate-500">{index}.</span>
          <RichText html={question.stem} className="min-w-0 flex-1" />
        </div>
        {question.options.length > 0 && (
          <ol className="mt-2 grid gap-x-6 gap-y-1 pl-6 sm:grid-cols-2">
            {question.options.map((o) => (
              <li key={o.label} className="flex gap-1.5">
                <span className="shrink-0">{o.label}.</span>
                <RichText html={o.content} inline />
              </li>
            ))}
          </ol>
        )}
        {showAnswer && (
          <div id={answerId} className="mt-4 space-y-2 rounded-lg bg-slate-50 px-4 py-3 text-sm leading-6">
            <p>
              <span className="font-medium text-slate-700">{t.questions.answer}：</span>
              <RichText html={question.answer} inline />
            </p>
            {question.analysis && (
              <div className="flex gap-1">
                <span className="shrink-0 font-medium text-slate-700">{t.questions.analysis}：</span>
                <RichText html={question.analysis} className="min-w-0" />
              </div>
            )}
            {question.knowledgePoints.length > 0 && (
              <p className="text-slate-500">
                {t.questions.knowledgePoints}：{question.knowledgePoints.map((k) => k.name).join('、')}
              </p>
            )}
          </div>
        )}
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-slate-100 px-5 py-2.5">
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={showAnswer}
          aria-controls={answerId}
          onClick={() => setShowAnswer((v) => !v)}
        >
          {t.questions.showAnswer}
        </Button>
        <Button variant={inBasket ? 'danger' : 'primary'} size="sm" loading={busy} onClick={onToggle}>
          {inBasket ? t.questions.remove : t.questions.add}
        </Button>
      </div>
    </article>
  );
}
