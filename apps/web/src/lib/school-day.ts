import { dayInZone, DEFAULT_SCHOOL_TIME_ZONE } from '@zhzy/contracts';

/** Today as the school counts it (Asia/Shanghai unless the school sets another), not the browser's day. */
export function todayInSchool(timeZone: string = DEFAULT_SCHOOL_TIME_ZONE): string {
  return dayInZone(new Date(), timeZone);
}
