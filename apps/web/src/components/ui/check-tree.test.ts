import { describe, expect, it } from 'vitest';
import { compactChecked, toggleNode } from './check-tree';

const tree = [
  {
    id: 'a',
    name: 'a',
    children: [
      { id: 'a1', name: 'a1', children: [] },
      { id: 'a2', name: 'a2', children: [] },
    ],
  },
  { id: 'b', name: 'b', children: [] },
];

describe('check tree', () => {
  it('checks a subtree, and a parent exactly when all its children are', () => {
    let s = toggleNode(tree, new Set(), tree[0]!);
    expect([...s].sort()).toEqual(['a', 'a1', 'a2']);
    s = toggleNode(tree, s, tree[0]!.children[1]!);
    expect([...s].sort()).toEqual(['a1']);
    s = toggleNode(tree, s, tree[0]!.children[1]!);
    expect(s.has('a')).toBe(true);
  });

  it('sends the fewest ids that say the same', () => {
    expect(compactChecked(tree, new Set(['a', 'a1', 'a2', 'b']))).toEqual(['a', 'b']);
    expect(compactChecked(tree, new Set(['a2']))).toEqual(['a2']);
    expect(compactChecked(tree, new Set())).toEqual([]);
  });
});
