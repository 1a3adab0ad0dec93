import { useSearchParams } from 'react-router-dom';
import { AnswerPrintPage } from '../../../features/printing/components/answer-print';

/** /printanswer: answers and analysis of a paper (`paperId`) or of a homework's paper (`homeworkId`). */
export function Component() {
  const [params] = useSearchParams();
  return <AnswerPrintPage paperId={params.get('paperId')} homeworkId={params.get('homeworkId')} />;
}
