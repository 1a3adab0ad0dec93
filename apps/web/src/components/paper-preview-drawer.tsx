import { useState, type ReactNode } from 'react';
import { usePaperDetail } from '../api/papers';
import { Drawer } from './ui/drawer';
import { PaperView } from './ui/paper-view';
import { SkeletonLines } from './ui/skeleton';
import { ShowAnswersToggle } from './ui/show-answers-toggle';

/**
 * A saved paper read in a side panel (template and school-paper previews): the paper top to bottom, 显示答案 to show
 * the answers, and the screen's action (copy, edit …) at the bottom. Open while `id` is set.
 */
export function PaperPreviewDrawer({
  id,
  title,
  onClose,
  action,
}: {
  id: string | null;
  title: ReactNode;
  onClose: () => void;
  action?: ReactNode;
}) {
  const { data } = usePaperDetail(id);
  const [answers, setAnswers] = useState(false);
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={title}
      wide
      footer={
        <div className="flex items-center justify-between gap-2">
          <ShowAnswersToggle checked={answers} onChange={setAnswers} />
          {action}
        </div>
      }
    >
      {data && data.id === id ? (
        <PaperView
          title={data.title}
          subtitle={data.subtitle}
          sections={data.sections}
          showAnswers={answers}
        />
      ) : (
        <SkeletonLines lines={12} />
      )}
    </Drawer>
  );
}
