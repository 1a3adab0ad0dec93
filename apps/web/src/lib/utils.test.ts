import { describe, expect, it } from 'vitest';
import { dataUrlToFile, formatDate, getQueryParam, groupBy, mergeUnique, pageOrigin } from './utils';

describe('formatDate', () => {
  it('formats a date as YYYY-MM-DD with zero padding', () => {
    expect(formatDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(formatDate(new Date(2025, 11, 31))).toBe('2025-12-31');
  });
  it('accepts epoch ms and strings, and gives an empty string for an invalid date', () => {
    expect(formatDate(new Date(2026, 8, 1).getTime())).toBe('2026-09-01');
    expect(formatDate('2026-03-04T10:00:00')).toBe('2026-03-04');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('dataUrlToFile', () => {
  it('turns a base64 data URL into a File with its type and name', async () => {
    const file = dataUrlToFile('data:image/png;base64,iVBORw0KGgo=', 'scan-001.png');
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe('scan-001.png');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]);
  });
  it('handles percent-encoded data URLs', async () => {
    const file = dataUrlToFile('data:text/plain,%E4%BD%9C%E4%B8%9A', 'a.txt');
    expect(await file.text()).toBe('作业');
    expect(file.type).toBe('text/plain');
  });
  it('rejects what is not a data URL', () => {
    expect(() => dataUrlToFile('http://x/y.png', 'y.png')).toThrow();
  });
});

describe('getQueryParam', () => {
  it('reads a parameter of the given URL, decoded', () => {
    expect(getQueryParam('nav', 'http://x.cn/userset?nav=2&a=1')).toBe('2');
    expect(getQueryParam('name', 'http://x.cn/?name=%E7%8E%8B')).toBe('王');
  });
  it('reads parameters after a hash route and gives null when missing', () => {
    expect(getQueryParam('id', 'http://x.cn/#/edit?id=7')).toBe('7');
    expect(getQueryParam('missing', 'http://x.cn/?a=1')).toBeNull();
  });
  it('reads the current page by default', () => {
    window.history.replaceState(null, '', '/edit?paperId=p1');
    expect(getQueryParam('paperId')).toBe('p1');
  });
});

describe('pageOrigin', () => {
  it('gives the origin of the page', () => {
    expect(pageOrigin({ protocol: 'https:', host: 'zy.school.cn', origin: 'https://zy.school.cn' })).toBe(
      'https://zy.school.cn',
    );
    expect(pageOrigin({ protocol: 'http:', host: '127.0.0.1:3000' })).toBe('http://127.0.0.1:3000');
    expect(pageOrigin()).toBe(window.location.origin);
  });
});

describe('groupBy', () => {
  const rows = [
    { cls: '一班', name: '甲' },
    { cls: '二班', name: '乙' },
    { cls: '一班', name: '丙' },
  ];
  it('groups by a property, keeping first-seen key order', () => {
    const g = groupBy(rows, 'cls');
    expect(Object.keys(g)).toEqual(['一班', '二班']);
    expect(g['一班']!.map((r) => r.name)).toEqual(['甲', '丙']);
  });
  it('groups by a function', () => {
    expect(groupBy([1, 2, 3, 4], (n) => (n % 2 ? 'odd' : 'even'))).toEqual({ odd: [1, 3], even: [2, 4] });
  });
});

describe('mergeUnique', () => {
  it('merges arrays without duplicates, first occurrence wins', () => {
    expect(mergeUnique([1, 2, 3], [3, 4, 1])).toEqual([1, 2, 3, 4]);
  });
  it('dedupes objects by a key', () => {
    const merged = mergeUnique(
      [{ id: 'a', v: 1 }],
      [
        { id: 'a', v: 2 },
        { id: 'b', v: 3 },
      ],
      'id',
    );
    expect(merged).toEqual([
      { id: 'a', v: 1 },
      { id: 'b', v: 3 },
    ]);
  });
});
