/**
 * What a score is (ADR 0051): the one set of scoring rules and the one list of objective question kinds, shared by
 * the server's results spine (recognition and marking write through it) and the web (score checks, difficulty,
 * grade-sheet subtotals). Pure and browser-safe: no database, no Node.
 */

import { z } from 'zod';
import type { AverageRule, MarkMode } from './calls/marking.js';

// ---------------------------------------------------------------------------------------------------------------
// Objective kinds

/** Kinds whose score comes from the answer key (objective); every other kind is marked by teachers. */
export const OBJECTIVE_KINDS = ['single', 'multiple', 'truefalse'] as const;
export type ObjectiveKind = (typeof OBJECTIVE_KINDS)[number];
export const ObjectiveKindSchema = z.enum(OBJECTIVE_KINDS);

/** Every kind of answer on a sheet: the objective kinds, then those teachers mark. */
export const ANSWER_KINDS = [...OBJECTIVE_KINDS, 'blank', 'written', 'optional'] as const;
export type AnswerKindName = (typeof ANSWER_KINDS)[number];
/** Kinds read as marks on a card: the objective kinds and the 选做 choice. */
export const MARK_KINDS = [...OBJECTIVE_KINDS, 'optional'] as const;

/** True for a kind scored from the answer key. */
export const isObjective = (kind: string): kind is ObjectiveKind =>
  (OBJECTIVE_KINDS as readonly string[]).includes(kind);

// ---------------------------------------------------------------------------------------------------------------
// Points and tenths

/** Scores are stored in whole tenths of a point; 7.5 points are 75 tenths. */
export const toTenths = (points: number): number => Math.round(points * 10);
/** Tenths of a point as points. */
export const toPoints = (tenths: number): number => tenths / 10;

// ---------------------------------------------------------------------------------------------------------------
// Objective scoring from the answer key

/** Multiple choice with some right options and no wrong one: 少选得一半 (half), 少选不得分 (zero), or by share. */
export const PARTIAL_RULES = ['half', 'zero', 'proportional'] as const;
export type PartialRule = (typeof PARTIAL_RULES)[number];
export const DEFAULT_PARTIAL_RULE: PartialRule = 'half';

export const PARTIAL_RULE_NAMES: Readonly<Record<PartialRule, string>> = {
  half: '少选得一半分，错选不得分',
  zero: '少选、错选均不得分',
  proportional: '按选对的个数给分，错选不得分',
};

/**
 * The key in the card's option letters: 'B', 'ACE', 'T'/'F' for true/false. The question bank writes true/false
 * answers as 正确/错误 (or √/×); both come here. Null when the key is empty or not options at all.
 */
export function normaliseKey(kind: ObjectiveKind, answer: string): string | null {
  const text = answer
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();
  if (kind === 'truefalse') {
    if (/^(正确|对|√|✓|T|TRUE|是)$/i.test(text)) return 'T';
    if (/^(错误|错|×|✗|X|F|FALSE|否)$/i.test(text)) return 'F';
    return null;
  }
  const letters = text.toUpperCase().replace(/[\s,，、;；]/g, '');
  if (!/^[A-G]+$/.test(letters)) return null;
  const unique = [...new Set(letters)].sort().join('');
  if (kind === 'single' && unique.length !== 1) return null;
  return unique;
}

/**
 * Score in tenths of a point of one objective answer. `chosen` is the options read ('' none). Single choice and
 * true/false: full when equal to the key. Multiple choice: full when equal; any wrong option gives 0; some right
 * options and none wrong follow `rule`. A key that is missing scores nothing (null: the answer waits for a person).
 */
export function scoreObjective(
  kind: ObjectiveKind,
  key: string | null,
  chosen: string,
  fullTenths: number,
  rule: PartialRule = DEFAULT_PARTIAL_RULE,
): number | null {
  if (key === null || key === '') return null;
  const picked = [...new Set(chosen.toUpperCase())].sort().join('');
  if (picked === '') return 0;
  if (kind !== 'multiple') return picked === key ? fullTenths : 0;
  if (picked === key) return fullTenths;
  const keySet = new Set(key);
  if ([...picked].some((o) => !keySet.has(o))) return 0;
  switch (rule) {
    case 'zero':
      return 0;
    case 'half':
      return Math.floor(fullTenths / 2);
    case 'proportional':
      return Math.floor((fullTenths * picked.length) / key.length);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Teacher marks to a final score

export interface GivenMark {
  userId: string;
  /** 'mark' | 'group' (a marker's score) or 'arbitration' (decides). */
  kind: string;
  /** Question id → tenths. */
  scores: Record<string, number>;
  totalTenths: number;
  createdAt: string;
}

/** The marking rules of a block. */
export interface BlockRules {
  mode: MarkMode;
  thresholdTenths: number;
  averageRule: AverageRule;
  /** 5 when half points are allowed, else 10. */
  stepTenths: number;
}

/** Where an item stands after its marks. */
export type ItemVerdict =
  | { state: 'final'; scores: Record<string, number>; source: 'marker' | 'group' | 'double' | 'arbitration' }
  | { state: 'open'; marksNeeded: number }
  | { state: 'arbitration' };

/** Marks needed before an item can be final. */
export const marksRequired = (mode: MarkMode): number => (mode === 'double' ? 2 : 1);

/** Rounds half up to a multiple of the step (7.5 with whole points gives 8). */
export function roundToStep(tenths: number, step: number): number {
  return Math.floor(tenths / step + 0.5) * step;
}

/** Two scores of one question combined by the block's rule. */
export function combine(a: number, b: number, rule: AverageRule, step: number): number {
  if (rule === 'max') return Math.max(a, b);
  if (rule === 'min') return Math.min(a, b);
  return roundToStep((a + b) / 2, step);
}

/**
 * The verdict of an item: an arbitration decides; single marking takes the one mark; double marking combines two
 * marks whose totals are within the threshold, and sends the item to arbitration beyond it.
 */
export function verdictOf(
  rules: BlockRules,
  questionIds: readonly string[],
  marks: readonly GivenMark[],
): ItemVerdict {
  const arbitration = marks.filter((m) => m.kind === 'arbitration').at(-1);
  if (arbitration) return { state: 'final', scores: arbitration.scores, source: 'arbitration' };
  const given = marks.filter((m) => m.kind !== 'arbitration');
  const needed = marksRequired(rules.mode);
  if (given.length < needed) return { state: 'open', marksNeeded: needed - given.length };
  if (rules.mode === 'single') {
    const m = given[0]!;
    return { state: 'final', scores: m.scores, source: m.kind === 'group' ? 'group' : 'marker' };
  }
  const [a, b] = given as [GivenMark, GivenMark];
  if (Math.abs(a.totalTenths - b.totalTenths) > rules.thresholdTenths) return { state: 'arbitration' };
  const scores: Record<string, number> = {};
  for (const q of questionIds)
    scores[q] = combine(a.scores[q] ?? 0, b.scores[q] ?? 0, rules.averageRule, rules.stepTenths);
  return { state: 'final', scores, source: 'double' };
}

// ---------------------------------------------------------------------------------------------------------------
// A sheet's totals

/** A sheet's objective, subjective and total scores (tenths) and its answers still without a score. */
export interface SheetTotals {
  objectiveTenths: number;
  subjectiveTenths: number;
  totalTenths: number;
  unscored: number;
}

/** The totals of a sheet's answers: objective kinds add to the objective part, every other kind to the subjective. */
export function sheetTotals(answers: Iterable<{ kind: string; scoreTenths: number | null }>): SheetTotals {
  let objective = 0;
  let subjective = 0;
  let unscored = 0;
  for (const a of answers) {
    if (a.scoreTenths === null) unscored += 1;
    else if (isObjective(a.kind)) objective += a.scoreTenths;
    else subjective += a.scoreTenths;
  }
  return {
    objectiveTenths: objective,
    subjectiveTenths: subjective,
    totalTenths: objective + subjective,
    unscored,
  };
}
