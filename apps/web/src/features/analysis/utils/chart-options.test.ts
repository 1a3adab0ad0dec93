import { describe, expect, it } from 'vitest';
import { trendOption } from './chart-options';

type Series = { name: string; type: string; data: unknown[] };

describe('trendOption', () => {
  it('keeps a homework still being marked out of the lines and marks it 阅卷中 level with the last final value', () => {
    const option = trendOption(
      ['单元作业', '单元测验', '课后作业', '期中测试'],
      [{ name: '得分率', data: [66.8, 62.2, 0, 0] }],
      true,
      [false, false, true, true],
    ) as unknown as { series: Series[] };
    const line = option.series.find((s) => s.name === '得分率')!;
    expect(line.data.slice(2)).toEqual([null, null]);
    const marking = option.series.find((s) => s.name === '阅卷中')!;
    // Never a collapse to 0 %: both unfinished homework sit where the last finished one is.
    expect(marking.data).toEqual([
      [2, 62.2],
      [3, 62.2],
    ]);
  });
});
