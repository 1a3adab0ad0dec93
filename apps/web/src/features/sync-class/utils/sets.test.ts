import { describe, expect, it } from 'vitest';
import type { Question } from '@zhzy/contracts';
import { SET_RULES, assembleSets, fallbackLevels, quotas, unitOf, type Pools } from './sets';

const q = (id: string, difficulty: number, typeId = 't1') => ({ id, difficulty, typeId }) as Question;

function pools(perLevel: number): Pools {
  const level = (scope: string, l: number) =>
    Array.from({ length: perLevel }, (_, i) => q(`${scope}-${l}-${i}`, l, i % 2 ? 't2' : 't1'));
  const build = (scope: string) => Object.fromEntries([1, 2, 3, 4, 5].map((l) => [l, level(scope, l)]));
  const node = build('n');
  // The unit holds the chapter's questions and more.
  const unit = Object.fromEntries([1, 2, 3, 4, 5].map((l) => [l, [...node[l]!, ...level('u', l)]]));
  return { node, unit };
}

describe('chapter sets', () => {
  it('fills each set to its size from its difficulty band, with no question in two sets', () => {
    const sets = assembleSets(pools(10));
    for (const rule of SET_RULES) {
      expect(sets[rule.kind]).toHaveLength(rule.count);
      expect(sets[rule.kind].every((x) => rule.levels.includes(x.difficulty))).toBe(true);
    }
    const all = Object.values(sets)
      .flat()
      .map((x) => x.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('gives the same sets for the same bank', () => {
    expect(assembleSets(pools(10))).toEqual(assembleSets(pools(10)));
  });

  it('alternates types and groups them as a paper does', () => {
    const preview = assembleSets(pools(10)).preview;
    expect(preview.map((x) => x.typeId)).toEqual(['t1', 't1', 't1', 't2', 't2']);
  });

  it('shares a small chapter among its three sets, none left empty, then takes the nearest levels', () => {
    // 5 questions in the chapter, all 容易 (level 1): every chapter set still gets some.
    const easy = { 1: Array.from({ length: 5 }, (_, i) => q(`e${i}`, 1)) };
    const sets = assembleSets({ node: easy, unit: easy });
    expect(sets.preview.length + sets.classwork.length + sets.homework.length).toBe(5);
    expect(sets.preview.length).toBeGreaterThan(0);
    expect(sets.classwork.length).toBeGreaterThan(0);
    expect(sets.homework.length).toBeGreaterThan(0);
    expect(quotas(19)).toMatchObject({ preview: 5, classwork: 6, homework: 8, unit: 15 });
    expect(
      Object.values(quotas(4))
        .slice(0, 3)
        .reduce((a, b) => a + b, 0),
    ).toBe(4);
    expect(fallbackLevels([2, 3])).toEqual([1, 4, 5]);
  });

  it('finds the unit (top-level chapter) of a section', () => {
    const tree = [{ id: 'c1', name: 'c1', children: [{ id: 'c1-1', name: 'x', children: [] }] }];
    expect(unitOf(tree, 'c1-1')?.id).toBe('c1');
    expect(unitOf(tree, 'c1')?.id).toBe('c1');
    expect(unitOf(tree, 'nope')).toBeNull();
  });
});
