import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useSchoolYears } from '../../features/school-year/api/school-years';
import { RecognitionPanel } from '../../features/recognition/components/recognition-panel';
import { ScanScreen } from '../../features/scan/components/scan-screen';

/**
 * /scan: the scan screen, given the default school year of the top bar (scanning needs one), and under it the live
 * recognition of the batch: tally, exceptions with their fixes, and the review of every sheet. Opened for a homework
 * (`?homeworkId=`, the 扫描 button of the homework list), the scan is bound to that homework: its title, only its
 * batches, and the demo scanner's 演示作业 picker starts on it.
 */
export function Component() {
  const { user } = useSession();
  const { data: years, isLoading: yearsLoading } = useSchoolYears(user?.orgDefaultId ?? null);
  const year = years?.find((y) => y.isDefault) ?? null;
  const [params] = useSearchParams();
  const homeworkId = params.get('homeworkId');
  return (
    <>
      <ScanScreen schoolYearId={year?.id ?? null} schoolYearLoading={yearsLoading} homeworkId={homeworkId} />
      <div className="mx-auto -mt-2 w-full max-w-6xl px-4 pb-10 sm:px-6">
        <RecognitionPanel homeworkId={homeworkId} />
      </div>
    </>
  );
}
