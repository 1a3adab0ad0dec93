import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { RubricAppliedSchema, type Annotation } from '@zhzy/contracts';
import type { Database, MarkMarksTable } from '../../../db/schema.js';
import { judgedItems } from '../../../db/migrations/0033-judged-items.js';
import { blockFigures, countedGroups, refreshBlockItems, type BlockFigures } from './item-counts.js';
import { AnnotationsSchema, ScoresSchema, parseStored } from './stored.js';

// The SQL of marking's items: the answers a block marks, the marks given, problems flagged, claims held and crop
// hashes. `MarkingRepository` (repository.ts) adds homework, people, blocks and rubrics on top of it.

type Db = Kysely<Database>;

/** One written answer of a sheet as marking reads it. */
export interface ItemAnswer {
  sheetId: string;
  classId: string;
  studentId: string;
  questionId: string;
  cropPath: string | null;
  blank: boolean;
  fullScoreTenths: number;
  scoreTenths: number | null;
}

export type MarkKind = 'mark' | 'arbitration' | 'group';

/** What a marker gives an item, and may revise (回评). */
export interface MarkFields {
  /** Question id → tenths. */
  scores: Record<string, number>;
  totalTenths: number;
  annotations: Annotation[];
  comment: string;
  /** Question id → applied rubric item ids. */
  rubric: Record<string, string[]>;
  updatedAt: string;
}

/** A mark of an item (a marker's, a group's or an arbitration). */
export interface Mark extends MarkFields {
  id: string;
  orgId: string;
  blockId: string;
  sheetId: string;
  userId: string;
  kind: MarkKind;
  createdAt: string;
}

/** A mark with its marker's name. */
export interface NamedMark extends Mark {
  markerName: string;
}

/** An open problem flagged on an item. */
export interface Problem {
  sheetId: string;
  note: string;
  userId: string;
  name: string;
  createdAt: string;
}

/** A reservation of an item for a marker. */
export interface Claim {
  sheetId: string;
  userId: string;
}

/** An answer's crop and whose it is. */
export interface AnswerCrop {
  cropPath: string | null;
  homeworkId: string;
  orgId: string;
  classId: string;
}

/** The one mapper of `mark_marks`. */
export const toMark = (r: Selectable<MarkMarksTable>): Mark => ({
  id: r.id,
  orgId: r.org_id,
  blockId: r.block_id,
  sheetId: r.sheet_id,
  userId: r.user_id,
  kind: r.kind as MarkKind,
  scores: parseStored(ScoresSchema, r.scores, {}),
  totalTenths: r.total_tenths,
  annotations: parseStored(AnnotationsSchema, r.annotations, []),
  comment: r.comment,
  rubric: parseStored(RubricAppliedSchema, r.rubric, {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A new mark: annotations, comment and rubric left out are none. */
export type NewMark = Omit<Mark, 'annotations' | 'comment' | 'rubric'> &
  Partial<Pick<Mark, 'annotations' | 'comment' | 'rubric'>>;

/** The columns of the mark fields given. */
function markRow(m: Partial<Mark>) {
  const row: Partial<Selectable<MarkMarksTable>> = {};
  if (m.id !== undefined) row.id = m.id;
  if (m.orgId !== undefined) row.org_id = m.orgId;
  if (m.blockId !== undefined) row.block_id = m.blockId;
  if (m.sheetId !== undefined) row.sheet_id = m.sheetId;
  if (m.userId !== undefined) row.user_id = m.userId;
  if (m.kind !== undefined) row.kind = m.kind;
  if (m.scores !== undefined) row.scores = JSON.stringify(m.scores);
  if (m.totalTenths !== undefined) row.total_tenths = m.totalTenths;
  if (m.annotations !== undefined) row.annotations = JSON.stringify(m.annotations);
  if (m.comment !== undefined) row.comment = m.comment;
  if (m.rubric !== undefined) row.rubric = JSON.stringify(m.rubric);
  if (m.createdAt !== undefined) row.created_at = m.createdAt;
  if (m.updatedAt !== undefined) row.updated_at = m.updatedAt;
  return row;
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
export interface ItemGroup {
  blockId: string;
  classId: string;
  /** Every answer of the item has a score. */
  done: boolean;
  /** An open problem is flagged on it. */
  problem: boolean;
  state: 'open' | 'final' | 'arbitration';
  /** Marks (not arbitrations) it has, at most the marks required. */
  given: number;
  /** The user gave one of its marks. */
  mine: boolean;
  items: number;
}

/** An item group as the grouped recount's SQL returns it. */
interface ItemGroupRow {
  block_id: string;
  class_id: string;
  done: number;
  problem: number;
  state: ItemGroup['state'];
  given: number;
  mine: number;
  items: number;
}

export class MarkingItemQueries {
  constructor(protected readonly db: Db) {}

  // ───────────── items ─────────────

  /** The answers of a homework's sheets to some questions (the items of a block). */
  async itemAnswers(homeworkId: string, questionIds: string[], sheetIds?: string[]): Promise<ItemAnswer[]> {
    if (questionIds.length === 0 || (sheetIds && sheetIds.length === 0)) return [];
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
    const rows = await q.orderBy('s.class_id').orderBy('st.student_no').orderBy('a.sheet_id').execute();
    return rows.map((r) => ({
      sheetId: r.sheet_id,
      classId: r.class_id,
      studentId: r.student_id,
      questionId: r.question_id,
      cropPath: r.crop_path,
      blank: r.blank === 1,
      fullScoreTenths: r.full_score_tenths,
      scoreTenths: r.score_tenths,
    }));
  }

  /**
   * The items of some blocks (of any homework), counted in groups that stand alike (see ItemGroup) — the task list's
   * figures without reading every item. Same rules as the service's items() and verdictOf(): an item is a sheet
   * with a crop or a blank box for one of the block's questions; it is done when every question has a scored
   * answer; an arbitration makes it final; fewer marks than required leave it open; two marks of a double block
   * further apart than the threshold send it to arbitration.
   */
  async itemGroups(blocks: SummaryBlock[], userId: string): Promise<ItemGroup[]> {
    const judged = judgedItems(blocks, userId);
    if (!judged) return [];
    const { rows } = await sql<ItemGroupRow>`
      ${judged}
      SELECT block_id, class_id, done, problem, state, given, mine, COUNT(*) AS items
      FROM judged
      GROUP BY block_id, class_id, done, problem, state, given, mine
    `.execute(this.db);
    return rows.map((r) => ({
      blockId: r.block_id,
      classId: r.class_id,
      done: Number(r.done) === 1,
      problem: Number(r.problem) === 1,
      state: r.state,
      given: Number(r.given),
      mine: Number(r.mine) === 1,
      items: Number(r.items),
    }));
  }

  /** The task list's figures of some blocks for one user, summed from the counters in the database (ADR 0087). */
  blockFigures(blockIds: string[], userId: string): Promise<Map<string, BlockFigures>> {
    return blockFigures(this.db, blockIds, userId);
  }

  /** The item groups of some blocks for one user, from the maintained counters (migration 0033, ADR 0071). */
  countedGroups(blockIds: string[], userId: string): Promise<ItemGroup[]> {
    return countedGroups(this.db, blockIds, userId);
  }

  async marksOf(blockId: string, sheetIds?: string[]): Promise<NamedMark[]> {
    if (sheetIds && sheetIds.length === 0) return [];
    let q = this.db
      .selectFrom('mark_marks as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select('u.nickname')
      .where('m.block_id', '=', blockId);
    if (sheetIds) q = q.where('m.sheet_id', 'in', sheetIds);
    const rows = await q.orderBy('m.created_at').orderBy('m.id').execute();
    return rows.map((r) => ({ ...toMark(r), markerName: r.nickname }));
  }

  async insertMark(mark: NewMark): Promise<void> {
    await this.inTransaction(async (db) => {
      await db
        .insertInto('mark_marks')
        .values(markRow(mark) as Insertable<MarkMarksTable>)
        .execute();
      await refreshBlockItems(db, mark.blockId, [mark.sheetId]);
    });
  }

  /** A marker revises their mark (回评): the fields given. */
  async updateMark(id: string, set: Partial<MarkFields>): Promise<void> {
    await this.inTransaction(async (db) => {
      await db.updateTable('mark_marks').set(markRow(set)).where('id', '=', id).execute();
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

  async myMarksPage(blockId: string, userId: string, offset: number, limit: number): Promise<Mark[]> {
    const rows = await this.db
      .selectFrom('mark_marks')
      .selectAll()
      .where('block_id', '=', blockId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(toMark);
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

  async openProblems(blockId: string): Promise<Problem[]> {
    const rows = await this.db
      .selectFrom('mark_problems as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.sheet_id', 'p.note', 'p.user_id', 'u.nickname', 'p.created_at'])
      .where('p.block_id', '=', blockId)
      .where('p.resolved_at', 'is', null)
      .orderBy('p.created_at')
      .execute();
    return rows.map((r) => ({
      sheetId: r.sheet_id,
      note: r.note,
      userId: r.user_id,
      name: r.nickname,
      createdAt: r.created_at,
    }));
  }

  async flagProblem(problem: {
    blockId: string;
    sheetId: string;
    userId: string;
    note: string;
    now: string;
  }) {
    await this.inTransaction(async (db) => {
      await db
        .deleteFrom('mark_problems')
        .where('block_id', '=', problem.blockId)
        .where('sheet_id', '=', problem.sheetId)
        .execute();
      await db
        .insertInto('mark_problems')
        .values({
          block_id: problem.blockId,
          sheet_id: problem.sheetId,
          user_id: problem.userId,
          note: problem.note,
          created_at: problem.now,
          resolved_at: null,
        })
        .execute();
      await refreshBlockItems(db, problem.blockId, [problem.sheetId]);
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
  async activeClaims(blockId: string, now: string): Promise<Claim[]> {
    const rows = await this.db
      .selectFrom('mark_claims')
      .select(['sheet_id', 'user_id'])
      .where('block_id', '=', blockId)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((r) => ({ sheetId: r.sheet_id, userId: r.user_id }));
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

  async findAnswer(sheetId: string, questionId: string): Promise<AnswerCrop | undefined> {
    const r = await this.db
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['a.crop_path', 'a.homework_id', 's.org_id', 's.class_id'])
      .where('a.sheet_id', '=', sheetId)
      .where('a.question_id', '=', questionId)
      .executeTakeFirst();
    return r && { cropPath: r.crop_path, homeworkId: r.homework_id, orgId: r.org_id, classId: r.class_id };
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
