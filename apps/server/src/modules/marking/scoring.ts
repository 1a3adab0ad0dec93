import type { AverageRule, MarkMode } from '@zhzy/contracts';

// The rules that turn marks into a final score: pure, so the tests can state them directly.

export interface GivenMark {
  userId: string;
  /** 'mark' | 'group' (a marker's score) or 'arbitration' (decides). */
  kind: string;
  /** Question id → tenths. */
  scores: Record<string, number>;
  totalTenths: number;
  createdAt: string;
}

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
