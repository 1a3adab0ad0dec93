import { sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. The marking task list's counters (ADR 0071): `mark_items`, where
// each item of a block stands (class, done, open problem, verdict state, marks given up to the marks required, who
// marked it), and `mark_item_counts`, those items added up per (block, class, state) for everyone (user '') and per
// user for the items that user marked. Backfilled here from the answers, marks and problems by the rules of ADR 0031's
// grouped count (as of this migration); the host keeps both in step in every writing transaction. Depends on 0008,
// 0010.

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
    const pairs = judged.flatMap((b) =>
      [...new Set(questionsOf(b))].map((q) => sql`(${b.homework_id}, ${b.id}, ${q})`),
    );
    const rules = judged.map(
      (b) =>
        sql`(${b.id}, CAST(${questionsOf(b).length} AS integer), CAST(${b.mode === 'double' ? 2 : 1} AS integer), CAST(${b.threshold_tenths} AS integer))`,
    );
    const ids = judged.map((b) => b.id);
    const { rows: states } = await sql<{
      block_id: string;
      sheet_id: string;
      class_id: string;
      done: number;
      problem: number;
      state: string;
      given: number;
    }>`
      WITH qb (homework_id, block_id, question_id) AS (VALUES ${sql.join(pairs)}),
      rules (block_id, questions, required, threshold) AS (VALUES ${sql.join(rules)}),
      items AS (
        SELECT qb.block_id, a.sheet_id, s.class_id, COUNT(*) AS n,
               MAX(CASE WHEN a.crop_path IS NOT NULL OR a.blank = 1 THEN 1 ELSE 0 END) AS visible,
               MIN(CASE WHEN a.score_tenths IS NULL THEN 0 ELSE 1 END) AS scored
        FROM sheet_answers a
        INNER JOIN qb ON qb.homework_id = a.homework_id AND qb.question_id = a.question_id
        INNER JOIN sheets s ON s.id = a.sheet_id
        GROUP BY qb.block_id, a.sheet_id, s.class_id
      ),
      ranked AS (
        SELECT m.block_id, m.sheet_id, m.kind, m.total_tenths,
               ROW_NUMBER() OVER (
                 PARTITION BY m.block_id, m.sheet_id, CASE WHEN m.kind = 'arbitration' THEN 1 ELSE 0 END
                 ORDER BY m.created_at, m.id
               ) AS rn
        FROM mark_marks m
        WHERE m.block_id IN (${sql.join(ids)})
      ),
      marked AS (
        SELECT block_id, sheet_id,
               SUM(CASE WHEN kind = 'arbitration' THEN 0 ELSE 1 END) AS given,
               SUM(CASE WHEN kind = 'arbitration' THEN 1 ELSE 0 END) AS arbitrations,
               MAX(CASE WHEN kind <> 'arbitration' AND rn = 1 THEN total_tenths END) AS first_total,
               MAX(CASE WHEN kind <> 'arbitration' AND rn = 2 THEN total_tenths END) AS second_total
        FROM ranked
        GROUP BY block_id, sheet_id
      )
      SELECT i.block_id, i.sheet_id, i.class_id,
             CASE WHEN i.n = r.questions AND i.scored = 1 THEN 1 ELSE 0 END AS done,
             CASE WHEN p.sheet_id IS NULL THEN 0 ELSE 1 END AS problem,
             CASE
               WHEN COALESCE(k.arbitrations, 0) > 0 THEN 'final'
               WHEN COALESCE(k.given, 0) < r.required THEN 'open'
               WHEN r.required = 1 THEN 'final'
               WHEN ABS(k.first_total - k.second_total) > r.threshold THEN 'arbitration'
               ELSE 'final'
             END AS state,
             CASE WHEN COALESCE(k.given, 0) < r.required THEN COALESCE(k.given, 0) ELSE r.required END AS given
      FROM items i
      INNER JOIN rules r ON r.block_id = i.block_id
      LEFT JOIN marked k ON k.block_id = i.block_id AND k.sheet_id = i.sheet_id
      LEFT JOIN mark_problems p
        ON p.block_id = i.block_id AND p.sheet_id = i.sheet_id AND p.resolved_at IS NULL
      WHERE i.visible = 1
    `.execute(db);
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
