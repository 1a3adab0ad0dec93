import { describe, expect, it } from 'vitest';
import { PaperCache } from '../src/modules/marking/paper-cache.js';

// ADR 0078: the marking task list parses a homework's frozen paper once per snapshot text, not on every call.

const paper = (title: string) =>
  JSON.stringify({
    paperId: 'p1',
    paperVersion: 1,
    title,
    subtitle: '',
    stageId: 'stage-junior',
    stageName: '初中',
    subjectId: 'subj-junior-math',
    subjectName: '数学',
    questionCount: 0,
    totalScore: 0,
    settings: {},
    sections: [],
  });

describe('papers kept per snapshot', () => {
  it('gives the same parsed paper while the snapshot text stays, a new one when it is replaced, and never a changeable one', () => {
    const cache = new PaperCache();
    const first = cache.paperOf('hw1', paper('期中'));
    expect(first.title).toBe('期中');
    // Equal text read again from the database (another string): the kept paper.
    expect(cache.paperOf('hw1', paper('期中'))).toBe(first);
    expect(cache.markableOf(first)).toBe(cache.markableOf(cache.paperOf('hw1', paper('期中'))));
    const replaced = cache.paperOf('hw1', paper('期中(改)'));
    expect(replaced).not.toBe(first);
    expect(replaced.title).toBe('期中(改)');
    expect(cache.paperOf('hw2', paper('期中'))).not.toBe(first);
    expect(Object.isFrozen(replaced)).toBe(true);
    expect(Object.isFrozen(replaced.sections)).toBe(true);
    expect(() => {
      (replaced as { title: string }).title = 'x';
    }).toThrow(TypeError);
    // Not a paper: the empty fallback, as before.
    expect(cache.paperOf('hw3', 'not json').sections).toEqual([]);
  });
});
