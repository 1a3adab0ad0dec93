import { useSearchParams } from 'react-router-dom';
import { LabelPage } from '../../../features/printing/components/label-page';
import { useSession } from '../../../lib/session';

/** /printcode: a QR (or barcode) label per student, laid out for common label sheets. */
export function Component() {
  const { user } = useSession();
  const [params] = useSearchParams();
  return <LabelPage orgId={user?.orgDefaultId ?? null} homeworkId={params.get('homeworkId')} />;
}
