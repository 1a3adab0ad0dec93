import { METRICS_TEXT } from '../../i18n/analysis-report.js';

// The answers of objective questions, as pure functions (part of the formulas of metrics.ts, which re-exports them):
// the options of a response, a normalised answer key, and how often each option or wrong response was given.

/** Options of an objective response: 'AC' → ['A', 'C']; the letters of a true/false answer ('T', 'F'). */
export function optionsOf(response: string | null | undefined): string[] {
  if (!response) return [];
  const known = optionsMemo.get(response);
  if (known) return known;
  const out = [
    ...new Set(
      response
        .toUpperCase()
        .replace(/[^A-Z]/g, '')
        .split(''),
    ),
  ].sort();
  if (optionsMemo.size < MEMO_LIMIT) optionsMemo.set(response, out);
  return out;
}

// Responses repeat endlessly ('A', 'B', 'AC' …): parsing each distinct one once keeps a 60,000-answer test fast.
const MEMO_LIMIT = 10_000;
const optionsMemo = new Map<string, string[]>();
const choiceMemo = new Map<string, string>();

/** Normalises an objective answer key or response for comparison ('ca' → 'AC'; '对' → 'T'; '错' → 'F'). */
export function normaliseChoice(value: string | null | undefined): string {
  if (!value) return '';
  const known = choiceMemo.get(value);
  if (known !== undefined) return known;
  const v = value.trim();
  let out: string;
  if (METRICS_TEXT.trueAnswer.test(v)) out = 'T';
  else if (METRICS_TEXT.falseAnswer.test(v)) out = 'F';
  else out = optionsOf(v).join('');
  if (choiceMemo.size < MEMO_LIMIT) choiceMemo.set(value, out);
  return out;
}

export interface OptionCount {
  option: string;
  count: number;
  rate: number;
  correct: boolean;
}

/**
 * How often each option was chosen: an answer 'AC' counts once for A and once for C; rate = count ÷ answers
 * (blank answers included in the divisor, so the rates of a single-choice question add up to 1 − blank rate).
 */
export function optionDistribution(
  responses: readonly (string | null)[],
  key: string,
  options: readonly string[],
): OptionCount[] {
  return optionDistributionOf(tally(responses), responses.length, key, options);
}

/** How many times each distinct response occurs. */
export function tally(responses: readonly (string | null)[]): Map<string | null, number> {
  const out = new Map<string | null, number>();
  for (const r of responses) out.set(r, (out.get(r) ?? 0) + 1);
  return out;
}

/** `optionDistribution` of `total` responses given as a tally (each distinct response once, with its count). */
export function optionDistributionOf(
  responses: ReadonlyMap<string | null, number>,
  total: number,
  key: string,
  options: readonly string[],
): OptionCount[] {
  const counts = new Map<string, number>(options.map((o) => [o, 0]));
  for (const [r, n] of responses) for (const o of optionsOf(r)) counts.set(o, (counts.get(o) ?? 0) + n);
  const correct = new Set(optionsOf(key));
  return [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([option, count]) => ({
      option,
      count,
      rate: total ? count / total : 0,
      correct: correct.has(option),
    }));
}

/**
 * Wrong responses by frequency (most frequent first, then alphabetically): every response that differs from the key
 * after normalising, with blank answers as ''. rate = count ÷ answers.
 */
export function wrongResponses(
  responses: readonly (string | null)[],
  key: string,
): { response: string; count: number; rate: number }[] {
  return wrongResponsesOf(tally(responses), responses.length, key);
}

/** `wrongResponses` of `total` responses given as a tally. */
export function wrongResponsesOf(
  responses: ReadonlyMap<string | null, number>,
  total: number,
  key: string,
): { response: string; count: number; rate: number }[] {
  const k = normaliseChoice(key);
  const counts = new Map<string, number>();
  for (const [r, n] of responses) {
    const v = normaliseChoice(r);
    if (v === k) continue;
    counts.set(v, (counts.get(v) ?? 0) + n);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([response, count]) => ({ response, count, rate: total ? count / total : 0 }));
}
