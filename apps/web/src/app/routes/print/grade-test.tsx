import { useSearchParams } from 'react-router-dom';
import { GradeSheetPage } from '../../../features/printing/components/grade-sheet';

/** /printgradetest: a test's score sheet per class, by section, with objective, written and rank columns. */
export function Component() {
  const [params] = useSearchParams();
  return <GradeSheetPage homeworkId={params.get('homeworkId')} variant="test" />;
}
