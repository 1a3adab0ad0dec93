import { useSession } from '../../lib/session';
import { useSchoolYears } from '../../features/school-year/api/school-years';
import { ScanScreen } from '../../features/scan/components/scan-screen';

/** /scan: the scan screen, given the default school year of the top bar (scanning needs one). */
export function Component() {
  const { user } = useSession();
  const { data: years } = useSchoolYears(user?.orgDefaultId ?? null);
  const year = years?.find((y) => y.isDefault) ?? null;
  return <ScanScreen schoolYearId={year?.id ?? null} />;
}
