import { useState } from 'react';
import { QUESTION_OWNER_NAMES, type Question } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';
import { useSimilarQuestions } from '../../../api/catalog';

export interface BasketControls {
  has: (id: string) => boolean;
  busy: (id: string) => boolean;
  toggle: (id: string) => void;
}

/** One question: meta, stem and options, the answer on demand, similar questions on demand, and the basket button. */
export function QuestionCard({
  question,
  index,
  basket,
}: {
  question: Question;
  index: number;
  basket: BasketControls;
}) {
  const [showAnswer, setShowAnswer] = useState(false);
  const [showSimilar, setShowSimilar] = useState(false);
  const inBasket = basket.has(question.id);
  const answerId = `q-answer-${question.id}`;
  const similarId = `similar-${question.id}`;
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
        <DifficultyTag level={question.difficulty} />
        {question.year && <span>{composition.questions.year(question.year)}</span>}
        {question.region && <span>{question.region}</span>}
        {question.source && <span className="max-w-60 truncate">{question.source}</span>}
        {question.owner !== 'system' && (
          <span className="rounded bg-violet-50 px-2 py-0.5 text-violet-700">
            {QUESTION_OWNER_NAMES[question.owner]}
          </span>
        )}
        <span className="ml-auto">{composition.questions.used(question.usageCount)}</span>
      </div>
      <div className="px-5 py-4">
        <QuestionBody question={question} no={index} showAnswer={showAnswer} />
        {question.chapters.length > 0 && (
          <p className="mt-2 text-xs text-slate-500">
            {composition.bank.chapterOf(question.chapters.map((c) => c.name).join('、'))}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 px-5 py-2.5">
        <div className="flex gap-1">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={showAnswer}
            aria-controls={answerId}
            onClick={() => setShowAnswer((v) => !v)}
          >
            {composition.questions.showAnswer}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={showSimilar}
            aria-controls={similarId}
            onClick={() => setShowSimilar((v) => !v)}
          >
            {composition.bank.similar}
          </Button>
        </div>
        <Button
          variant={inBasket ? 'danger' : 'primary'}
          size="sm"
          loading={basket.busy(question.id)}
          onClick={() => basket.toggle(question.id)}
        >
          {inBasket ? composition.questions.remove : composition.questions.add}
        </Button>
      </div>
      {showSimilar && (
        <div id={similarId} className="border-t border-slate-100 bg-slate-50/70 px-5 py-4">
          <SimilarList questionId={question.id} basket={basket} />
        </div>
      )}
    </article>
  );
}

function SimilarList({ questionId, basket }: { questionId: string; basket: BasketControls }) {
  const { data, isLoading } = useSimilarQuestions(questionId, 5);
  if (isLoading) return <SkeletonLines lines={4} />;
  if (!data || data.length === 0)
    return <p className="text-sm text-slate-500">{composition.bank.similarEmpty}</p>;
  return (
    <div>
      <h3 className="mb-3 text-sm font-medium text-slate-700">
        {composition.bank.similarTitle(data.length)}
      </h3>
      <ul className="space-y-3">
        {data.map((q, i) => {
          const inBasket = basket.has(q.id);
          return (
            <li key={q.id} className="rounded-lg border border-slate-200 bg-white px-4 py-3">
              <QuestionBody question={q} no={i + 1} idPrefix="sq" />
              <div className="mt-2 flex items-center justify-between gap-2">
                <span className="flex items-center gap-2 text-xs text-slate-500">
                  <DifficultyTag level={q.difficulty} />
                  {q.knowledgePoints.map((k) => k.name).join('、')}
                </span>
                <Button
                  variant={inBasket ? 'danger' : 'secondary'}
                  size="sm"
                  loading={basket.busy(q.id)}
                  aria-label={`${inBasket ? composition.questions.remove : composition.questions.add}${composition.bank.similarNo(i + 1)}`}
                  onClick={() => basket.toggle(q.id)}
                >
                  {inBasket ? composition.questions.remove : composition.questions.add}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
