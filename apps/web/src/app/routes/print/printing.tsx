import { useSearchParams } from 'react-router-dom';
import { PaperPrintPage } from '../../../features/printing/components/paper-print';

/** /printing: the paper itself (`paperId`, or the paper a homework was published with: `homeworkId`). */
export function Component() {
  const [params] = useSearchParams();
  return <PaperPrintPage paperId={params.get('paperId')} homeworkId={params.get('homeworkId')} />;
}
