import type { Kysely } from 'kysely';
import { itemStates } from './0033-judged-items.js';

// Frozen in time: never imports application code. The marking task list's counters (ADR 0071): `mark_items`, where
// each item of a block stands (class, done, open problem, verdict state, marks given up to the marks required, who
// marked it), and `mark_item_counts`, those items added up per (block, class, state) for everyone (user '') and per
// user for the items that user marked. Backfilled here from the answers, marks and problems by the rules of ADR 0031's
// grouped count as of this migration (`0033-judged-items.ts`, the frozen helper the host's counters build on); the
// host keeps both in step in every writing transaction. Depends on 0008, 0010.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mark_items')
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('sheet_id', 'text', (c) => c.notNull())
    .addColumn('class_id', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull())
    .addColumn('problem', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('given', 'integer', (c) => c.notNull())
    .addColumn('users', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('mark_items_pk', ['block_id', 'sheet_id'])
    .execute();
  await db.schema
    .createTable('mark_item_counts')
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('class_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull())
    .addColumn('problem', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('given', 'integer', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mark_item_counts_pk', [
      'block_id',
      'class_id',
      'user_id',
      'done',
      'problem',
      'state',
      'given',
    ])
    .execute();
  await backfill(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mark_item_counts').ifExists().execute();
  await db.schema.dropTable('mark_items').ifExists().execute();
}

interface Block {
  id: string;
  homework_id: string;
  question_ids: string;
  mode: string;
  threshold_tenths: number;
}

function questionsOf(b: Block): string[] {
  try {
    const parsed: unknown = JSON.parse(b.question_ids);
    return Array.isArray(parsed) && parsed.every((q) => typeof q === 'string') ? parsed : [];
  } catch {
    return [];
  }
}

/** Every block's items judged and counted, a few homework at a time. */
async function backfill(db: Kysely<any>): Promise<void> {
  const homework = (await db.selectFrom('mark_blocks').select('homework_id').distinct().execute()).map(
    (r: { homework_id: string }) => r.homework_id,
  );
  for (let i = 0; i < homework.length; i += 20) {
    const blocks: Block[] = await db
      .selectFrom('mark_blocks')
      .select(['id', 'homework_id', 'question_ids', 'mode', 'threshold_tenths'])
      .where('homework_id', 'in', homework.slice(i, i + 20))
      .execute();
    const judged = blocks.filter((b) => questionsOf(b).length > 0);
    if (judged.length === 0) continue;
    const ids = judged.map((b) => b.id);
    const states = await itemStates(
      db,
      judged.map((b) => ({
        id: b.id,
        homeworkId: b.homework_id,
        questionIds: questionsOf(b),
        required: b.mode === 'double' ? 2 : 1,
        thresholdTenths: b.threshold_tenths,
      })),
    );
    const usersOf = new Map<string, string[]>();
    const markers = await db
      .selectFrom('mark_marks')
      .select(['block_id', 'sheet_id', 'user_id'])
      .distinct()
      .where('block_id', 'in', ids)
      .execute();
    for (const m of markers as { block_id: string; sheet_id: string; user_id: string }[]) {
      const k = `${m.block_id}\u0000${m.sheet_id}`;
      if (!usersOf.has(k)) usersOf.set(k, []);
      usersOf.get(k)!.push(m.user_id);
    }
    // Per counter key, the counter row itself (so nothing is parsed back from the key).
    const counts = new Map<string, Record<string, string | number>>();
    const items = states.map((s) => {
      const users = [...new Set(usersOf.get(`${s.block_id}\u0000${s.sheet_id}`) ?? [])].sort();
      const row = {
        block_id: s.block_id,
        sheet_id: s.sheet_id,
        class_id: s.class_id,
        done: Number(s.done),
        problem: Number(s.problem),
        state: s.state,
        given: Number(s.given),
        users: JSON.stringify(users),
      };
      for (const u of ['', ...users]) {
        const count = {
          block_id: row.block_id,
          class_id: row.class_id,
          user_id: u,
          done: row.done,
          problem: row.problem,
          state: row.state,
          given: row.given,
        };
        const k = JSON.stringify(Object.values(count));
        const before = counts.get(k);
        counts.set(k, { ...count, items: Number(before?.items ?? 0) + 1 });
      }
      return row;
    });
    for (let j = 0; j < items.length; j += 200)
      await db
        .insertInto('mark_items')
        .values(items.slice(j, j + 200))
        .execute();
    const countRows = [...counts.values()];
    for (let j = 0; j < countRows.length; j += 200)
      await db
        .insertInto('mark_item_counts')
        .values(countRows.slice(j, j + 200))
        .execute();
  }
}
