import { describe, expect, it } from 'vitest';
import { cleanScoreText, readScore, readScores } from './score';

const q = { questionId: 'q7', no: '7', fullScore: 12 };

describe('score boxes', () => {
  it('keep digits and one decimal place only', () => {
    expect(cleanScoreText('8a.5.3')).toBe('8.5');
    expect(cleanScoreText('１2')).toBe('2');
  });

  it('refuse an empty box, a score above full and a step the block does not allow', () => {
    expect(readScore('', q, true)).toEqual({ ok: false, message: '请给第7题打分' });
    expect(readScore('13', q, true)).toEqual({ ok: false, message: '第7题的得分不能超过满分 12 分' });
    expect(readScore('6.5', q, false)).toEqual({ ok: false, message: '第7题只能给整数分' });
    expect(readScore('6.3', q, true)).toEqual({ ok: false, message: '第7题只能给整数分或 0.5 分' });
    expect(readScore('6.5', q, true)).toEqual({ ok: true, score: 6.5 });
    expect(readScore('0', q, false)).toEqual({ ok: true, score: 0 });
  });

  it('point at the first box that cannot be submitted', () => {
    const r = readScores(['3', ''], [q, { questionId: 'q8', no: '8', fullScore: 4 }], true);
    expect(r).toEqual({ ok: false, message: '请给第8题打分', index: 1 });
  });
});
