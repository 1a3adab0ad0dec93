import { DetailsScreen } from '../../../features/analysis/components/details';

/** /assistant/details: the student × question matrix of a homework (?homeworkId&classId). */
export function Component() {
  return <DetailsScreen />;
}
