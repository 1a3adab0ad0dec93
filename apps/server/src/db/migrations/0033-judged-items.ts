import { sql, type Kysely } from 'kysely';

// Frozen with migration 0033 (not a migration itself: `migrate.ts` lists the migrations). How one item of a marking
// block stands, judged from the answers, marks and problems by the rules of ADR 0031's grouped count: the migration's
// backfill fills the counters with it, and the host's counters and grouped recount
// (`modules/marking/repository/item-counts.ts`) build on it, so the rules are written once. Never imports application
// code. A change of the rules is a new helper beside a new migration; this one stays as 0033 ran it.

/** A block as its items are judged. */
export interface JudgedBlock {
  id: string;
  homeworkId: string;
  questionIds: string[];
  /** Marks before an item is final (1 single, 2 double). */
  required: number;
  thresholdTenths: number;
}

/**
 * `WITH … judged AS (…)`: every item of some blocks (on some sheets, or all) judged — block, sheet, class, done,
 * problem, state, marks given (at most the marks required) and whether `userId` marked it. Undefined when the blocks
 * have no questions.
 */
export function judgedItems(blocks: JudgedBlock[], userId: string | null, sheetIds?: readonly string[]) {
  const pairs = blocks.flatMap((b) =>
    [...new Set(b.questionIds)].map((q) => sql`(${b.homeworkId}, ${b.id}, ${q})`),
  );
  if (pairs.length === 0 || sheetIds?.length === 0) return undefined;
  const rules = blocks.map(
    (b) =>
      sql`(${b.id}, CAST(${b.questionIds.length} AS integer), CAST(${b.required} AS integer), CAST(${b.thresholdTenths} AS integer))`,
  );
  const blockIds = blocks.map((b) => b.id);
  const answersOn = sheetIds ? sql`WHERE a.sheet_id IN (${sql.join([...sheetIds])})` : sql``;
  const marksOn = sheetIds ? sql`AND m.sheet_id IN (${sql.join([...sheetIds])})` : sql``;
  return sql`
      WITH qb (homework_id, block_id, question_id) AS (VALUES ${sql.join(pairs)}),
      rules (block_id, questions, required, threshold) AS (VALUES ${sql.join(rules)}),
      items AS (
        SELECT qb.block_id, a.sheet_id, s.class_id, COUNT(*) AS n,
               MAX(CASE WHEN a.crop_path IS NOT NULL OR a.blank = 1 THEN 1 ELSE 0 END) AS visible,
               MIN(CASE WHEN a.score_tenths IS NULL THEN 0 ELSE 1 END) AS scored
        FROM sheet_answers a
        INNER JOIN qb ON qb.homework_id = a.homework_id AND qb.question_id = a.question_id
        INNER JOIN sheets s ON s.id = a.sheet_id
        ${answersOn}
        GROUP BY qb.block_id, a.sheet_id, s.class_id
      ),
      ranked AS (
        SELECT m.block_id, m.sheet_id, m.kind, m.user_id, m.total_tenths,
               ROW_NUMBER() OVER (
                 PARTITION BY m.block_id, m.sheet_id, CASE WHEN m.kind = 'arbitration' THEN 1 ELSE 0 END
                 ORDER BY m.created_at, m.id
               ) AS rn
        FROM mark_marks m
        WHERE m.block_id IN (${sql.join(blockIds)}) ${marksOn}
      ),
      marked AS (
        SELECT block_id, sheet_id,
               SUM(CASE WHEN kind = 'arbitration' THEN 0 ELSE 1 END) AS given,
               SUM(CASE WHEN kind = 'arbitration' THEN 1 ELSE 0 END) AS arbitrations,
               MAX(CASE WHEN user_id = ${userId} THEN 1 ELSE 0 END) AS mine,
               MAX(CASE WHEN kind <> 'arbitration' AND rn = 1 THEN total_tenths END) AS first_total,
               MAX(CASE WHEN kind <> 'arbitration' AND rn = 2 THEN total_tenths END) AS second_total
        FROM ranked
        GROUP BY block_id, sheet_id
      ),
      judged AS (
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
               CASE WHEN COALESCE(k.given, 0) < r.required THEN COALESCE(k.given, 0) ELSE r.required END AS given,
               COALESCE(k.mine, 0) AS mine
        FROM items i
        INNER JOIN rules r ON r.block_id = i.block_id
        LEFT JOIN marked k ON k.block_id = i.block_id AND k.sheet_id = i.sheet_id
        LEFT JOIN mark_problems p
          ON p.block_id = i.block_id AND p.sheet_id = i.sheet_id AND p.resolved_at IS NULL
        WHERE i.visible = 1
      )`;
}

/** Where one item of a block stands (the counters' unit, migration 0033). */
export interface ItemStateRow {
  block_id: string;
  sheet_id: string;
  class_id: string;
  done: number;
  problem: number;
  state: 'open' | 'final' | 'arbitration';
  given: number;
}

/** Every item of some blocks (on some sheets, or all) as it stands now: what the counters hold per item. */
export async function itemStates(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- frozen: no application schema
  db: Kysely<any>,
  blocks: JudgedBlock[],
  sheetIds?: readonly string[],
): Promise<ItemStateRow[]> {
  const judged = judgedItems(blocks, null, sheetIds);
  if (!judged) return [];
  const { rows } = await sql<ItemStateRow>`
      ${judged}
      SELECT block_id, sheet_id, class_id, done, problem, state, given FROM judged
    `.execute(db);
  return rows.map((r) => ({
    ...r,
    done: Number(r.done),
    problem: Number(r.problem),
    given: Number(r.given),
  }));
}
