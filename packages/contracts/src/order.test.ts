import { describe, expect, it } from 'vitest';
import { compareClassNames, sortByClassName } from './order';

describe('natural class order', () => {
  it('puts (2) before (10) and (11), and grades by value', () => {
    const names = [
      '八年级(1)班',
      '七年级(10)班',
      '七年级(2)班',
      '七年级(11)班',
      '九年级(1)班',
      '七年级(1)班',
    ];
    expect([...names].sort(compareClassNames)).toEqual([
      '七年级(1)班',
      '七年级(2)班',
      '七年级(10)班',
      '七年级(11)班',
      '八年级(1)班',
      '九年级(1)班',
    ]);
  });

  it('orders 高一 before 高二 and 十二年级 after 九年级', () => {
    expect(['高二(3)班', '高一(12)班', '高一(2)班'].sort(compareClassNames)).toEqual([
      '高一(2)班',
      '高一(12)班',
      '高二(3)班',
    ]);
    expect(['十二年级1班', '九年级1班', '十年级1班'].sort(compareClassNames)).toEqual([
      '九年级1班',
      '十年级1班',
      '十二年级1班',
    ]);
  });

  it('sorts rows by a name without touching the input', () => {
    const rows = [{ n: '1班(10)' }, { n: '1班(9)' }];
    expect(sortByClassName(rows, (r) => r.n).map((r) => r.n)).toEqual(['1班(9)', '1班(10)']);
    expect(rows[0]!.n).toBe('1班(10)');
  });
});
