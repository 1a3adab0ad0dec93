import {
  DIFFICULTY_BAND_NAMES,
  DISCRIMINATION_BAND_NAMES,
  MASTERY_LEVEL_NAMES,
  type KnowledgePointStats,
  type QuestionStats,
} from '@zhzy/contracts';
import {
  cronbachAlphaOf,
  difficultyBand,
  discriminationBand,
  discriminationOfGroups,
  kelleyGroup,
  masteryLevel,
  optionDistributionOf,
  rate,
  round2,
  wrongResponsesOf,
} from './metrics.js';
import type { HomeworkModel } from './model.js';
import { BLANK, type ModelQuestion, type Row } from './model-input.js';

// The per-question and per-knowledge-point views of a homework model (its 小题分析, 知识点 and α). Every sum below adds
// the same numbers in the same order as a sum over the rows' answers would (row order, from 0), so the figures are
// those of the plain formulas (metrics.ts) to the last bit.

/** The answer slots of a scope, indexed once for every question. */
interface ScopeIndex {
  /** Slot start of each row with a sheet (row order). */
  withSheet: Int32Array;
  /** 1 when that row is scored (ranked), else 0. */
  isRanked: Uint8Array;
  /** Slot starts of the scored rows by total, highest first (ties in row order): sorted once for every 区分度. */
  ranked: Int32Array;
  /** Slot starts and class index (−1: none of the homework's) of the grade's rows with a sheet. */
  gradeAt: Int32Array;
  gradeClass: Int32Array;
}

function scopeIndex(model: HomeworkModel, rows: readonly Row[]): ScopeIndex {
  const sheetRows = rows.filter((r) => r.at !== null);
  // The classes' averages are over the grade whatever the scope: every row with a sheet of the homework's classes.
  const classOf = new Map(model.classes.map((c, k) => [c.id, k]));
  const gradeRows = rows === model.rows ? sheetRows : model.rows.filter((r) => r.at !== null);
  return {
    withSheet: Int32Array.from(sheetRows, (r) => r.at!),
    isRanked: Uint8Array.from(sheetRows, (r) => (r.total === null ? 0 : 1)),
    ranked: Int32Array.from(
      rows.filter((r) => r.total !== null).sort((a, b) => b.total! - a.total!),
      (r) => r.at!,
    ),
    gradeAt: Int32Array.from(gradeRows, (r) => r.at!),
    gradeClass: Int32Array.from(gradeRows, (r) => classOf.get(r.student.classId) ?? -1),
  };
}

/** The scope's scored answers to one question, counted. */
interface QuestionTally {
  sum: number;
  answers: number;
  answeredRanked: number;
  full: number;
  zero: number;
  blank: number;
  /** Objective questions: how many scored answers gave each response. */
  scoredResponses: Map<string | null, number>;
}

function tally(model: HomeworkModel, ix: ScopeIndex, q: ModelQuestion, i: number): QuestionTally {
  const { points, flags, responses } = model;
  const t: QuestionTally = {
    sum: 0,
    answers: 0,
    answeredRanked: 0,
    full: 0,
    zero: 0,
    blank: 0,
    scoredResponses: new Map(),
  };
  for (let n = 0; n < ix.withSheet.length; n += 1) {
    const k = ix.withSheet[n]! + i;
    const score = points[k]!;
    if (score !== score) continue;
    t.sum += score;
    t.answers += 1;
    t.answeredRanked += ix.isRanked[n]!;
    if (score >= q.full) t.full += 1;
    if (score === 0) t.zero += 1;
    if (q.objective) {
      const response = responses[k]!;
      t.scoredResponses.set(response, (t.scoredResponses.get(response) ?? 0) + 1);
      if (flags[k]! & BLANK || !response) t.blank += 1;
    } else if (flags[k]! & BLANK) t.blank += 1;
  }
  return t;
}

/** Each class's average on question i over the grade (row order sums). */
function classAverages(model: HomeworkModel, ix: ScopeIndex, i: number): number[] {
  const classSum = new Float64Array(model.classes.length);
  const classCount = new Int32Array(model.classes.length);
  for (let n = 0; n < ix.gradeAt.length; n += 1) {
    const score = model.points[ix.gradeAt[n]! + i]!;
    const c = ix.gradeClass[n]!;
    if (score !== score || c < 0) continue;
    classSum[c] = classSum[c]! + score;
    classCount[c] = classCount[c]! + 1;
  }
  return model.classes.map((_, k) => (classCount[k] === 0 ? 0 : classSum[k]! / classCount[k]!));
}

/**
 * 区分度 (discriminationOfRanked over the answered ranked students): only Kelley's two groups are read, the upper
 * one from the top down, the lower one from the bottom up.
 */
function discriminationAt(
  model: HomeworkModel,
  ix: ScopeIndex,
  q: ModelQuestion,
  i: number,
  t: QuestionTally,
): number | null {
  if (t.answeredRanked < 4 || q.full <= 0) return null;
  const { points } = model;
  const { ranked } = ix;
  const g = kelleyGroup(t.answeredRanked);
  let upper = 0;
  for (let n = 0, taken = 0; taken < g; n += 1) {
    const score = points[ranked[n]! + i]!;
    if (score !== score) continue;
    upper += score;
    taken += 1;
  }
  let lower = 0;
  for (let n = ranked.length - 1, taken = 0; taken < g; n -= 1) {
    const score = points[ranked[n]! + i]!;
    if (score !== score) continue;
    lower += score;
    taken += 1;
  }
  return discriminationOfGroups(upper, lower, g, q.full);
}

function questionStat(
  model: HomeworkModel,
  q: ModelQuestion,
  t: QuestionTally,
  d: number | null,
  classAvg: number[],
): QuestionStats {
  const { answers, scoredResponses } = t;
  const average = answers === 0 ? 0 : t.sum / answers;
  const scoreRate = q.full > 0 ? average / q.full : 0;
  const band = d === null ? null : discriminationBand(d);
  const diff = difficultyBand(scoreRate);
  return {
    questionId: q.questionId,
    no: q.no,
    sectionTitle: q.sectionTitle,
    typeName: q.typeName,
    kind: q.kind,
    objective: q.objective,
    fullScore: q.full,
    answerCount: answers,
    average: round2(average),
    scoreRate: rate(scoreRate),
    difficulty: diff,
    difficultyName: DIFFICULTY_BAND_NAMES[diff],
    discrimination: d === null ? null : Math.max(-1, Math.min(1, Math.round(d * 10000) / 10000)),
    discriminationBand: band,
    discriminationName: band ? DISCRIMINATION_BAND_NAMES[band] : '',
    fullCount: t.full,
    zeroCount: t.zero,
    blankCount: t.blank,
    wrongCount: answers - t.full,
    correctAnswer: q.answer,
    options: q.objective
      ? optionDistributionOf(scoredResponses, answers, q.answer, q.optionLabels).map((o) => ({
          ...o,
          rate: rate(o.rate),
        }))
      : [],
    typicalWrong: q.objective
      ? wrongResponsesOf(scoredResponses, answers, q.answer)
          .slice(0, 3)
          .map((w) => ({ ...w, rate: rate(w.rate) }))
      : [],
    knowledgePoints: q.knowledgePoints,
    classes: model.classes.map((c, k) => ({
      classId: c.id,
      className: c.name,
      average: round2(classAvg[k]!),
      scoreRate: rate(q.full > 0 ? classAvg[k]! / q.full : 0),
    })),
  };
}

/** Per-question statistics within the scope's answers. */
export function questionStatsOf(model: HomeworkModel, rows: readonly Row[]): QuestionStats[] {
  const ix = scopeIndex(model, rows);
  return model.questions.map((q, i) => {
    const t = tally(model, ix, q, i);
    return questionStat(model, q, t, discriminationAt(model, ix, q, i, t), classAverages(model, ix, i));
  });
}

type KpRate = { name: string; scored: number; full: number; nos: string[] };

/** Points scored ÷ points available per knowledge point over the rows' scored answers. */
function kpRates(model: HomeworkModel, rows: readonly Row[]): Map<string, KpRate> {
  const out = new Map<string, KpRate>();
  const points = model.points;
  const withSheet = Int32Array.from(
    rows.filter((r) => r.at !== null),
    (r) => r.at!,
  );
  model.questions.forEach((q, i) => {
    for (const kp of q.knowledgePoints) {
      const e = out.get(kp.id) ?? { name: kp.name, scored: 0, full: 0, nos: [] };
      if (!e.nos.includes(q.no)) e.nos.push(q.no);
      // Added one answer after another onto the knowledge point's sums, in row order.
      let scored = e.scored;
      let full = e.full;
      for (let n = 0; n < withSheet.length; n += 1) {
        const score = points[withSheet[n]! + i]!;
        if (score !== score) continue;
        scored += score;
        full += q.full;
      }
      e.scored = scored;
      e.full = full;
      out.set(kp.id, e);
    }
  });
  return out;
}

export function knowledgePointsOf(model: HomeworkModel, rows: readonly Row[]): KnowledgePointStats[] {
  const scope = kpRates(model, rows);
  const grade = rows === model.rows ? scope : kpRates(model, model.rows);
  return [...scope.entries()]
    .map(([id, e]) => {
      const scoreRate = e.full > 0 ? e.scored / e.full : 0;
      const g = grade.get(id)!;
      const mastery = masteryLevel(scoreRate);
      const fullScore = model.questions
        .filter((q) => q.knowledgePoints.some((k) => k.id === id))
        .reduce((s, q) => s + q.full, 0);
      return {
        id,
        name: e.name,
        questionNos: e.nos,
        fullScore,
        scoreRate: rate(scoreRate),
        gradeScoreRate: rate(g.full > 0 ? g.scored / g.full : 0),
        mastery,
        masteryName: MASTERY_LEVEL_NAMES[mastery],
      };
    })
    .sort((a, b) => a.scoreRate - b.scoreRate || a.name.localeCompare(b.name));
}

/** Cronbach's α of the scope's scored students. */
export function alphaOf(model: HomeworkModel, rows: readonly Row[]): number | null {
  const scored = rows.filter((r) => r.total !== null);
  const k = model.questions.length;
  // The students × questions matrix of points (unscored: 0), row by row.
  const matrix = new Float64Array(scored.length * k);
  scored.forEach((r, n) => {
    for (let i = 0; i < k; i += 1) {
      const score = model.points[r.at! + i]!;
      matrix[n * k + i] = score !== score ? 0 : score;
    }
  });
  const a = cronbachAlphaOf(matrix, scored.length, k);
  return a === null ? null : Math.round(a * 10000) / 10000;
}
