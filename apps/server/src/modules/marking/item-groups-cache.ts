import type { ItemGroupRow, MarkingRepository, SummaryBlock } from './repository.js';
import { ITEMS_KEY } from './repository.js';

/** Blocks' counts kept at most; a school's task list lists a few hundred, a district host serves some schools. */
const MAX_ENTRIES = 20_000;

interface Entry {
  stamp: string;
  rows: Promise<ItemGroupRow[]>;
}

/**
 * The task list's item counts per block and user, kept while nothing they count has changed (ADR 0047). The stamp
 * of a block is its homework's results version (every write of a sheet or answer moves it), its school's context
 * version (students, classes, homework) and the block's items version (marks, problems, the block itself), all read
 * in one query per call; only blocks whose stamp moved are counted again, in one query. The versions are read before
 * counting, so a write that lands in between leaves newer counts under an older stamp, which the next call replaces.
 * Counts in flight are shared: 200 callers at once count a block once.
 */
export class ItemGroupsCache {
  private readonly entries = new Map<string, Entry>();

  async groups(
    repo: MarkingRepository,
    orgId: string,
    blocks: SummaryBlock[],
    userId: string,
  ): Promise<ItemGroupRow[]> {
    if (blocks.length === 0) return [];
    const context = `context:${orgId}`;
    const versions = await repo.versions([
      context,
      ...new Set(blocks.map((b) => b.homeworkId)),
      ...blocks.map((b) => `${ITEMS_KEY}${b.id}`),
    ]);
    const stampOf = (b: SummaryBlock) =>
      `${versions.get(context)}:${versions.get(b.homeworkId)}:${versions.get(`${ITEMS_KEY}${b.id}`)}`;
    const keyOf = (b: SummaryBlock) =>
      `${b.id}\u0000${userId}\u0000${b.required}\u0000${b.thresholdTenths}\u0000${b.questionIds.join(',')}`;
    const stale = blocks.filter((b) => this.entries.get(keyOf(b))?.stamp !== stampOf(b));
    const pending = new Map<string, Promise<ItemGroupRow[]>>();
    if (stale.length > 0) {
      const counted = repo.itemGroups(stale, userId);
      const added: [string, Entry][] = [];
      for (const b of stale) {
        const key = keyOf(b);
        const entry = {
          stamp: stampOf(b),
          rows: counted.then((rows) => rows.filter((r) => r.block_id === b.id)),
        };
        this.entries.delete(key);
        this.entries.set(key, entry);
        added.push([key, entry]);
        pending.set(key, entry.rows);
      }
      // A failed count is not kept: the next call counts again.
      counted.catch(() => {
        for (const [key, entry] of added) if (this.entries.get(key) === entry) this.entries.delete(key);
      });
      while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    const out = await Promise.all(
      blocks.map((b) => pending.get(keyOf(b)) ?? this.entries.get(keyOf(b))!.rows),
    );
    return out.flat();
  }
}
