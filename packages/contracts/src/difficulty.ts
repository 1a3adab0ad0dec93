/**
 * One convention for 难度 across the product (ADR 0045): the 难度系数 is the score rate (得分率) — mean score ÷ full
 * score, 0–1, higher is easier. A bank question's five levels (1 容易 … 5 困难) predict it; a marked homework
 * measures it. Composition, smart composition (server optimiser) and analysis all read and label it here.
 */

import type { DifficultyBand } from './calls/analysis.js';
import { DIFFICULTY_LEVELS } from './calls/catalog.js';

export type DifficultyLevelName = (typeof DIFFICULTY_LEVELS)[number];

/** The label shown wherever the figure appears. */
export const DIFFICULTY_COEFFICIENT_LABEL = '难度系数';
/** What the figure means, for a hint beside it. */
export const DIFFICULTY_COEFFICIENT_HINT = '难度系数 = 得分率（平均分 ÷ 满分），0–1，越高越容易';

/**
 * The 难度系数 a level predicts, for a level 1–5 or a (score-weighted) mean of levels: 容易 1.00, 较易 0.75,
 * 适中 0.50, 较难 0.25, 困难 0.00. Affine in the level, so a paper's predicted coefficient is the coefficient of its
 * mean level (the optimiser searches level sums).
 */
export function levelCoefficient(level: number): number {
  return 1 - (level - 1) / 4;
}

/** The level a coefficient reads as (nearest of the five), for a predicted or a measured score rate. */
export function coefficientLevel(coefficient: number): number {
  const c = Math.min(1, Math.max(0, coefficient));
  return Math.round((1 - c) * 4) + 1;
}

/** The level name of a coefficient: 0.82 → 较易… (容易 ≥ 0.875, 困难 < 0.125). */
export function coefficientLevelName(coefficient: number): DifficultyLevelName {
  return DIFFICULTY_LEVELS[coefficientLevel(coefficient) - 1]!;
}

/** A score-weighted paper's predicted 难度系数 from its questions' levels; null when nothing weighs. */
export function paperCoefficient(items: readonly { level: number; weight: number }[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const i of items) {
    if (!(i.weight > 0)) continue;
    weight += i.weight;
    sum += i.weight * i.level;
  }
  return weight > 0 ? levelCoefficient(sum / weight) : null;
}

/**
 * A composed paper's predicted 难度系数 as the composition screen shows it: each question weighs its score, a question
 * still at 0 points weighs 1 (so a fresh draft has a figure). The server optimiser weighs differently — by score,
 * all equal only when every score is 0 — see ADR 0051.
 */
export function draftCoefficient(items: readonly { level: number; score: number }[]): number | null {
  return paperCoefficient(items.map((i) => ({ level: i.level, weight: i.score || 1 })));
}

/** 难度系数 with its label and level: 「难度系数 0.68（较易）」. */
export function formatCoefficient(coefficient: number): string {
  return `${DIFFICULTY_COEFFICIENT_LABEL} ${coefficient.toFixed(2)}（${coefficientLevelName(coefficient)}）`;
}

/** 难度 band of a measured 难度系数 (score rate P): P ≥ 0.7 容易, 0.4 ≤ P < 0.7 适中, P < 0.4 较难. */
export function difficultyBand(scoreRate: number): DifficultyBand {
  if (scoreRate >= 0.7) return 'easy';
  if (scoreRate >= 0.4) return 'medium';
  return 'hard';
}
