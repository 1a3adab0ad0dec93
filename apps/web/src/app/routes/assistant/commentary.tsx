import { CommentaryScreen } from '../../../features/analysis/components/commentary';

/** /assistant/commentary: 讲评 of a homework (?homeworkId&classId). */
export function Component() {
  return <CommentaryScreen />;
}
