import { describe, expect, it } from 'vitest';
import { parseRoster } from './roster';

describe('a pasted class list', () => {
  it('reads number and name in either order, tabs, commas or spaces, and skips a header', () => {
    const r = parseRoster('学号\t姓名\n20260101\t张三\n李四, 20260102\n20260103 王 小明\n\n');
    expect(r.students).toEqual([
      { number: '20260101', name: '张三' },
      { number: '20260102', name: '李四' },
      { number: '20260103', name: '王 小明' },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it('reports lines without a number and repeated numbers', () => {
    const r = parseRoster('20260101 张三\n赵六\n20260101 张三');
    expect(r.students).toHaveLength(2);
    expect(r.skipped).toEqual([2]);
    expect(r.duplicates).toEqual(['20260101']);
  });
});
