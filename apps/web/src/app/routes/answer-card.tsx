import { useSearchParams } from 'react-router-dom';
import { CardDesigner } from '../../features/answer-card/components/card-designer';
import { CardPrintButton } from '../../features/printing/components/card-print-dialog';

/** /answerCard: the card designer of a paper (`paperId`) or of a published homework (`homeworkId`). */
export function Component() {
  const [params] = useSearchParams();
  return (
    <CardDesigner
      paperId={params.get('paperId')}
      homeworkId={params.get('homeworkId')}
      renderPrint={(homework, blockedReason) => (
        <CardPrintButton homework={homework} blockedReason={blockedReason} />
      )}
    />
  );
}
