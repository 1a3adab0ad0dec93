import type { Question, TreeNode } from '@zhzy/contracts';

/** The four ready sets of a chapter: which difficulty levels they draw on, how many questions, from where. */
export const SET_KINDS = ['preview', 'homework', 'classwork', 'unit'] as const;
export type SetKind = (typeof SET_KINDS)[number];

export interface SetRule {
  kind: SetKind;
  /** Difficulty levels 1 容易 … 5 困难, taken in turn. */
  levels: number[];
  count: number;
  /** The chosen chapter, or the whole unit (its top-level chapter). */
  scope: 'node' | 'unit';
}

export const SET_RULES: SetRule[] = [
  { kind: 'preview', levels: [1, 2], count: 5, scope: 'node' },
  { kind: 'homework', levels: [2, 3, 4], count: 8, scope: 'node' },
  { kind: 'classwork', levels: [2, 3], count: 6, scope: 'node' },
  { kind: 'unit', levels: [1, 2, 3, 4, 5], count: 15, scope: 'unit' },
];

/** Sets are filled in this order, so the short in-class and preview sets get the best-fitting questions first. */
const FILL_ORDER: SetKind[] = ['preview', 'classwork', 'homework', 'unit'];

/** Candidate questions by scope and difficulty level, in the bank's stable order. */
export type Pools = Record<'node' | 'unit', Record<number, Question[]>>;

/** Takes questions of one level alternating between types, so a set is not five of the same kind. */
function byTypeTurns(list: Question[]): Question[] {
  const groups = new Map<string, Question[]>();
  for (const q of list) groups.set(q.typeId, [...(groups.get(q.typeId) ?? []), q]);
  const out: Question[] = [];
  const queues = [...groups.values()];
  for (let i = 0; out.length < list.length; i++) {
    for (const g of queues) if (g[i]) out.push(g[i]!);
  }
  return out;
}

/** The levels outside a band, nearest first (the easier one first on a tie). */
export function fallbackLevels(band: number[]): number[] {
  const distance = (l: number) => Math.min(...band.map((b) => Math.abs(b - l)));
  return [1, 2, 3, 4, 5].filter((l) => !band.includes(l)).sort((a, b) => distance(a) - distance(b) || a - b);
}

/**
 * How many questions each chapter set gets: the planned sizes, or — when the chapter has fewer questions than the
 * three chapter sets need together — a fair share of what there is, so no set is left empty.
 */
export function quotas(available: number): Record<SetKind, number> {
  const chapterSets = SET_RULES.filter((r) => r.scope === 'node');
  const wanted = chapterSets.reduce((n, r) => n + r.count, 0);
  const out = Object.fromEntries(SET_RULES.map((r) => [r.kind, r.count])) as Record<SetKind, number>;
  if (available >= wanted) return out;
  let left = available;
  for (const r of chapterSets) {
    out[r.kind] = Math.min(left, Math.max(available > 0 ? 1 : 0, Math.floor((r.count * available) / wanted)));
    left -= out[r.kind];
  }
  // What rounding left over goes to the sets in fill order.
  for (const kind of FILL_ORDER) {
    const r = chapterSets.find((x) => x.kind === kind);
    if (!r || left <= 0) continue;
    const extra = Math.min(left, r.count - out[kind]);
    out[kind] += extra;
    left -= extra;
  }
  return out;
}

/**
 * Assembles the four sets from the pools: each set takes its difficulty band in turn (types alternating), then the
 * nearest levels when the band runs dry; no question is in two sets. The same bank gives the same sets every time.
 */
export function assembleSets(pools: Pools): Record<SetKind, Question[]> {
  const used = new Set<string>();
  const nodeIds = new Set(
    Object.values(pools.node)
      .flat()
      .map((q) => q.id),
  );
  const quota = quotas(nodeIds.size);
  const out = {} as Record<SetKind, Question[]>;
  for (const kind of FILL_ORDER) {
    const rule = SET_RULES.find((r) => r.kind === kind)!;
    const want = quota[kind];
    const picked: Question[] = [];
    const take = (levels: number[]) => {
      const queues = levels.map((l) =>
        byTypeTurns(pools[rule.scope][l] ?? []).filter((q) => !used.has(q.id)),
      );
      let progress = true;
      while (picked.length < want && progress) {
        progress = false;
        for (const queue of queues) {
          if (picked.length >= want) break;
          while (queue.length > 0 && used.has(queue[0]!.id)) queue.shift();
          const next = queue.shift();
          if (!next) continue;
          picked.push(next);
          used.add(next.id);
          progress = true;
        }
      }
    };
    take(rule.levels);
    for (const level of fallbackLevels(rule.levels)) take([level]);
    // Grouped by type, as a paper is.
    const typeOrder = new Map<string, number>();
    for (const q of picked) if (!typeOrder.has(q.typeId)) typeOrder.set(q.typeId, typeOrder.size);
    out[kind] = picked
      .map((q, i) => ({ q, i }))
      .sort((a, b) => typeOrder.get(a.q.typeId)! - typeOrder.get(b.q.typeId)! || a.i - b.i)
      .map((x) => x.q);
  }
  return out;
}

/** The top-level chapter (unit) that holds a node, or the node itself. */
export function unitOf(roots: TreeNode[], id: string): TreeNode | null {
  const has = (n: TreeNode): boolean => n.id === id || n.children.some(has);
  return roots.find(has) ?? null;
}

export function findNode(roots: TreeNode[], id: string): TreeNode | null {
  for (const n of roots) {
    if (n.id === id) return n;
    const hit = findNode(n.children, id);
    if (hit) return hit;
  }
  return null;
}
