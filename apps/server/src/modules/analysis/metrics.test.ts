import { describe as group, expect, it } from 'vitest';
import {
  criticalByRank,
  criticalByScore,
  cronbachAlpha,
  describe,
  difficultyBand,
  discrimination,
  discriminationBand,
  markerVerdict,
  masteryLevel,
  median,
  normaliseChoice,
  optionDistribution,
  overAverageRate,
  ranks,
  scoreBands,
  standardDeviation,
  tScore,
  wrongResponses,
  zScore,
} from './metrics.js';

// Every expected value below is worked out by hand in the comment next to it.
const T = { passRate: 0.6, goodRate: 0.7, excellentRate: 0.85 };

group('analysis formulas', () => {
  it('describes totals: mean, median, population SD and the three rates', () => {
    // mean 80; deviations −20 −10 0 10 20 → σ² = (400+100+0+100+400)/5 = 200, σ = √200 ≈ 14.1421
    const d = describe([60, 70, 80, 90, 100], 100, T);
    expect(d).toMatchObject({ count: 5, average: 80, max: 100, min: 60, median: 80, scoreRate: 0.8 });
    expect(d.standardDeviation).toBeCloseTo(14.1421, 4);
    // ≥60: all 5; ≥70: 4; ≥85: 90 and 100
    expect([d.passCount, d.goodCount, d.excellentCount, d.failCount]).toEqual([5, 4, 2, 0]);
    expect([d.passRate, d.goodRate, d.excellentRate]).toEqual([1, 0.8, 0.4]);
  });

  it('uses n, not n − 1, for the standard deviation', () => {
    // [2, 4]: μ 3, σ² = (1 + 1)/2 = 1 (the sample formula would give 2)
    expect(standardDeviation([2, 4])).toBe(1);
  });

  it('counts a total exactly on a line despite floating-point error', () => {
    // 0.6 × 85 = 51 (50.99999… in floating point); 51 passes, 50.9 does not
    expect(describe([51, 50.9], 85, T).passCount).toBe(1);
  });

  it('takes the mean of the two middle values as the median of an even count', () => {
    expect(median([1, 3, 2, 10])).toBe(2.5);
    expect(describe([], 100, T)).toMatchObject({ count: 0, average: 0, max: 0, min: 0, passRate: 0 });
  });

  it('puts totals in 10 % bands, full marks in the top band', () => {
    const bands = scoreBands([100, 95, 90, 89.9, 0, 10], 100, 0.1);
    expect(bands).toHaveLength(10);
    expect(bands[0]).toMatchObject({ label: '90%–100%', from: 90, to: 100, count: 3, rate: 0.5 });
    expect(bands[1]).toMatchObject({ label: '80%–90%', count: 1 });
    expect(bands[8]).toMatchObject({ label: '10%–20%', count: 1 });
    expect(bands[9]).toMatchObject({ label: '0%–10%', from: 0, to: 10, count: 1 });
  });

  it('ranks ties equally and skips the next rank', () => {
    expect(ranks([90, 80, 90, 70])).toEqual([1, 3, 1, 4]);
  });

  it('computes Z = (x − μ)/σ and T = 50 + 10Z', () => {
    // (90 − 80)/5 = 2 → T = 70; σ 0 gives Z 0
    expect(zScore(90, 80, 5)).toBe(2);
    expect(tScore(2)).toBe(70);
    expect(zScore(90, 90, 0)).toBe(0);
  });

  it('computes 超均率 as (class mean − grade mean) / grade mean', () => {
    // (84 − 80)/80 = 0.05; (76 − 80)/80 = −0.05
    expect(overAverageRate(84, 80)).toBeCloseTo(0.05, 10);
    expect(overAverageRate(76, 80)).toBeCloseTo(-0.05, 10);
    expect(overAverageRate(5, 0)).toBe(0);
  });

  it('computes discrimination from the upper and lower 27 %', () => {
    // 10 students → groups of round(2.7) = 3; upper scores 5+5+4 = 14 of 15, lower 1+0+2 = 3 of 15 → 11/15
    const totals = [100, 90, 80, 70, 60, 50, 40, 30, 20, 10];
    const scores = [5, 5, 4, 3, 3, 3, 2, 1, 0, 2];
    const d = discrimination(
      totals.map((t, i) => [t, scores[i]!] as const),
      5,
    );
    expect(d).toBeCloseTo(11 / 15, 10);
    expect(
      discrimination(
        [
          [1, 1],
          [2, 1],
          [3, 1],
        ],
        1,
      ),
    ).toBeNull();
  });

  it('bands difficulty and discrimination at their borders', () => {
    expect([difficultyBand(0.7), difficultyBand(0.69), difficultyBand(0.4), difficultyBand(0.39)]).toEqual([
      'easy',
      'medium',
      'medium',
      'hard',
    ]);
    expect([0.4, 0.39, 0.3, 0.2, 0.19].map(discriminationBand)).toEqual([
      'excellent',
      'good',
      'good',
      'fair',
      'poor',
    ]);
    expect([0.85, 0.84, 0.6, 0.59].map(masteryLevel)).toEqual(['mastered', 'partial', 'partial', 'weak']);
  });

  it("computes Cronbach's α = k/(k−1) × (1 − Σσ²ᵢ/σ²ₜ)", () => {
    // item variances .1875 + .25 + .1875 = .625; totals 3,2,1,0 → σ²ₜ 1.25; α = 1.5 × (1 − .5) = .75
    const alpha = cronbachAlpha([
      [1, 1, 1],
      [1, 1, 0],
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(alpha).toBeCloseTo(0.75, 10);
    expect(cronbachAlpha([[1, 1]])).toBeNull();
    expect(
      cronbachAlpha([
        [1, 0],
        [1, 0],
      ]),
    ).toBeNull();
  });

  it('counts options of multiple answers once each and keeps blanks in the divisor', () => {
    const dist = optionDistribution(['A', 'B', 'AC', null, 'B'], 'B', ['A', 'B', 'C', 'D']);
    expect(dist).toEqual([
      { option: 'A', count: 2, rate: 0.4, correct: false },
      { option: 'B', count: 2, rate: 0.4, correct: true },
      { option: 'C', count: 1, rate: 0.2, correct: false },
      { option: 'D', count: 0, rate: 0, correct: false },
    ]);
  });

  it('lists typical wrong answers by frequency, blanks as empty', () => {
    expect(wrongResponses(['A', 'B', 'CA', null, 'b', 'A'], 'B')).toEqual([
      { response: 'A', count: 2, rate: 2 / 6 },
      { response: '', count: 1, rate: 1 / 6 },
      { response: 'AC', count: 1, rate: 1 / 6 },
    ]);
    expect([normaliseChoice('对'), normaliseChoice('×'), normaliseChoice('ca')]).toEqual(['T', 'F', 'AC']);
  });

  it('finds 临界生 within the band of the nearest score line', () => {
    // lines 60, 70, 85 with ±5: 57 (−3 pass), 63 (+3 pass), 66 (−4 good), 72 (+2 good), 84 (−1 exc.), 90 (+5 exc.)
    const hits = criticalByScore([57, 63, 66, 72, 84, 90, 40], 100, T, 0.05);
    expect(hits.map((h) => [h.index, h.line, h.gap])).toEqual([
      [0, '及格线', -3],
      [1, '及格线', 3],
      [2, '良好线', -4],
      [3, '良好线', 2],
      [4, '优秀线', -1],
      [5, '优秀线', 5],
    ]);
  });

  it('finds 临界生 within the band of a rank line', () => {
    // lines 10 and 50, ±5: rank 8 (+2), 12 (−2), 48 (+2); 16 and 100 are too far
    const hits = criticalByRank([8, 12, 16, 48, 100], [10, 50], 5);
    expect(hits.map((h) => [h.index, h.line, h.gap])).toEqual([
      [0, '第10名', 2],
      [1, '第10名', -2],
      [3, '第50名', 2],
    ]);
  });

  it('flags a lenient, an always-middle and a too-small marker', () => {
    const many = (v: number) => new Array<number>(10).fill(v);
    // gives 0.9 where peers give 0.7 → +0.2 ≥ 0.1
    expect(markerVerdict({ rates: many(0.9), peerMeans: many(0.7), peerSpread: 0.3 }).indicator).toBe(
      'lenient',
    );
    expect(markerVerdict({ rates: many(0.5), peerMeans: many(0.7), peerSpread: 0.3 }).indicator).toBe(
      'strict',
    );
    // always half marks where peers spread 0.3 and average 0.52: deviation −0.02, spread 0 → 趋中
    expect(markerVerdict({ rates: many(0.5), peerMeans: many(0.52), peerSpread: 0.3 }).indicator).toBe(
      'middle',
    );
    expect(markerVerdict({ rates: [1, 1, 1], peerMeans: [0, 0, 0], peerSpread: 0.3 }).indicator).toBe(
      'insufficient',
    );
  });
});
