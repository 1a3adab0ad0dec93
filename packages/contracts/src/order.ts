/**
 * Natural order of class (and grade) names as a Chinese teacher reads them (ADR 0045): 七年级(1)班, (2) … (10),
 * (11) — digits compared as numbers — and 七年级 before 八年级 before 九年级, 高一 before 高二 (Chinese numerals
 * of a grade compared by value, not by their pinyin). One compare function for the host and the web.
 */

const DIGITS: Record<string, number> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};

/** A Chinese numeral of 1–99 (十一, 二十三) as a number, or null. */
function chineseNumber(text: string): number | null {
  if (!text || [...text].some((c) => !(c in DIGITS))) return null;
  const i = text.indexOf('十');
  if (i < 0) return text.length === 1 ? DIGITS[text]! : null;
  const tens = i === 0 ? 1 : (DIGITS[text.slice(0, i)] ?? NaN);
  const ones = i === text.length - 1 ? 0 : (DIGITS[text.slice(i + 1)] ?? NaN);
  const n = tens * 10 + ones;
  return Number.isFinite(n) ? n : null;
}

/** Grade keys already made, by name: a list sorts the same few hundred class names on every call. */
const gradeKeys = new Map<string, string>();
const MAX_GRADE_KEYS = 4096;

/** Rewrites grade numerals as numbers: 七年级 → 7年级, 高一 → 高1, 初三 → 初3 (so they sort by value). */
function gradeKey(name: string): string {
  let key = gradeKeys.get(name);
  if (key === undefined) {
    if (gradeKeys.size >= MAX_GRADE_KEYS) gradeKeys.clear();
    key = gradeKeyOf(name);
    gradeKeys.set(name, key);
  }
  return key;
}

function gradeKeyOf(name: string): string {
  return name
    .replace(/([一二三四五六七八九十]+)年级/g, (m, n: string) => {
      const v = chineseNumber(n);
      return v === null ? m : `${v}年级`;
    })
    .replace(
      /^(初|高)([一二三])(?![一二三四五六七八九十])/,
      (m, stage: string, n: string) => `${stage}${DIGITS[n]!}`,
    );
}

// Made on first use: ICU's Chinese collation tables cost ~3 MB of memory in a process (the scan agent) that may
// never sort a class name.
let collator: Intl.Collator | undefined;

/** Natural order of two class names: 七年级(2)班 before 七年级(10)班, 七年级 before 八年级. */
export function compareClassNames(a: string, b: string): number {
  collator ??= new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
  return collator.compare(gradeKey(a), gradeKey(b)) || collator.compare(a, b);
}

/** Sorts (a copy of) rows by a class name in natural order. */
export function sortByClassName<T>(rows: readonly T[], name: (row: T) => string): T[] {
  return [...rows].sort((a, b) => compareClassNames(name(a), name(b)));
}
