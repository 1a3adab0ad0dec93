// Smart composition (intellectTestPaper): picks questions for a paper. Pure code, no database: the
// service loads the candidates and turns the result into a paper and Chinese explanations.
//
// Difficulty: the product's one convention (ADR 0045, @zhzy/contracts' difficulty module), the 难度系数 — a
// predicted score rate, 0–1, higher is easier. A paper's coefficient is levelCoefficient of the score-weighted
// mean of its questions' levels (1 容易 … 5 困难); the coefficient is affine in the level, so the search below
// runs on weighted level sums.
//
// Method:
//  1. Per type, the pool is the candidates not in `avoid`; when that is too small, just enough avoided
//     questions are added (and reported). A pool still smaller than the count gives all it has.
//  2. Which difficulty can be reached depends only on how many questions of each level each type takes.
//     An exact dynamic programme over those level counts (per type, then across types on the weighted
//     level sum) finds the reachable paper difficulty closest to the target — so when any selection lands
//     within the tolerance, the optimiser finds one.
//  3. Questions are then picked greedily, level by level, for the largest gain in knowledge-point coverage,
//     and improved by swaps within a type that raise coverage while the difficulty stays within the
//     tolerance (or, when the target is out of reach, no further from it).
// Every order comes from the candidates sorted by id and a seeded shuffle, so a seed always gives the same paper.

import { levelCoefficient } from '@zhzy/contracts';

export const DIFFICULTY_TOLERANCE = 0.05;
/** Per type and level, at most this many candidates are considered (keeps a 100 000-question bank fast). */
export const MAX_CANDIDATES_PER_LEVEL = 400;
/** Largest weighted level sum the exact programme runs on (see optimise). */
const MAX_DP_SPAN = 200_000;

export interface Candidate {
  id: string;
  typeId: string;
  /** 1 容易 … 5 困难. */
  level: number;
  knowledgePointIds: readonly string[];
  /** Questions of one family (one template with other numbers) never share a paper; default: the id. */
  family?: string;
}

export interface TypeRequest {
  typeId: string;
  count: number;
  /** Score per question in tenths of a point (the weight in the paper's difficulty). */
  scoreTenths: number;
}

export interface OptimiserInput {
  candidates: readonly Candidate[];
  types: readonly TypeRequest[];
  /** Target 难度系数 (0–1, higher is easier). */
  target: number;
  tolerance?: number;
  /** Questions to keep out when possible (e.g. those of the classes' most recent homework). */
  avoid?: ReadonlySet<string>;
  /** Knowledge points whose coverage counts; undefined: every knowledge point of the candidates. */
  universe?: ReadonlySet<string>;
  seed: number;
}

export interface TypePick {
  typeId: string;
  requested: number;
  /** Candidates of this type that were available (after the avoid set, before it when that was too small). */
  available: number;
  /** How many of the picks are in the avoid set. */
  avoidedUsed: number;
  ids: string[];
}

export interface OptimiserResult {
  picks: TypePick[];
  /** 难度系数 of the picks (score-weighted); null when nothing was picked. */
  difficulty: number | null;
  withinTolerance: boolean;
  /** Whether any selection with the available counts lands within the tolerance. */
  feasible: boolean;
  /** Knowledge points of the universe covered by the picks. */
  covered: string[];
}

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Keeps one question of each family (the first in the seeded order, a fresh one before an avoided one), so two
 * questions of the same template never land in one paper.
 */
function onePerFamily(order: Candidate[], avoid: ReadonlySet<string>): Candidate[] {
  const chosen = new Map<string, Candidate>();
  for (const fresh of [true, false])
    for (const c of order) {
      const family = c.family ?? c.id;
      if (avoid.has(c.id) !== fresh && !chosen.has(family)) chosen.set(family, c);
    }
  const keep = new Set(chosen.values());
  return order.filter((c) => keep.has(c));
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}

const LEVELS = [1, 2, 3, 4, 5] as const;

/**
 * Every level sum reachable by taking `count` questions when `available[l]` questions of level l exist,
 * each with one witness: how many of each level to take.
 */
export function reachableLevelSums(available: readonly number[], count: number): Map<number, number[]> {
  // state: picked → sum → counts per level
  let states = new Map<number, Map<number, number[]>>([
    [0, new Map<number, number[]>([[0, [0, 0, 0, 0, 0]]])],
  ]);
  LEVELS.forEach((level, li) => {
    const next = new Map<number, Map<number, number[]>>();
    const have = available[li] ?? 0;
    for (const [picked, sums] of states) {
      for (const [sum, counts] of sums) {
        for (let k = 0; k <= have && picked + k <= count; k++) {
          const p = picked + k;
          const s = sum + k * level;
          let bySum = next.get(p);
          if (!bySum) next.set(p, (bySum = new Map<number, number[]>()));
          if (!bySum.has(s)) {
            const c = [...counts];
            c[li] = k;
            bySum.set(s, c);
          }
        }
      }
    }
    states = next;
  });
  return states.get(count) ?? new Map<number, number[]>();
}

interface TypePool {
  request: TypeRequest;
  count: number;
  pool: Candidate[];
  available: number;
  avoided: Set<string>;
}

/** Picks questions for a paper; see the comment at the top of this file. */
export function optimise(input: OptimiserInput): OptimiserResult {
  const tolerance = input.tolerance ?? DIFFICULTY_TOLERANCE;
  const pools = typePools(input);
  const weighting = weightsOf(pools);
  if (weighting.totalWeight === 0) return emptyResult(pools);
  // 难度系数 of a weighted level sum W: the coefficient of the mean level W / totalWeight.
  const difficultyOf = (w: number) => levelCoefficient(w / weighting.totalWeight);
  const { levelTargets, feasible } = levelTargetsFor(pools, weighting, input.target, tolerance);

  const coverage = new Coverage(input.universe);
  const selected = greedyPicks(pools, levelTargets, coverage);
  let weighted = selected.reduce(
    (s, list, i) => s + list.reduce((a, c) => a + c.level, 0) * weighting.weights[i]!,
    0,
  );
  // Swaps within a type: more coverage, difficulty kept within the tolerance (or no further from the target).
  const acceptable = (nextW: number, currentW: number) => {
    const gap = Math.abs(difficultyOf(nextW) - input.target);
    return feasible
      ? gap <= tolerance + 1e-9
      : gap <= Math.abs(difficultyOf(currentW) - input.target) + 1e-12;
  };
  weighted = swapForCoverage(pools, selected, weighting.weights, coverage, weighted, acceptable);

  const difficulty = difficultyOf(weighted);
  return {
    picks: pools.map((p, i) => ({
      typeId: p.request.typeId,
      requested: p.request.count,
      available: p.available,
      avoidedUsed: selected[i]!.filter((c) => p.avoided.has(c.id)).length,
      ids: selected[i]!.map((c) => c.id),
    })),
    difficulty,
    withinTolerance: Math.abs(difficulty - input.target) <= tolerance + 1e-9,
    feasible,
    covered: coverage.covered(),
  };
}

/** Each requested type's pool in the seeded order: fresh questions first, avoided ones only to make up the count. */
function typePools(input: OptimiserInput): TypePool[] {
  const avoid = input.avoid ?? new Set<string>();
  const random = prng(input.seed);
  // Sorted by id first, so the result depends on the set of candidates and the seed only.
  const unique = new Map<string, Candidate>();
  for (const c of [...input.candidates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (!unique.has(c.id) && c.level >= 1 && c.level <= 5) unique.set(c.id, c);
  }
  const order = onePerFamily(shuffled([...unique.values()], random), avoid);
  return input.types.map((request) => {
    const ofType = order.filter((c) => c.typeId === request.typeId);
    const fresh = ofType.filter((c) => !avoid.has(c.id));
    const stale = ofType.filter((c) => avoid.has(c.id));
    let pool = capPerLevel(fresh);
    const avoided = new Set<string>();
    if (pool.length < request.count) {
      for (const c of stale.slice(0, request.count - pool.length)) {
        pool = [...pool, c];
        avoided.add(c.id);
      }
    }
    return { request, count: Math.min(request.count, pool.length), pool, available: fresh.length, avoided };
  });
}

interface Weighting {
  /** Score per question of each type, reduced by their common divisor; equal weights when every score is 0. */
  weights: number[];
  totalWeight: number;
  /** The weights the programme runs on, and their total (see below). */
  dpWeights: number[];
  dpTotal: number;
}

function weightsOf(pools: TypePool[]): Weighting {
  const rawWeights = pools.map((p) => Math.max(0, Math.round(p.request.scoreTenths)));
  const allZero = rawWeights.every((w) => w === 0);
  const divisor = allZero ? 1 : rawWeights.reduce((g, w) => (w ? gcd(g, w) : g), 0) || 1;
  const weights = rawWeights.map((w) => (allZero ? 1 : w / divisor));
  const totalWeight = pools.reduce((s, p, i) => s + p.count * weights[i]!, 0);
  // The programme's size grows with the weighted sums; past MAX_DP_SPAN (odd scores on many large types)
  // it runs on proportionally rounded weights, which can cost a little precision, never correctness of counts.
  const span = pools.reduce((s, p, i) => s + 5 * p.count * weights[i]!, 0);
  const dpWeights =
    span > MAX_DP_SPAN ? weights.map((x) => Math.max(1, Math.round((x * MAX_DP_SPAN) / span))) : weights;
  const dpTotal = pools.reduce((s, p, i) => s + p.count * dpWeights[i]!, 0);
  return { weights, totalWeight, dpWeights, dpTotal };
}

/** No question can be weighed (no pool has any): nothing picked, nothing feasible. */
function emptyResult(pools: TypePool[]): OptimiserResult {
  return {
    picks: pools.map((p) => ({
      typeId: p.request.typeId,
      requested: p.request.count,
      available: p.available,
      avoidedUsed: 0,
      ids: [],
    })),
    difficulty: null,
    withinTolerance: false,
    feasible: false,
    covered: [],
  };
}

/**
 * How many questions of each level every type takes: per type the reachable level sums (with a witness vector),
 * across types the reachable weighted sums; the sum closest to the target wins, then the walk back.
 */
function levelTargetsFor(
  pools: TypePool[],
  { dpWeights, dpTotal }: Weighting,
  target: number,
  tolerance: number,
): { levelTargets: number[][]; feasible: boolean } {
  const perType = pools.map((p) => {
    const counts = LEVELS.map((l) => p.pool.filter((c) => c.level === l).length);
    return reachableLevelSums(counts, p.count);
  });
  const trail: Map<number, { prev: number; levelSum: number }>[] = [];
  let reachable = new Set<number>([0]);
  perType.forEach((sums, i) => {
    const steps = new Map<number, { prev: number; levelSum: number }>();
    for (const w of reachable) {
      for (const levelSum of sums.keys()) {
        const next = w + levelSum * dpWeights[i]!;
        if (!steps.has(next)) steps.set(next, { prev: w, levelSum });
      }
    }
    trail.push(steps);
    reachable = new Set(steps.keys());
  });
  let bestW = 0;
  let bestGap = Infinity;
  for (const w of [...reachable].sort((a, b) => a - b)) {
    const gap = Math.abs(levelCoefficient(w / dpTotal) - target);
    if (gap < bestGap - 1e-12) {
      bestGap = gap;
      bestW = w;
    }
  }
  const levelTargets: number[][] = new Array<number[]>(pools.length);
  let w = bestW;
  for (let i = pools.length - 1; i >= 0; i--) {
    const step = trail[i]!.get(w)!;
    levelTargets[i] = perType[i]!.get(step.levelSum)!;
    w = step.prev;
  }
  return { levelTargets, feasible: bestGap <= tolerance + 1e-9 };
}

/** Knowledge points covered by the picked questions (within the universe, when one is given), with counts. */
class Coverage {
  private readonly counts = new Map<string, number>();
  /** Knowledge points covered at least once. */
  now = 0;
  readonly chosen = new Set<string>();

  constructor(private readonly universe: ReadonlySet<string> | undefined) {}

  private inUniverse(kp: string): boolean {
    return !this.universe || this.universe.has(kp);
  }

  /** Knowledge points a candidate would newly cover. */
  gain(c: Candidate): number {
    return c.knowledgePointIds.filter((k) => this.inUniverse(k) && !this.counts.get(k)).length;
  }

  take(c: Candidate): void {
    for (const k of new Set(c.knowledgePointIds)) {
      if (!this.inUniverse(k)) continue;
      const n = this.counts.get(k) ?? 0;
      if (n === 0) this.now += 1;
      this.counts.set(k, n + 1);
    }
  }

  drop(c: Candidate): void {
    for (const k of new Set(c.knowledgePointIds)) {
      if (!this.inUniverse(k)) continue;
      const n = this.counts.get(k) ?? 0;
      if (n === 1) this.now -= 1;
      this.counts.set(k, n - 1);
    }
  }

  covered(): string[] {
    return [...this.counts.entries()]
      .filter(([, n]) => n > 0)
      .map(([k]) => k)
      .sort();
  }
}

/** Greedy construction for coverage, level by level: the candidate that covers most new points fills its slot. */
function greedyPicks(pools: TypePool[], levelTargets: number[][], coverage: Coverage): Candidate[][] {
  const selected: Candidate[][] = pools.map(() => []);
  const slots: { type: number; level: number; left: number }[] = [];
  pools.forEach((_, i) =>
    LEVELS.forEach((level, li) => {
      const left = levelTargets[i]![li]!;
      if (left > 0) slots.push({ type: i, level, left });
    }),
  );
  for (;;) {
    let best: { slot: (typeof slots)[number]; c: Candidate; gain: number } | undefined;
    for (const slot of slots) {
      if (slot.left === 0) continue;
      for (const c of pools[slot.type]!.pool) {
        if (c.level !== slot.level || coverage.chosen.has(c.id)) continue;
        const gain = coverage.gain(c);
        if (!best || gain > best.gain) best = { slot, c, gain };
        // First of equal gain wins: the seeded order decides.
      }
    }
    if (!best) break;
    best.slot.left -= 1;
    coverage.chosen.add(best.c.id);
    selected[best.slot.type]!.push(best.c);
    coverage.take(best.c);
  }
  return selected;
}

/** Swaps within a type while one covers more; answers the weighted level sum after them. */
function swapForCoverage(
  pools: TypePool[],
  selected: Candidate[][],
  weights: number[],
  coverage: Coverage,
  startWeighted: number,
  /** Whether a swap to the weighted sum nextW is allowed from the current one. */
  acceptable: (nextW: number, currentW: number) => boolean,
): number {
  let weighted = startWeighted;
  for (let pass = 0, improved = true; improved && pass < 20; pass++) {
    improved = false;
    pools.forEach((p, i) => {
      const list = selected[i]!;
      for (let s = 0; s < list.length; s++) {
        const out = list[s]!;
        for (const c of p.pool) {
          if (coverage.chosen.has(c.id)) continue;
          const nextW = weighted + (c.level - out.level) * weights[i]!;
          if (!acceptable(nextW, weighted)) continue;
          const before = coverage.now;
          coverage.drop(out);
          coverage.take(c);
          if (coverage.now > before) {
            list[s] = c;
            coverage.chosen.delete(out.id);
            coverage.chosen.add(c.id);
            weighted = nextW;
            improved = true;
            break;
          }
          coverage.drop(c);
          coverage.take(out);
        }
      }
    });
  }
  return weighted;
}

/** Keeps at most MAX_CANDIDATES_PER_LEVEL of each level, in the given (seeded) order. */
function capPerLevel(candidates: Candidate[]): Candidate[] {
  const seen = new Map<number, number>();
  return candidates.filter((c) => {
    const n = seen.get(c.level) ?? 0;
    seen.set(c.level, n + 1);
    return n < MAX_CANDIDATES_PER_LEVEL;
  });
}
