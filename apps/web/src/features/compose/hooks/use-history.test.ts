import { describe, expect, it } from 'vitest';
import { COALESCE_MS, HISTORY_LIMIT, historyReducer, initHistory, type HistoryState } from './use-history';

const commit = (s: HistoryState<number>, next: number, key?: string, at = 0) =>
  historyReducer(s, { type: 'commit', update: () => next, key, at });

describe('undo and redo', () => {
  it('undoes and redoes step by step, and a new edit drops the redo list', () => {
    let s = initHistory(0);
    s = commit(s, 1, undefined, 10);
    s = commit(s, 2, undefined, 20);
    s = historyReducer(s, { type: 'undo' });
    expect(s.present).toBe(1);
    s = historyReducer(s, { type: 'undo' });
    expect(s.present).toBe(0);
    s = historyReducer(s, { type: 'undo' });
    expect(s.present).toBe(0);
    s = historyReducer(s, { type: 'redo' });
    expect(s.present).toBe(1);
    s = commit(s, 5, undefined, 30);
    expect(s.future).toEqual([]);
    s = historyReducer(s, { type: 'redo' });
    expect(s.present).toBe(5);
    expect(s.past).toEqual([0, 1]);
  });

  it('merges quick edits of one field (typing a score is one step) but not slow ones or other fields', () => {
    let s = initHistory(0);
    s = commit(s, 1, 'score:a', 1000);
    s = commit(s, 12, 'score:a', 1000 + COALESCE_MS - 1);
    expect(s.past).toEqual([0]);
    s = commit(s, 13, 'score:a', 1000 + 3 * COALESCE_MS);
    expect(s.past).toEqual([0, 12]);
    s = commit(s, 14, 'score:b', 1000 + 3 * COALESCE_MS + 1);
    expect(s.past).toEqual([0, 12, 13]);
    s = historyReducer(s, { type: 'undo' });
    s = historyReducer(s, { type: 'undo' });
    expect(s.present).toBe(12);
  });

  it('does not merge after an undo, so redo is never lost to a merge', () => {
    let s = commit(initHistory(0), 1, 'k', 0);
    s = historyReducer(s, { type: 'undo' });
    s = commit(s, 2, 'k', 1);
    expect(s.past).toEqual([0]);
    expect(s.present).toBe(2);
  });

  it('keeps at most the last steps, and ignores a commit that changes nothing', () => {
    let s = initHistory(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) s = commit(s, i, undefined, i * 10_000);
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    expect(s.past[0]).toBe(20);
    expect(historyReducer(s, { type: 'commit', update: (p) => p, at: 0 })).toBe(s);
  });

  it('replaces the present without a step (ids from the host) and resets', () => {
    let s = commit(initHistory(0), 1, undefined, 0);
    s = historyReducer(s, { type: 'replace', update: (p) => p + 100 });
    expect(s).toMatchObject({ past: [0], present: 101 });
    s = historyReducer(s, { type: 'reset', present: 7 });
    expect(s).toMatchObject({ past: [], present: 7, future: [] });
  });
});
