import { describe, expect, it } from 'vitest';
import { BubbleReadingSchema, RawMarksSchema } from './index.js';

describe('raw bubble measurements (ADR 0039, ADR 0084)', () => {
  const bubble = { option: 'A', ratio: 0.18, core: 0.12, peak: 0.45, mid: 0.02, rim: 0.15, streak: 0.09 };

  it('keeps a bubble’s line texture', () => {
    const raw = RawMarksSchema.parse({
      questions: [{ questionId: 'q1', number: '1', kind: 'single', bubbles: [{ ...bubble, line: 0.21 }] }],
    });
    expect(raw.questions[0]!.bubbles[0]!.line).toBe(0.21);
    const reading = BubbleReadingSchema.parse({ ...bubble, line: 0.21, score: 0.2, state: 'uncertain' });
    expect(reading.line).toBe(0.21);
  });

  it('still accepts rows stored before the line texture was measured', () => {
    const raw = RawMarksSchema.parse({
      questions: [{ questionId: 'q1', number: '1', kind: 'single', bubbles: [bubble] }],
    });
    expect(raw.questions[0]!.bubbles[0]).toEqual(bubble);
    expect(BubbleReadingSchema.parse({ ...bubble, score: 0.2, state: 'empty' }).line).toBeUndefined();
  });
});
