import { useSearchParams } from 'react-router-dom';
import { GradeSheetPage } from '../../../features/printing/components/grade-sheet';

/** /printgrade: a homework's score sheet per class, one column per question. */
export function Component() {
  const [params] = useSearchParams();
  return <GradeSheetPage homeworkId={params.get('homeworkId')} variant="questions" />;
}
