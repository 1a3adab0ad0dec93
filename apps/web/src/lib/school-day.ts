import { dayInZone, DEFAULT_SCHOOL_TIME_ZONE } from '@zhzy/contracts';
import { useSchoolDetail } from '../api/school';

/** The signed-in school's time zone as last read from the host (Asia/Shanghai until then). */
let knownTimeZone: string = DEFAULT_SCHOOL_TIME_ZONE;

/** Today as the school counts it (its own time zone, Asia/Shanghai unless it sets another), not the browser's day. */
export function todayInSchool(timeZone: string = knownTimeZone): string {
  return dayInZone(new Date(), timeZone);
}

/** The school's time zone and today in it; the host's setting (school admin screen) once it has answered. */
export function useSchoolToday(orgId: string | null): { timeZone: string; today: string } {
  const { data } = useSchoolDetail(orgId);
  const timeZone = data?.timeZone ?? knownTimeZone;
  knownTimeZone = timeZone;
  return { timeZone, today: todayInSchool(timeZone) };
}
