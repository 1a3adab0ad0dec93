import type { DiscriminationBand, MarkerIndicator, MasteryLevel } from '@zhzy/contracts';
import { METRICS_TEXT } from '../../i18n/analysis-report.js';

// The formulas of learning analysis, as pure functions over plain numbers (points, not tenths). Every function says
// which formula it uses; metrics.test.ts checks each against values computed by hand. Nothing here touches the
// database or the wire format.

/** Arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum / values.length;
}

/** Median: the middle value, or the mean of the two middle values for an even count; 0 for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort(); // numeric order, natively (no comparator calls)
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Population variance σ² = Σ(x − μ)² ÷ n. Analysis describes the whole group that sat the paper, not a sample, so
 * the divisor is n (as Chinese score-analysis systems and Excel's STDEV.P do), not n − 1.
 */
export function variance(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += (values[i]! - m) * (values[i]! - m);
  return sum / values.length;
}

/** Population standard deviation σ = √(Σ(x − μ)² ÷ n). */
export function standardDeviation(values: readonly number[]): number {
  return Math.sqrt(variance(values));
}

/** Thresholds as rates of full marks. */
export interface Thresholds {
  passRate: number;
  goodRate: number;
  excellentRate: number;
}

/**
 * A total reaches a line when total ≥ rate × full, compared in tenths of a point so 0.6 × 85 = 51 is reached by 51
 * despite floating-point error.
 */
export function reaches(total: number, full: number, rate: number): boolean {
  return Math.round(total * 10) >= Math.round(rate * full * 10 - 1e-6);
}

export interface Describe {
  count: number;
  average: number;
  max: number;
  min: number;
  median: number;
  standardDeviation: number;
  /** average ÷ full (0 when full is 0). */
  scoreRate: number;
  passCount: number;
  goodCount: number;
  excellentCount: number;
  failCount: number;
  /** Counts ÷ count (0 for no values). */
  passRate: number;
  goodRate: number;
  excellentRate: number;
}

/** Descriptive statistics of totals against full marks and the pass / good / excellent lines. */
export function describe(totals: readonly number[], full: number, t: Thresholds): Describe {
  const count = totals.length;
  let max = count ? -Infinity : 0;
  let min = count ? Infinity : 0;
  let pass = 0;
  let good = 0;
  let excellent = 0;
  for (const v of totals) {
    if (v > max) max = v;
    if (v < min) min = v;
    if (reaches(v, full, t.passRate)) pass += 1;
    if (reaches(v, full, t.goodRate)) good += 1;
    if (reaches(v, full, t.excellentRate)) excellent += 1;
  }
  const average = mean(totals);
  const share = (n: number) => (count ? n / count : 0);
  return {
    count,
    average,
    max,
    min,
    median: median(totals),
    standardDeviation: standardDeviation(totals),
    scoreRate: full > 0 ? average / full : 0,
    passCount: pass,
    goodCount: good,
    excellentCount: excellent,
    failCount: count - pass,
    passRate: share(pass),
    goodRate: share(good),
    excellentRate: share(excellent),
  };
}

export interface Band {
  label: string;
  from: number;
  to: number;
  count: number;
  rate: number;
}

const pct = (r: number) => `${Math.round(r * 100)}%`;

/**
 * Score bands of width `step` × full, from the top: [90 %, 100 %], [80 %, 90 %), … A total falls in the band whose
 * lower bound it reaches; full marks fall in the top band. Highest band first.
 */
export function scoreBands(totals: readonly number[], full: number, step: number): Band[] {
  const n = Math.max(1, Math.round(1 / step));
  const counts = new Array<number>(n).fill(0);
  for (const v of totals) {
    let i = full > 0 ? Math.floor(Math.round((v / full) * 1e6) / Math.round(step * 1e6)) : n - 1;
    if (i >= n) i = n - 1;
    if (i < 0) i = 0;
    counts[i]! += 1;
  }
  const bands: Band[] = [];
  for (let i = n - 1; i >= 0; i -= 1) {
    const lo = i * step;
    const hi = i === n - 1 ? 1 : (i + 1) * step;
    bands.push({
      label: `${pct(lo)}–${pct(hi)}`,
      from: round2(lo * full),
      to: round2(hi * full),
      count: counts[i]!,
      rate: totals.length ? counts[i]! / totals.length : 0,
    });
  }
  return bands;
}

/**
 * Competition ranks ("1224"): higher values rank first, equal values share the rank, the next rank skips.
 * Returns the rank of each value in input order.
 */
export function ranks(values: readonly number[]): number[] {
  // The rank of a value is 1 + how many values are higher: read off the values sorted (natively, highest last).
  const sorted = Float64Array.from(values).sort();
  const rankOf = new Map<number, number>();
  for (let k = sorted.length - 1; k >= 0; k -= 1)
    if (!rankOf.has(sorted[k]!)) rankOf.set(sorted[k]!, sorted.length - k);
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = rankOf.get(values[i]!)!;
  return out;
}

/** Z = (x − μ) ÷ σ (population σ); 0 when σ is 0 (everybody equal). */
export function zScore(x: number, mu: number, sigma: number): number {
  return sigma > 0 ? (x - mu) / sigma : 0;
}

/** T = 50 + 10 × Z. */
export function tScore(z: number): number {
  return 50 + 10 * z;
}

/** 超均率 = (class mean − grade mean) ÷ grade mean; 0 when the grade mean is 0. */
export function overAverageRate(classMean: number, gradeMean: number): number {
  return gradeMean !== 0 ? (classMean - gradeMean) / gradeMean : 0;
}

/** 难度 band of a score rate (the shared 难度系数 convention, ADR 0045). */
export { difficultyBand } from '@zhzy/contracts';

/**
 * 区分度 D = P(upper) − P(lower): the score rate of the question among the top 27 % of students by total minus its
 * rate among the bottom 27 % (Kelley's groups; each group has round(0.27 n) students, at least 1). Students with
 * equal totals at a group border are ordered by their input order. Null for fewer than 4 students or full 0.
 *
 * @param pairs per student: [total, score on the question]
 */
export function discrimination(pairs: readonly (readonly [number, number])[], full: number): number | null {
  const sorted = [...pairs].sort((a, b) => b[0] - a[0]);
  return discriminationOfRanked(
    sorted.map((p) => p[1]),
    full,
  );
}

/**
 * 区分度 from the question's scores already in the order `discrimination` sorts them (totals highest first, ties in
 * input order): a grade's students are sorted by total once and every question reads its scores in that order.
 */
export function discriminationOfRanked(scores: ArrayLike<number>, full: number): number | null {
  const n = scores.length;
  if (n < 4 || full <= 0) return null;
  const g = kelleyGroup(n);
  let upper = 0;
  let lower = 0;
  for (let i = 0; i < g; i += 1) {
    upper += scores[i]!;
    lower += scores[n - 1 - i]!;
  }
  return discriminationOfGroups(upper, lower, g, full);
}

/** Students in each of Kelley's groups among n: round(0.27 n), at least 1. */
export const kelleyGroup = (n: number): number => Math.max(1, Math.round(0.27 * n));

/**
 * 区分度 from the sums of the upper and lower groups' scores (g students each; the upper group's added from the top
 * student down, the lower group's from the bottom student up, as `discriminationOfRanked` adds them).
 */
export const discriminationOfGroups = (upper: number, lower: number, g: number, full: number): number =>
  (upper - lower) / (g * full);

/** 区分度 bands (Ebel): D ≥ 0.4 优秀, 0.3 ≤ D < 0.4 良好, 0.2 ≤ D < 0.3 尚可, D < 0.2 较差. */
export function discriminationBand(d: number): DiscriminationBand {
  if (d >= 0.4) return 'excellent';
  if (d >= 0.3) return 'good';
  if (d >= 0.2) return 'fair';
  return 'poor';
}

/**
 * Cronbach's α = k ÷ (k − 1) × (1 − Σ σ²ᵢ ÷ σ²ₜ), with k items, σ²ᵢ the variance of item i's scores and σ²ₜ the
 * variance of the totals (population variances throughout; the n or n − 1 divisor cancels in the ratio). Null for
 * fewer than 2 students or 2 items, or when the totals do not vary.
 *
 * @param matrix one row per student, one column per item (points)
 */
export function cronbachAlpha(matrix: readonly (readonly number[])[]): number | null {
  const n = matrix.length;
  const k = n ? matrix[0]!.length : 0;
  return cronbachAlphaOf(matrix.flat(), n, k);
}

/** Cronbach's α of a matrix given row by row in one array (`values[i × k + j]`: student i, item j). */
export function cronbachAlphaOf(values: ArrayLike<number>, n: number, k: number): number | null {
  if (n < 2 || k < 2) return null;
  const totals = new Array<number>(n);
  for (let i = 0; i < n; i += 1) {
    let sum = 0;
    for (let j = 0; j < k; j += 1) sum += values[i * k + j]!;
    totals[i] = sum;
  }
  const totalVar = variance(totals);
  if (totalVar === 0) return null;
  let itemVars = 0;
  for (let j = 0; j < k; j += 1) {
    // variance() of column j, read in place: the same sums in the same order.
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += values[i * k + j]!;
    const m = sum / n;
    let squares = 0;
    for (let i = 0; i < n; i += 1) squares += (values[i * k + j]! - m) * (values[i * k + j]! - m);
    itemVars += squares / n;
  }
  return (k / (k - 1)) * (1 - itemVars / totalVar);
}

/** The answers of objective questions (responses.ts). */
export {
  optionsOf,
  normaliseChoice,
  optionDistribution,
  tally,
  optionDistributionOf,
  wrongResponses,
  wrongResponsesOf,
  type OptionCount,
} from './responses.js';

/** Knowledge-point mastery from a score rate: ≥ 0.85 掌握, ≥ 0.6 基本掌握, below 薄弱. */
export function masteryLevel(scoreRate: number): MasteryLevel {
  if (scoreRate >= 0.85) return 'mastered';
  if (scoreRate >= 0.6) return 'partial';
  return 'weak';
}

export interface CriticalHit {
  /** Index of the student in the input. */
  index: number;
  line: string;
  lineValue: number;
  gap: number;
}

const LINE_NAMES = METRICS_TEXT.scoreLines;

/**
 * 临界生 by score: a student is critical for a line (pass, good, excellent = rate × full) when |total − line| ≤
 * band × full; when near several lines, the nearest one counts. gap = total − line (negative: below).
 */
export function criticalByScore(
  totals: readonly number[],
  full: number,
  t: Thresholds,
  band: number,
): CriticalHit[] {
  const lines = [t.passRate, t.goodRate, t.excellentRate].map((r) => r * full);
  const width = band * full + 1e-9;
  const out: CriticalHit[] = [];
  for (let index = 0; index < totals.length; index += 1) {
    const total = totals[index]!;
    let best: CriticalHit | null = null;
    for (let i = 0; i < lines.length; i += 1) {
      const gap = total - lines[i]!;
      if (Math.abs(gap) <= width && (!best || Math.abs(gap) < Math.abs(best.gap)))
        best = { index, line: LINE_NAMES[i]!, lineValue: round2(lines[i]!), gap: round2(gap) };
    }
    if (best) out.push(best);
  }
  return out;
}

/**
 * 临界生 by rank: critical for a rank line L when |rank − L| ≤ band (nearest line wins). gap = L − rank (negative:
 * behind the line).
 */
export function criticalByRank(
  rankList: readonly number[],
  lines: readonly number[],
  band: number,
): CriticalHit[] {
  const out: CriticalHit[] = [];
  rankList.forEach((rank, index) => {
    let best: CriticalHit | null = null;
    for (const line of lines) {
      const gap = line - rank;
      if (Math.abs(gap) <= band && (!best || Math.abs(gap) < Math.abs(best.gap)))
        best = { index, line: METRICS_TEXT.rankLine(line), lineValue: line, gap };
    }
    if (best) out.push(best);
  });
  return out;
}

export interface MarkerSample {
  /** Score rate of each answer the marker scored (score ÷ full). */
  rates: readonly number[];
  /** Mean score rate all markers gave on the questions of each of those answers (same order). */
  peerMeans: readonly number[];
  /** Standard deviation of all markers' rates on the same questions (weighted like the marker's answers). */
  peerSpread: number;
}

export interface MarkerVerdict {
  scoreRate: number;
  peerScoreRate: number;
  deviation: number;
  spreadRatio: number;
  middleShare: number;
  indicator: MarkerIndicator;
}

/** Fewest scored answers for a verdict. */
export const MARKER_MIN_SAMPLE = 10;

/**
 * Marking indicators of one marker, against everybody who marked the same questions:
 * - deviation = mean(rate given) − mean(peer mean of that question); ≥ +0.1 偏松 (lenient), ≤ −0.1 偏严 (strict);
 * - 趋中 (always-middle): the spread of the rates they give is under half the peers' (spreadRatio < 0.5) and at least
 *   60 % of their scores lie strictly between 30 % and 70 % of full marks;
 * - fewer than MARKER_MIN_SAMPLE answers: 样本不足. Lenient/strict are checked first.
 */
export function markerVerdict(s: MarkerSample): MarkerVerdict {
  const scoreRate = mean(s.rates);
  const peerScoreRate = mean(s.peerMeans);
  const deviation = scoreRate - peerScoreRate;
  const spread = standardDeviation(s.rates);
  const spreadRatio = s.peerSpread > 0 ? spread / s.peerSpread : spread > 0 ? 1 : 0;
  const middle = s.rates.filter((r) => r > 0.3 && r < 0.7).length;
  const middleShare = s.rates.length ? middle / s.rates.length : 0;
  let indicator: MarkerIndicator = 'normal';
  if (s.rates.length < MARKER_MIN_SAMPLE) indicator = 'insufficient';
  else if (deviation >= 0.1) indicator = 'lenient';
  else if (deviation <= -0.1) indicator = 'strict';
  else if (spreadRatio < 0.5 && middleShare >= 0.6) indicator = 'middle';
  return { scoreRate, peerScoreRate, deviation, spreadRatio, middleShare, indicator };
}

/** Rounds to 2 decimals (points on the wire). */
export function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Rounds to 4 decimals (rates on the wire: 0.8533 = 85.33 %). */
export function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}

/** Clamps a rate into 0–1 after rounding (floating error must not break the wire schema). */
export function rate(v: number): number {
  return Math.min(1, Math.max(0, round4(v)));
}
