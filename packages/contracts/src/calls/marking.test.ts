import { describe, expect, it } from 'vitest';
import { RUBRIC_KEYS, SubmitMarkSchema, rubricScoreTenths } from './marking.js';

describe('rubric items (评分项)', () => {
  it('scores a question by the sum of its applied items, clamped to 0..full', () => {
    expect(rubricScoreTenths(100, [])).toBeNull();
    expect(rubricScoreTenths(100, [20, 80])).toBe(100);
    expect(rubricScoreTenths(100, [20, -10])).toBe(10);
    expect(rubricScoreTenths(100, [80, 50])).toBe(100);
    expect(rubricScoreTenths(100, [5, -30])).toBe(0);
  });

  it('counts deductions alone down from full marks', () => {
    expect(rubricScoreTenths(100, [-10])).toBe(90);
    expect(rubricScoreTenths(100, [-10, -5])).toBe(85);
    expect(rubricScoreTenths(40, [-50])).toBe(0);
  });

  it('keys never take a digit or a key the bench already uses', () => {
    for (const k of RUBRIC_KEYS) expect('0123456789.cxptmzher').not.toContain(k);
    expect(new Set(RUBRIC_KEYS).size).toBe(RUBRIC_KEYS.length);
  });

  it('a mark sent without items applies none', () => {
    const body = SubmitMarkSchema.parse({ sheetId: 's1', scores: [{ questionId: 'q1', score: 3 }] });
    expect(body.rubric).toEqual({});
  });
});
