import { describe, expect, it } from 'vitest';
import { coefficientLevelName, formatCoefficient, levelCoefficient, paperCoefficient } from './difficulty';

describe('难度系数 (one convention: a score rate, higher is easier)', () => {
  it('predicts 1 for 容易 down to 0 for 困难', () => {
    expect([1, 2, 3, 4, 5].map(levelCoefficient)).toEqual([1, 0.75, 0.5, 0.25, 0]);
  });

  it('names a measured score rate with the level it reads as', () => {
    expect(coefficientLevelName(0.92)).toBe('容易');
    expect(coefficientLevelName(0.8)).toBe('较易');
    expect(coefficientLevelName(0.55)).toBe('适中');
    expect(coefficientLevelName(0.3)).toBe('较难');
    expect(coefficientLevelName(0.05)).toBe('困难');
    expect(coefficientLevelName(1.4)).toBe('容易');
  });

  it('weights a paper by score and labels it', () => {
    // 10 points of 容易 and 30 of 较难: mean level 3.25 → 0.4375.
    const c = paperCoefficient([
      { level: 1, weight: 10 },
      { level: 4, weight: 30 },
    ]);
    expect(c).toBeCloseTo(0.4375, 9);
    expect(formatCoefficient(c!)).toBe('难度系数 0.44（适中）');
    expect(paperCoefficient([])).toBeNull();
  });
});
