/** Small shared helpers of SPEC §7. */

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as YYYY-MM-DD in local time; accepts a Date, epoch ms or a parsable string. */
export function formatDate(value: Date | number | string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A `data:` URL as a File (e.g. a scanned page or a canvas snapshot). */
export function dataUrlToFile(dataUrl: string, filename: string): File {
  const comma = dataUrl.indexOf(',');
  if (!dataUrl.startsWith('data:') || comma < 0) throw new Error('not a data URL');
  const header = dataUrl.slice(5, comma);
  const payload = dataUrl.slice(comma + 1);
  const isBase64 = /;base64$/i.test(header);
  const type = header.replace(/;base64$/i, '').split(';')[0] || 'application/octet-stream';
  let bytes: Uint8Array<ArrayBuffer>;
  if (isBase64) {
    const binary = atob(payload);
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  } else {
    bytes = new TextEncoder().encode(decodeURIComponent(payload));
  }
  return new File([bytes], filename, { type });
}

/** A query parameter of a URL (the current page by default), or null. */
export function getQueryParam(name: string, url: string = globalThis.location?.href ?? ''): string | null {
  try {
    const parsed = new URL(url, 'http://localhost');
    const fromSearch = parsed.searchParams.get(name);
    if (fromSearch !== null) return fromSearch;
    // Hash-style routes carry their query after the '#'.
    const hashQuery = parsed.hash.includes('?') ? parsed.hash.slice(parsed.hash.indexOf('?')) : '';
    return new URLSearchParams(hashQuery).get(name);
  } catch {
    return null;
  }
}

/** The page's origin, e.g. `https://zy.school.cn`. */
export function pageOrigin(
  loc: Pick<Location, 'protocol' | 'host'> & { origin?: string } = globalThis.location,
): string {
  if (loc.origin && loc.origin !== 'null') return loc.origin;
  return `${loc.protocol}//${loc.host}`;
}

/** Groups items by a key (a property name or a function); keys keep their first-seen order. */
export function groupBy<T, K extends PropertyKey>(
  items: readonly T[],
  key: keyof T | ((item: T) => K),
): Record<string, T[]> {
  const out: Record<string, T[]> = {};
  for (const item of items) {
    const k = String(typeof key === 'function' ? key(item) : item[key]);
    (out[k] ??= []).push(item);
  }
  return out;
}

/** Concatenates arrays without duplicates (by value, or by a key); the first occurrence wins. */
export function mergeUnique<T>(
  a: readonly T[],
  b: readonly T[],
  key?: keyof T | ((item: T) => unknown),
): T[] {
  const seen = new Set<unknown>();
  const out: T[] = [];
  for (const item of [...a, ...b]) {
    const k = key === undefined ? item : typeof key === 'function' ? key(item) : item[key];
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/** Joins class names, skipping falsy ones. */
export function cn(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}
