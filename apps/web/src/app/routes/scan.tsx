import { useSession } from '../../lib/session';
import { useSchoolYears } from '../../features/school-year/api/school-years';
import { RecognitionPanel } from '../../features/recognition/components/recognition-panel';
import { ScanScreen } from '../../features/scan/components/scan-screen';

/**
 * /scan: the scan screen, given the default school year of the top bar (scanning needs one), and under it the live
 * recognition of the batch: tally, exceptions with their fixes, and the review of every sheet.
 */
export function Component() {
  const { user } = useSession();
  const { data: years } = useSchoolYears(user?.orgDefaultId ?? null);
  const year = years?.find((y) => y.isDefault) ?? null;
  return (
    <>
      <ScanScreen schoolYearId={year?.id ?? null} />
      <div className="mx-auto -mt-2 w-full max-w-6xl px-4 pb-10 sm:px-6">
        <RecognitionPanel />
      </div>
    </>
  );
}
