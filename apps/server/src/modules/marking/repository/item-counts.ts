import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MarkItemsTable } from '../../../db/schema.js';
import { marksRequired } from '../../results/scoring.js';
import type { ItemGroup, SummaryBlock } from './item-queries.js';
import { IdsSchema, parseStored } from './stored.js';
import { itemStates, type ItemStateRow } from '../../../db/migrations/0033-judged-items.js';

// The task list's item counts, maintained (migration 0033, ADR 0071). `mark_items` holds where each item of a block
// stands (class, done, problem, verdict state, marks given, who marked it); `mark_item_counts` adds them up per
// (block, class, state) — once for all items (user ''), once per user for the items that user marked. Every write
// that can move an item calls `refreshItemCounts` for the items it touched, in its own transaction: the item's state
// is judged again from the tables by the same SQL as the grouped recount (`itemStates`), compared with the stored
// one, and only the difference is added to the counters. The task list then reads a few rows per block, however
// many items the block has.

type Db = Kysely<Database>;

/** A block row as the counters judge its items. */
export interface CountedBlockRow {
  id: string;
  homework_id: string;
  question_ids: string;
  mode: string;
  threshold_tenths: number;
}

/** What judging a block's items needs, from its row (the same rules as the block's context). */
export function summaryOf(b: CountedBlockRow): SummaryBlock {
  return {
    id: b.id,
    homeworkId: b.homework_id,
    // Not JSON, or not a list of ids: a block without questions has no items.
    questionIds: parseStored(IdsSchema, b.question_ids, []),
    required: marksRequired(b.mode === 'double' ? 'double' : 'single'),
    thresholdTenths: b.threshold_tenths,
  };
}

const BLOCK_COLUMNS = ['id', 'homework_id', 'question_ids', 'mode', 'threshold_tenths'] as const;

/** Runs `fn` in the caller's transaction, or in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** The counters of some items after a write to their sheets: every block of the sheets' homework. */
export async function refreshSheetItems(db: Db, sheetIds: readonly string[]): Promise<void> {
  if (sheetIds.length === 0) return;
  await inTransaction(db, async (trx) => {
    const blocks = await trx
      .selectFrom('mark_blocks as b')
      .select(BLOCK_COLUMNS.map((c) => `b.${c}` as const))
      .where(
        'b.homework_id',
        'in',
        trx
          .selectFrom('sheets')
          .select('homework_id')
          .where('id', 'in', [...sheetIds]),
      )
      .execute();
    await refresh(trx, blocks.map(summaryOf), sheetIds);
  });
}

/** The counters of some items of one block after a write to its marks or problems. */
export async function refreshBlockItems(db: Db, blockId: string, sheetIds: readonly string[]): Promise<void> {
  if (sheetIds.length === 0) return;
  await inTransaction(db, async (trx) => {
    const block = await trx
      .selectFrom('mark_blocks')
      .select(BLOCK_COLUMNS)
      .where('id', '=', blockId)
      .executeTakeFirst();
    // A deleted block's items are gone with it (`recountBlocks`).
    if (block) await refresh(trx, [summaryOf(block)], sheetIds);
  });
}

/**
 * Counts some blocks' items again from scratch: after a block is made, regrouped, switched between single and double
 * marking or given another threshold, or deleted (then its counters go), and for data written set-based.
 */
export async function recountBlocks(db: Db, blockIds: readonly string[]): Promise<void> {
  if (blockIds.length === 0) return;
  await inTransaction(db, async (trx) => {
    const blocks = await trx
      .selectFrom('mark_blocks')
      .select(BLOCK_COLUMNS)
      .where('id', 'in', [...blockIds])
      .execute();
    const gone = blockIds.filter((id) => !blocks.some((b) => b.id === id));
    if (gone.length > 0) {
      await trx.deleteFrom('mark_item_counts').where('block_id', 'in', gone).execute();
      await trx.deleteFrom('mark_items').where('block_id', 'in', gone).execute();
    }
    await refresh(trx, blocks.map(summaryOf));
  });
}

/** Every block of some homework counted again (a district written set-based, the migration's backfill). */
export async function recountHomework(db: Db, homeworkIds: readonly string[]): Promise<void> {
  if (homeworkIds.length === 0) return;
  const blocks = await db
    .selectFrom('mark_blocks')
    .select('id')
    .where('homework_id', 'in', [...homeworkIds])
    .execute();
  await recountBlocks(
    db,
    blocks.map((b) => b.id),
  );
}

/** One counter of `mark_item_counts`: items of a block and class in one state, for everyone (user '') or a user. */
interface Counter {
  block_id: string;
  class_id: string;
  user_id: string;
  done: number;
  problem: number;
  state: string;
  given: number;
}

const counterOf = (s: ItemStateRow, user: string): Counter => ({
  block_id: s.block_id,
  class_id: s.class_id,
  user_id: user,
  done: s.done,
  problem: s.problem,
  state: s.state,
  given: s.given,
});

const sameState = (a: StoredItem, b: ItemStateRow & { users: string }) =>
  a.class_id === b.class_id &&
  Number(a.done) === b.done &&
  Number(a.problem) === b.problem &&
  a.state === b.state &&
  Number(a.given) === b.given &&
  a.users === b.users;

/** An item as `mark_items` holds it. */
type StoredItem = Selectable<MarkItemsTable>;

const CHUNK = 200;

const itemKey = (r: { block_id: string; sheet_id: string }) => `${r.block_id}\u0000${r.sheet_id}`;

/** Judges the items of some blocks (on some sheets, or all) again and moves the counters by the difference. */
async function refresh(trx: Db, blocks: SummaryBlock[], sheetIds?: readonly string[]): Promise<void> {
  if (blocks.length === 0) return;
  await lockSheets(trx, blocks, sheetIds);
  const fresh = await itemStates(trx, blocks, sheetIds);
  const usersOf = await markersOfItems(trx, blocks, sheetIds);
  const old = await storedItems(trx, blocks, sheetIds);
  const delta = new CounterDelta();
  const upserts: StoredItem[] = [];
  for (const s of fresh) {
    const k = itemKey(s);
    const users = [...new Set(usersOf.get(k) ?? [])].sort();
    const now = { ...s, users: JSON.stringify(users) };
    const before = old.get(k);
    old.delete(k);
    if (before && sameState(before, now)) continue;
    if (before) delta.move(storedState(before), usersOfStored(before), -1);
    delta.move(s, users, 1);
    upserts.push(now);
  }
  // Items that are no longer items (their sheet lost what made it one).
  for (const before of old.values()) delta.move(storedState(before), usersOfStored(before), -1);
  await writeItems(trx, [...old.values()], upserts);
  await delta.write(trx);
}

/**
 * Two writers of the same item take turns: the first one's sheet lock holds the second until it commits, so the
 * second judges from the first's data and subtracts the state the first stored (a write on both databases; on SQLite
 * the transaction already holds the database).
 */
async function lockSheets(trx: Db, blocks: SummaryBlock[], sheetIds?: readonly string[]): Promise<void> {
  const lock = trx.updateTable('sheets').set((eb) => ({ id: eb.ref('id') }));
  if (sheetIds) await lock.where('id', 'in', [...sheetIds]).execute();
  else await lock.where('homework_id', 'in', [...new Set(blocks.map((b) => b.homeworkId))]).execute();
}

/** Who marked each item (block, sheet) of some blocks. */
async function markersOfItems(
  trx: Db,
  blocks: SummaryBlock[],
  sheetIds?: readonly string[],
): Promise<Map<string, string[]>> {
  let markers = trx
    .selectFrom('mark_marks')
    .select(['block_id', 'sheet_id', 'user_id'])
    .distinct()
    .where(
      'block_id',
      'in',
      blocks.map((b) => b.id),
    );
  if (sheetIds) markers = markers.where('sheet_id', 'in', [...sheetIds]);
  const usersOf = new Map<string, string[]>();
  for (const m of await markers.execute()) {
    const k = itemKey(m);
    if (!usersOf.has(k)) usersOf.set(k, []);
    usersOf.get(k)!.push(m.user_id);
  }
  return usersOf;
}

/** The items of some blocks as `mark_items` holds them, by item key. */
async function storedItems(
  trx: Db,
  blocks: SummaryBlock[],
  sheetIds?: readonly string[],
): Promise<Map<string, StoredItem>> {
  let stored = trx
    .selectFrom('mark_items')
    .selectAll()
    .where(
      'block_id',
      'in',
      blocks.map((b) => b.id),
    );
  if (sheetIds) stored = stored.where('sheet_id', 'in', [...sheetIds]);
  return new Map((await stored.execute()).map((r) => [itemKey(r), r]));
}

/** Deletes the items that are gone and writes the items whose state moved. */
async function writeItems(trx: Db, gone: StoredItem[], upserts: StoredItem[]): Promise<void> {
  for (const rows of chunks(gone, CHUNK))
    await trx
      .deleteFrom('mark_items')
      .where((eb) =>
        eb.or(rows.map((g) => eb.and([eb('block_id', '=', g.block_id), eb('sheet_id', '=', g.sheet_id)]))),
      )
      .execute();
  for (const rows of chunks(upserts, CHUNK))
    await trx
      .insertInto('mark_items')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['block_id', 'sheet_id']).doUpdateSet((eb) => ({
          class_id: eb.ref('excluded.class_id'),
          done: eb.ref('excluded.done'),
          problem: eb.ref('excluded.problem'),
          state: eb.ref('excluded.state'),
          given: eb.ref('excluded.given'),
          users: eb.ref('excluded.users'),
        })),
      )
      .execute();
}

/** The counters an item's state moves (everyone's and each of its markers'), added up before they are written. */
class CounterDelta {
  private readonly by = new Map<string, { counter: Counter; items: number }>();

  move(s: ItemStateRow, users: string[], by: number): void {
    for (const u of ['', ...users]) {
      const counter = counterOf(s, u);
      const key = JSON.stringify(Object.values(counter));
      this.by.set(key, { counter, items: (this.by.get(key)?.items ?? 0) + by });
    }
  }

  /** Adds the differences to the counters and drops the counters left at no items. */
  async write(trx: Db): Promise<void> {
    const changes = [...this.by.values()].filter((c) => c.items !== 0);
    for (const rows of chunks(changes, CHUNK))
      await trx
        .insertInto('mark_item_counts')
        .values(rows.map(({ counter, items }) => ({ ...counter, items })))
        .onConflict((oc) =>
          oc
            .columns(['block_id', 'class_id', 'user_id', 'done', 'problem', 'state', 'given'])
            .doUpdateSet({ items: sql<number>`mark_item_counts.items + excluded.items` }),
        )
        .execute();
    if (changes.length > 0)
      await trx
        .deleteFrom('mark_item_counts')
        .where('block_id', 'in', [...new Set(changes.map((c) => c.counter.block_id))])
        .where('items', '=', 0)
        .execute();
  }
}

/** Who marked a stored item (`users`, a JSON list of user ids). */
const usersOfStored = (r: StoredItem): string[] => parseStored(IdsSchema, r.users, []);

const storedState = (r: StoredItem): ItemStateRow => ({
  block_id: r.block_id,
  sheet_id: r.sheet_id,
  class_id: r.class_id,
  done: Number(r.done),
  problem: Number(r.problem),
  state: r.state as ItemStateRow['state'],
  given: Number(r.given),
});

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * The task list's item groups of some blocks for one user, read from the counters: the same rows as the grouped
 * recount (`MarkingItemQueries.itemGroups`), groups of no items left out.
 */
export async function countedGroups(
  db: Db,
  blockIds: readonly string[],
  userId: string,
): Promise<ItemGroup[]> {
  if (blockIds.length === 0) return [];
  const rows = await db
    .selectFrom('mark_item_counts')
    .select(['block_id', 'class_id', 'user_id', 'done', 'problem', 'state', 'given', 'items'])
    .where('block_id', 'in', [...blockIds])
    .where('user_id', 'in', ['', userId])
    .where('items', '<>', 0)
    .execute();
  const mine = new Map<string, number>();
  const groupKey = (r: (typeof rows)[number]) =>
    JSON.stringify([r.block_id, r.class_id, Number(r.done), Number(r.problem), r.state, Number(r.given)]);
  for (const r of rows) if (r.user_id !== '') mine.set(groupKey(r), Number(r.items));
  const out: ItemGroup[] = [];
  for (const r of rows) {
    if (r.user_id !== '') continue;
    const group = {
      blockId: r.block_id,
      classId: r.class_id,
      done: Number(r.done) === 1,
      problem: Number(r.problem) === 1,
      state: r.state as ItemGroup['state'],
      given: Number(r.given),
    };
    const marked = mine.get(groupKey(r)) ?? 0;
    if (marked > 0) out.push({ ...group, mine: true, items: marked });
    if (Number(r.items) - marked > 0) out.push({ ...group, mine: false, items: Number(r.items) - marked });
  }
  return out;
}

/** A block's task-list figures for one user, added up from the counters in the database (`blockFigures`). */
export interface BlockFigures {
  items: number;
  done: number;
  /** Marks given (not arbitrations), at most the marks required per item. */
  marks: number;
  /** Not done, waiting for the arbiter. */
  arbitration: number;
  /** Not done, with an open problem. */
  problems: number;
  /** Not done, no problem, waiting for the arbiter: what the block's arbiter has to decide. */
  toArbitrate: number;
  /** Items the user gave a mark to. */
  myMarks: number;
  /** Open items of the classes the user marks, without a problem, that the user has not marked yet. */
  myRemaining: number;
}

export const NO_FIGURES: BlockFigures = {
  items: 0,
  done: 0,
  marks: 0,
  arbitration: 0,
  problems: 0,
  toArbitrate: 0,
  myMarks: 0,
  myRemaining: 0,
};

/**
 * The task list's figures of some blocks for one user, one row per block, summed in the database from the counters
 * (everyone's row and the user's) by the rules of `taskFor()`: the user's remaining items are the open ones of the
 * classes they mark (`mark_markers`, '' = every class), without a problem, less those they marked. A block whose
 * items are all gone has no row (its figures are `NO_FIGURES`).
 */
export async function blockFigures(
  db: Db,
  blockIds: readonly string[],
  userId: string,
): Promise<Map<string, BlockFigures>> {
  const out = new Map<string, BlockFigures>();
  if (blockIds.length === 0) return out;
  const all = sql`c.user_id = ''`;
  const waiting = sql`c.done = 0 AND c.problem = 0`;
  const marksClass = sql`EXISTS (SELECT 1 FROM mark_markers m WHERE m.block_id = c.block_id AND m.user_id = ${userId}
    AND m.class_id IN ('', c.class_id))`;
  const { rows } = await sql<Record<keyof BlockFigures | 'block_id', string | number>>`
    SELECT c.block_id,
      SUM(CASE WHEN ${all} THEN c.items ELSE 0 END) AS items,
      SUM(CASE WHEN ${all} AND c.done = 1 THEN c.items ELSE 0 END) AS done,
      SUM(CASE WHEN ${all} THEN c.given * c.items ELSE 0 END) AS marks,
      SUM(CASE WHEN ${all} AND c.done = 0 AND c.state = 'arbitration' THEN c.items ELSE 0 END) AS arbitration,
      SUM(CASE WHEN ${all} AND c.done = 0 AND c.problem = 1 THEN c.items ELSE 0 END) AS problems,
      SUM(CASE WHEN ${all} AND ${waiting} AND c.state = 'arbitration' THEN c.items ELSE 0 END) AS "toArbitrate",
      SUM(CASE WHEN ${all} THEN 0 ELSE c.items END) AS "myMarks",
      SUM(CASE WHEN ${waiting} AND c.state = 'open' AND ${marksClass}
        THEN (CASE WHEN ${all} THEN c.items ELSE -c.items END) ELSE 0 END) AS "myRemaining"
    FROM mark_item_counts c
    WHERE c.block_id IN (${sql.join([...blockIds])}) AND c.user_id IN ('', ${userId})
    GROUP BY c.block_id
  `.execute(db);
  for (const r of rows) {
    const figures = { ...NO_FIGURES };
    for (const k of Object.keys(NO_FIGURES) as (keyof BlockFigures)[]) figures[k] = Number(r[k] ?? 0);
    out.set(String(r.block_id), figures);
  }
  return out;
}
