/**
 * Days as the school lives them (ADR 0045): "today", default titles and date pickers use the school's time zone —
 * Asia/Shanghai unless the school sets another — never the server's or the browser's.
 */

export const DEFAULT_SCHOOL_TIME_ZONE = 'Asia/Shanghai';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayInZone(instant: Date | number | string, timeZone: string = DEFAULT_SCHOOL_TIME_ZONE): string {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, f);
  }
  const parts = f.formatToParts(instant instanceof Date ? instant : new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
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
