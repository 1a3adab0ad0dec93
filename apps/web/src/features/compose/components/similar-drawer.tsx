import { useState } from 'react';
import type { Question } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Drawer } from '../../../components/ui/drawer';
import { Empty } from '../../../components/ui/empty';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { SkeletonLines } from '../../../components/ui/skeleton';
import { composition } from '../../../i18n/composition';
import { useSimilarQuestions } from '../../../api/catalog';
import type { DraftItem } from '../utils/draft';
import { ShowAnswersToggle } from '../../../components/ui/show-answers-toggle';

/** 换一题: similar questions (same type and knowledge points, near difficulty) to take a question's place. */
export function SimilarDrawer({
  item,
  no,
  exclude,
  onPick,
  onClose,
}: {
  item: DraftItem | null;
  no: number;
  exclude: string[];
  onPick: (q: Question) => void;
  onClose: () => void;
}) {
  const { data, isLoading } = useSimilarQuestions(item?.questionId ?? null, 10, exclude);
  const [answers, setAnswers] = useState(false);
  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      title={composition.compose.similarTitle(no)}
      footer={<ShowAnswersToggle checked={answers} onChange={setAnswers} />}
    >
      <p className="mb-4 text-sm text-slate-500">{composition.compose.similarHint}</p>
      {item?.question && (
        <div className="mb-5 rounded-lg border border-blue-100 bg-blue-50/50 px-4 py-3">
          <p className="mb-1 text-xs text-blue-700">{composition.compose.current}</p>
          <QuestionBody question={item.question} idPrefix="cur" />
        </div>
      )}
      {isLoading ? (
        <SkeletonLines lines={8} />
      ) : data && data.length > 0 ? (
        <ul className="space-y-3">
          {data.map((q) => (
            <li key={q.id} className="rounded-lg border border-slate-200 px-4 py-3">
              <QuestionBody question={q} idPrefix="sim" showAnswer={answers} />
              <div className="mt-2 flex items-center justify-between gap-2 border-t border-slate-100 pt-2">
                <span className="flex items-center gap-2 text-xs text-slate-500">
                  <DifficultyTag level={q.difficulty} />
                  {q.knowledgePoints.map((k) => k.name).join('、')}
                </span>
                <Button size="sm" onClick={() => onPick(q)}>
                  {composition.compose.use}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <Empty title={composition.compose.similarEmpty} />
      )}
    </Drawer>
  );
}
