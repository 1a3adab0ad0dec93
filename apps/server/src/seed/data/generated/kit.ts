/* eslint-disable no-irregular-whitespace -- full-width spaces (U+3000) belong to Chinese exam layout, e.g. the answer slot （　　） */
import type { QuestionSeed, SubjectName } from '../types.js';

// Tools of the question generators: a seeded random source (the same bank on every start), number
// formatting for LaTeX, exact fractions, and choice questions with shuffled options.

/** mulberry32: small, fast and the same on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;

/** An integer in [lo, hi]. */
export const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
/** A non-zero integer in [lo, hi]. */
export function nonZero(rng: Rng, lo: number, hi: number): number {
  for (;;) {
    const n = int(rng, lo, hi);
    if (n !== 0) return n;
  }
}
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** LaTeX-friendly strings: backslashes are kept as written. */
export const r = String.raw;
/** Inline formula. */
export const m = (tex: string): string => `\\(${tex}\\)`;
/** A number inside an expression: negatives in brackets, e.g. (-3). */
export const p = (n: number): string => (n < 0 ? `(${fmt(n)})` : fmt(n));
/** A number as written: no trailing zeros, no -0. */
export function fmt(n: number): string {
  if (Object.is(n, -0) || n === 0) return '0';
  const rounded = Math.round(n * 1e6) / 1e6;
  return String(rounded);
}
/** A signed term after another term: "+ 3" or "- 3". */
export const signed = (n: number): string => (n < 0 ? `- ${fmt(-n)}` : `+ ${fmt(n)}`);

/**
 * A term of a polynomial in TeX: coefficient 1 and −1 written as the sign alone, 0 dropped; `first` leaves
 * out a leading plus sign. term(-1, 'x', true) = '-x', term(3, 'xy') = '+3xy', term(0, 'y') = ''.
 */
export function term(coef: number, variable: string, first = false): string {
  if (coef === 0) return '';
  const mag = Math.abs(coef) === 1 && variable !== '' ? '' : fmt(Math.abs(coef));
  return `${coef < 0 ? '-' : first ? '' : '+'}${mag}${variable}`;
}

/** A sum of terms with the leading plus dropped; '0' when all vanish. */
export function poly(terms: [number, string][]): string {
  let out = '';
  for (const [c, v] of terms) out += term(c, v, out === '');
  return out === '' ? '0' : out;
}

export const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));

/** An exact fraction, always reduced with a positive denominator. */
export class Frac {
  readonly n: number;
  readonly d: number;
  constructor(n: number, d = 1) {
    if (d === 0) throw new Error('zero denominator');
    const g = gcd(n, d) || 1;
    const s = d < 0 ? -1 : 1;
    this.n = (s * n) / g;
    this.d = (s * d) / g;
  }
  add(o: Frac) {
    return new Frac(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Frac) {
    return new Frac(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Frac) {
    return new Frac(this.n * o.n, this.d * o.d);
  }
  div(o: Frac) {
    return new Frac(this.n * o.d, this.d * o.n);
  }
  neg() {
    return new Frac(-this.n, this.d);
  }
  get isInt() {
    return this.d === 1;
  }
  value() {
    return this.n / this.d;
  }
  /** TeX: -\frac{3}{4}, 5, -2. */
  tex(): string {
    if (this.d === 1) return fmt(this.n);
    const body = r`\frac{${Math.abs(this.n)}}{${this.d}}`;
    return this.n < 0 ? `-${body}` : body;
  }
  /** TeX for use inside an expression: negatives in brackets. */
  texP(): string {
    return this.n < 0 ? r`\left(${this.tex()}\right)` : this.tex();
  }
  equals(o: Frac) {
    return this.n === o.n && this.d === o.d;
  }
}

const LETTERS = 'ABCD';

/**
 * Four options in a seeded order: the correct one and the first three distinct distractors.
 * Throws when fewer than three distinct distractors are given (a generator bug, caught by the data test).
 */
export function choice(
  rng: Rng,
  correct: string,
  distractors: string[],
): { options: string[]; answer: string } {
  const wrong = [...new Set(distractors.filter((d) => d !== correct))].slice(0, 3);
  if (wrong.length < 3) throw new Error(`not enough distractors for ${correct}: ${distractors.join(' | ')}`);
  const options = shuffle(rng, [correct, ...wrong]);
  return { options, answer: LETTERS[options.indexOf(correct)]! };
}

/** The answer slot of a choice stem. */
export const SLOT = '（　　）';
/** One blank of a 填空题. */
export const BLANK = '＿＿＿＿';

const SOURCES = [
  '原创',
  '{y}年秋季单元练习（自编）',
  '{y}年期中练习（自编）',
  '{y}年期末复习（自编）',
  '{y}年春季单元练习（自编）',
];

/** A year in 2021–2026 and a source naming it. */
export function yearAndSource(rng: Rng): { year: number; source: string } {
  const year = int(rng, 2021, 2026);
  return { year, source: pick(rng, SOURCES).replace('{y}', String(year)) };
}

export type Draft = Omit<QuestionSeed, 'key' | 'subject' | 'textbookKey' | 'year' | 'source'>;

/**
 * Runs a generator `count` times with its own seed and keys its questions
 * `q-g-${sectionKey}-${name}-NN`; names keep keys stable when other generators change.
 */
export function generate(
  subject: SubjectName,
  textbookKey: string,
  name: string,
  count: number,
  make: (rng: Rng, index: number) => Draft,
): QuestionSeed[] {
  let seed = 0;
  for (const ch of `${textbookKey}/${name}`) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  const rng = seededRandom(seed);
  const out: QuestionSeed[] = [];
  const seen = new Set<string>();
  for (let i = 0, tries = 0; out.length < count && tries < count * 20; tries++) {
    const draft = make(rng, i);
    // The same numbers twice would be the same question: draw again.
    if (seen.has(draft.stem)) continue;
    seen.add(draft.stem);
    i++;
    out.push({
      key: `q-g-${draft.sectionKey}-${name}-${String(out.length + 1).padStart(2, '0')}`,
      subject,
      textbookKey,
      ...yearAndSource(rng),
      ...draft,
    });
  }
  return out;
}
