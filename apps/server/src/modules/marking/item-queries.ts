import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, MarkMarksTable } from '../../db/schema.js';
import { countedGroups, judgedItems, refreshBlockItems } from './item-counts.js';

// The SQL of marking's items: the answers a block marks, the marks given, problems flagged, claims held and crop
// hashes. `MarkingRepository` (repository.ts) adds homework, people, blocks and rubrics on top of it.

export type MarkRow = Selectable<MarkMarksTable>;

type Db = Kysely<Database>;

/** One written answer of a sheet as marking reads it. */
export interface ItemAnswerRow {
  sheet_id: string;
  class_id: string;
  student_id: string;
  question_id: string;
  crop_path: string | null;
  blank: number;
  full_score_tenths: number;
  score_tenths: number | null;
}

/** A block as the task summary judges its items: its questions and the marks an item needs. */
export interface SummaryBlock {
  id: string;
  homeworkId: string;
  questionIds: string[];
  /** Marks before an item is final (1 single, 2 double). */
  required: number;
  thresholdTenths: number;
}

/** Items of a block that stand alike: same class, done or not, problem or not, verdict, marks and the user's mark. */
export interface ItemGroupRow {
  block_id: string;
  class_id: string;
  /** Every answer of the item has a score. */
  done: number;
  /** An open problem is flagged on it. */
  problem: number;
  state: 'open' | 'final' | 'arbitration';
  /** Marks (not arbitrations) it has, at most the marks required. */
  given: number;
  /** The user gave one of its marks. */
  mine: number;
  items: number;
}

export class MarkingItemQueries {
  constructor(protected readonly db: Db) {}

  // ───────────── items ─────────────

  /** The answers of a homework's sheets to some questions (the items of a block). */
  itemAnswers(homeworkId: string, questionIds: string[], sheetIds?: string[]): Promise<ItemAnswerRow[]> {
    if (questionIds.length === 0 || (sheetIds && sheetIds.length === 0)) return Promise.resolve([]);
    let q = this.db
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .innerJoin('students as st', 'st.id', 's.student_id')
      .select([
        'a.sheet_id',
        's.class_id',
        's.student_id',
        'a.question_id',
        'a.crop_path',
        'a.blank',
        'a.full_score_tenths',
        'a.score_tenths',
      ])
      .where('a.homework_id', '=', homeworkId)
      .where('a.question_id', 'in', questionIds);
    if (sheetIds) q = q.where('a.sheet_id', 'in', sheetIds);
    return q.orderBy('s.class_id').orderBy('st.student_no').orderBy('a.sheet_id').execute();
  }

  /**
   * The items of some blocks (of any homework), counted in groups that stand alike (see ItemGroupRow) — the task list's
   * figures without reading every item. Same rules as the service's items() and verdictOf(): an item is a sheet
   * with a crop or a blank box for one of the block's questions; it is done when every question has a scored
   * answer; an arbitration makes it final; fewer marks than required leave it open; two marks of a double block
   * further apart than the threshold send it to arbitration.
   */
  async itemGroups(blocks: SummaryBlock[], userId: string): Promise<ItemGroupRow[]> {
    const judged = judgedItems(blocks, userId);
    if (!judged) return [];
    const { rows } = await sql<ItemGroupRow>`
      ${judged}
      SELECT block_id, class_id, done, problem, state, given, mine, COUNT(*) AS items
      FROM judged
      GROUP BY block_id, class_id, done, problem, state, given, mine
    `.execute(this.db);
    return rows.map((r) => ({
      ...r,
      done: Number(r.done),
      problem: Number(r.problem),
      given: Number(r.given),
      mine: Number(r.mine),
      items: Number(r.items),
    }));
  }

  /** The item groups of some blocks for one user, from the maintained counters (migration 0033, ADR 0071). */
  countedGroups(blockIds: string[], userId: string): Promise<ItemGroupRow[]> {
    return countedGroups(this.db, blockIds, userId);
  }

  marksOf(blockId: string, sheetIds?: string[]) {
    if (sheetIds && sheetIds.length === 0) return Promise.resolve([]);
    let q = this.db
      .selectFrom('mark_marks as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select('u.nickname')
      .where('m.block_id', '=', blockId);
    if (sheetIds) q = q.where('m.sheet_id', 'in', sheetIds);
    return q.orderBy('m.created_at').orderBy('m.id').execute();
  }

  async insertMark(row: Insertable<MarkMarksTable>): Promise<void> {
    await this.inTransaction(async (db) => {
      await db.insertInto('mark_marks').values(row).execute();
      await refreshBlockItems(db, row.block_id, [row.sheet_id]);
    });
  }

  async updateMark(id: string, set: Partial<MarkRow>): Promise<void> {
    await this.inTransaction(async (db) => {
      await db.updateTable('mark_marks').set(set).where('id', '=', id).execute();
      const mark = await db
        .selectFrom('mark_marks')
        .select(['block_id', 'sheet_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (mark) await refreshBlockItems(db, mark.block_id, [mark.sheet_id]);
    });
  }

  /** Runs a write and the item counters it moves in one transaction (the caller's, or a new one). */
  protected inTransaction(fn: (db: Db) => Promise<void>): Promise<void> {
    return this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn);
  }

  async countMarks(blockIds: string[]) {
    if (blockIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('mark_marks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('block_id', 'in', blockIds)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  myMarksPage(blockId: string, userId: string, offset: number, limit: number) {
    return this.db
      .selectFrom('mark_marks')
      .selectAll()
      .where('block_id', '=', blockId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async countMyMarks(blockId: string, userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('mark_marks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('block_id', '=', blockId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  openProblems(blockId: string) {
    return this.db
      .selectFrom('mark_problems as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.sheet_id', 'p.note', 'p.user_id', 'u.nickname', 'p.created_at'])
      .where('p.block_id', '=', blockId)
      .where('p.resolved_at', 'is', null)
      .orderBy('p.created_at')
      .execute();
  }

  async flagProblem(row: { block_id: string; sheet_id: string; user_id: string; note: string; now: string }) {
    await this.inTransaction(async (db) => {
      await db
        .deleteFrom('mark_problems')
        .where('block_id', '=', row.block_id)
        .where('sheet_id', '=', row.sheet_id)
        .execute();
      await db
        .insertInto('mark_problems')
        .values({
          block_id: row.block_id,
          sheet_id: row.sheet_id,
          user_id: row.user_id,
          note: row.note,
          created_at: row.now,
          resolved_at: null,
        })
        .execute();
      await refreshBlockItems(db, row.block_id, [row.sheet_id]);
    });
  }

  async resolveProblem(blockId: string, sheetId: string, now: string): Promise<void> {
    await this.inTransaction(async (db) => {
      const [result] = await db
        .updateTable('mark_problems')
        .set({ resolved_at: now })
        .where('block_id', '=', blockId)
        .where('sheet_id', '=', sheetId)
        .where('resolved_at', 'is', null)
        .execute();
      if (Number(result?.numUpdatedRows ?? 0) > 0) await refreshBlockItems(db, blockId, [sheetId]);
    });
  }

  /** Reservations not yet expired. */
  activeClaims(blockId: string, now: string) {
    return this.db
      .selectFrom('mark_claims')
      .select(['sheet_id', 'user_id'])
      .where('block_id', '=', blockId)
      .where('expires_at', '>', now)
      .execute();
  }

  async claim(blockId: string, userId: string, sheetIds: string[], expiresAt: string): Promise<void> {
    if (sheetIds.length === 0) return;
    await this.db
      .deleteFrom('mark_claims')
      .where('block_id', '=', blockId)
      .where('user_id', '=', userId)
      .where('sheet_id', 'in', sheetIds)
      .execute();
    await this.db
      .insertInto('mark_claims')
      .values(
        sheetIds.map((sheet_id) => ({ block_id: blockId, sheet_id, user_id: userId, expires_at: expiresAt })),
      )
      .execute();
  }

  async release(blockId: string, sheetIds: string[]): Promise<void> {
    if (sheetIds.length === 0) return;
    await this.db
      .deleteFrom('mark_claims')
      .where('block_id', '=', blockId)
      .where('sheet_id', 'in', sheetIds)
      .execute();
  }

  async releaseMine(blockId: string, userId: string, sheetIds: string[]): Promise<void> {
    if (sheetIds.length === 0) return;
    await this.db
      .deleteFrom('mark_claims')
      .where('block_id', '=', blockId)
      .where('user_id', '=', userId)
      .where('sheet_id', 'in', sheetIds)
      .execute();
  }

  // ───────────── crops ─────────────

  findAnswer(sheetId: string, questionId: string) {
    return this.db
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['a.crop_path', 'a.homework_id', 's.org_id', 's.class_id'])
      .where('a.sheet_id', '=', sheetId)
      .where('a.question_id', '=', questionId)
      .executeTakeFirst();
  }

  async cropHashes(paths: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < paths.length; i += 500) {
      const rows = await this.db
        .selectFrom('mark_crop_hashes')
        .selectAll()
        .where('crop_path', 'in', paths.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.crop_path, r.hash);
    }
    return out;
  }

  async saveCropHash(path: string, hash: string): Promise<void> {
    try {
      await this.db.insertInto('mark_crop_hashes').values({ crop_path: path, hash }).execute();
    } catch {
      // Computed twice at once: the other writer's hash is the same.
    }
  }
}
