/**
 * Days as the school lives them (ADR 0045): "today", default titles and date pickers use the school's time zone —
 * Asia/Shanghai unless the school sets another — never the server's or the browser's.
 */

export const DEFAULT_SCHOOL_TIME_ZONE = 'Asia/Shanghai';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayInZone(
  instant: Date | number | string,
  timeZone: string = DEFAULT_SCHOOL_TIME_ZONE,
): string {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, f);
  }
  const parts = f.formatToParts(instant instanceof Date ? instant : new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** How far a time zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    clocks.set(timeZone, f);
  }
  const n = (type: string) => Number(f.formatToParts(instant).find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - (instant - (instant % 1000));
}

/**
 * The instant (ISO, UTC) at which a calendar day starts in a time zone: "since today" and date filters mean the
 * school's midnight, not UTC's (for Asia/Shanghai, 2026-03-02 starts at 2026-03-01T16:00:00.000Z).
 */
export function dayStartInZone(day: string, timeZone: string = DEFAULT_SCHOOL_TIME_ZONE): string {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  let start = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  // A daylight-saving change between UTC midnight and the zone's midnight: measure the offset where the day starts.
  start = midnightUtc - zoneOffsetMs(start, timeZone);
  return new Date(start).toISOString();
}

/** A YYYY-MM-DD day plus n days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Whether a text is a real YYYY-MM-DD day. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Whether a text is a time zone this runtime knows (IANA name such as Asia/Shanghai). */
export function isTimeZone(text: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(text)) return false;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: text });
    return true;
  } catch {
    return false;
  }
}

/** The time zones the school admin screen offers, with their Chinese names (any IANA name is accepted). */
export const SCHOOL_TIME_ZONES: readonly { id: string; name: string }[] = [
  { id: 'Asia/Shanghai', name: '北京时间（Asia/Shanghai）' },
  { id: 'Asia/Urumqi', name: '乌鲁木齐时间（Asia/Urumqi）' },
  { id: 'Asia/Hong_Kong', name: '香港时间（Asia/Hong_Kong）' },
  { id: 'Asia/Macau', name: '澳门时间（Asia/Macau）' },
  { id: 'Asia/Taipei', name: '台北时间（Asia/Taipei）' },
  { id: 'Asia/Singapore', name: '新加坡时间（Asia/Singapore）' },
  { id: 'Asia/Tokyo', name: '东京时间（Asia/Tokyo）' },
  { id: 'Europe/London', name: '伦敦时间（Europe/London）' },
  { id: 'America/Los_Angeles', name: '洛杉矶时间（America/Los_Angeles）' },
  { id: 'America/New_York', name: '纽约时间（America/New_York）' },
  { id: 'UTC', name: '协调世界时（UTC）' },
];
