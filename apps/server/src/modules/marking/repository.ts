import type { Insertable, Kysely } from 'kysely';
import type { HomeworkPaper } from '@zhzy/contracts';
import { paperFromSnapshot } from '../homework/repository/records.js';
import type { Database, MarkBlocksTable } from '../../db/schema.js';
import { studentsOfClass } from '../../db/counts.js';
import { recountBlocks } from './repository/item-counts.js';
import { MarkingItemQueries } from './repository/item-queries.js';
import {
  blockRow,
  toBlock,
  toHomework,
  type Block,
  type BlockSettings,
  type MarkingHomework,
  type Marker,
  type NewBlock,
  type RubricItemRecord,
} from './repository/records.js';

export type {
  Block,
  BlockSettings,
  MarkingHomework,
  Marker,
  NewBlock,
  RubricItemRecord,
} from './repository/records.js';

// The SQL of marking. Callers scope by school first; rows stay in here: every method returns a domain type (ADR 0073). The items' SQL (answers,
// marks, problems, claims, crop hashes) is in `repository/item-queries.ts`, which this repository extends.

export {
  MarkingItemQueries,
  type AnswerCrop,
  type Claim,
  type ItemAnswer,
  type ItemGroup,
  type Mark,
  type MarkFields,
  type MarkKind,
  type NamedMark,
  type NewMark,
  type Problem,
  type SummaryBlock,
} from './repository/item-queries.js';

type Db = Kysely<Database>;

export class MarkingRepository extends MarkingItemQueries {
  constructor(db: Db) {
    super(db);
  }

  transaction<T>(fn: (repo: MarkingRepository, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new MarkingRepository(trx), trx));
  }

  // ───────────── homework, classes, people ─────────────

  private homeworkSelect() {
    return this.db
      .selectFrom('homework as h')
      .innerJoin('users as u', 'u.id', 'h.created_by')
      .innerJoin('subjects as s', 's.id', 'h.subject_id')
      .select([
        'h.id',
        'h.org_id',
        'h.title',
        'h.subject_id',
        'h.subject_teacher',
        'h.paper_snapshot',
        'h.created_by',
        'h.created_at',
        'h.deleted_at',
        'u.nickname as creator_name',
        's.name as subject_name',
      ]);
  }

  async findHomework(id: string): Promise<MarkingHomework | undefined> {
    const row = await this.homeworkSelect().where('h.id', '=', id).executeTakeFirst();
    return row && toHomework(row);
  }

  /** What a homework's sheets are opened with (sample scans write them as recognition would): its card and paper. */
  async sheetTarget(homeworkId: string): Promise<{
    id: string;
    orgId: string;
    paper: HomeworkPaper;
    cardId: string;
    cardVersion: number;
    pageCount: number;
  }> {
    const hw = await this.db
      .selectFrom('homework as h')
      .innerJoin('card_versions as v', (j) =>
        j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
      )
      .select(['h.id', 'h.org_id', 'h.paper_snapshot', 'h.card_id', 'h.card_version', 'v.page_count'])
      .where('h.id', '=', homeworkId)
      .executeTakeFirstOrThrow();
    return {
      id: hw.id,
      orgId: hw.org_id,
      paper: paperFromSnapshot(hw.paper_snapshot),
      cardId: hw.card_id,
      cardVersion: hw.card_version,
      pageCount: hw.page_count,
    };
  }

  /** The classes of a homework, in its order, with their students counted. */
  async homeworkClasses(homeworkId: string): Promise<{ id: string; name: string; students: number }[]> {
    const rows = await this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('classes as c', 'c.id', 'hc.class_id')
      .select(['c.id', 'c.name', studentsOfClass('c.id').as('students')])
      .where('hc.homework_id', '=', homeworkId)
      .orderBy('hc.sort')
      .execute();
    return rows.map((c) => ({ id: c.id, name: c.name, students: Number(c.students ?? 0) }));
  }

  /** Members of a school (teachers who can be assigned). */
  schoolMembers(orgId: string) {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.nickname', 'u.username'])
      .where('m.org_id', '=', orgId)
      .where('u.disabled', '=', 0)
      .orderBy('u.nickname')
      .execute();
  }

  usersNamed(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'nickname']).where('id', 'in', ids).execute();
  }

  /** Who teaches a subject in which of these classes. */
  async subjectTeachers(orgId: string, subjectId: string, classIds: string[]): Promise<Marker[]> {
    if (classIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('teaching_assignments')
      .select(['user_id', 'class_id'])
      .where('org_id', '=', orgId)
      .where('subject_id', '=', subjectId)
      .where('class_id', 'in', classIds)
      .execute();
    return rows.map((r) => ({ userId: r.user_id, classId: r.class_id }));
  }

  async students(
    ids: string[],
  ): Promise<{ id: string; name: string; studentNo: string; className: string }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 'c.name as class_name'])
      .where('s.id', 'in', ids)
      .execute();
    return rows.map((s) => ({ id: s.id, name: s.name, studentNo: s.student_no, className: s.class_name }));
  }

  /**
   * The task list's homework of a school in one statement, newest first: those with blocks the user marks or
   * arbitrates or that they created (every one for an administrator), and those with sheets but no blocks yet
   * (blocks are made when the first sheet arrives; `blocked` false, the caller makes them and reads again) — each
   * with the students of its classes (what it expects). Sheets are looked for by homework and school (indexed), not
   * read: a district school has 100,000s.
   */
  async taskHomework(
    orgId: string,
    userId: string,
    everything: boolean,
  ): Promise<{ homework: MarkingHomework; blocked: boolean; expected: number }[]> {
    const rows = await this.homeworkSelect()
      .select((eb) => [
        eb
          .exists(eb.selectFrom('mark_blocks as b').select('b.id').whereRef('b.homework_id', '=', 'h.id'))
          .as('blocked'),
        eb
          .selectFrom('homework_classes as hc')
          .innerJoin('students as st', 'st.class_id', 'hc.class_id')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('hc.homework_id', '=', 'h.id')
          .as('expected'),
      ])
      .where('h.org_id', '=', orgId)
      .where('h.deleted_at', 'is', null)
      .where((eb) => {
        const blocks = eb
          .selectFrom('mark_blocks as b')
          .select('b.id')
          .whereRef('b.homework_id', '=', 'h.id');
        const mine = eb.or([
          eb('h.created_by', '=', userId),
          eb.exists(
            blocks.where((e) =>
              e.or([
                e('b.arbiter_id', '=', userId),
                e.exists(
                  e
                    .selectFrom('mark_markers as mm')
                    .select('mm.block_id')
                    .whereRef('mm.block_id', '=', 'b.id')
                    .where('mm.user_id', '=', userId),
                ),
              ]),
            ),
          ),
        ]);
        return eb.or([
          everything ? eb.exists(blocks) : eb.and([eb.exists(blocks), mine]),
          eb.and([
            eb.not(eb.exists(blocks)),
            eb.exists(
              eb
                .selectFrom('sheets as s')
                .select('s.id')
                .whereRef('s.homework_id', '=', 'h.id')
                .where('s.org_id', '=', orgId),
            ),
          ]),
        ]);
      })
      .orderBy('h.created_at', 'desc')
      .limit(100)
      .execute();
    return rows.map((r) => ({
      homework: toHomework(r),
      blocked: Number(r.blocked) === 1 || r.blocked === true,
      expected: Number(r.expected ?? 0),
    }));
  }

  // ───────────── blocks ─────────────

  async blocksOf(homeworkId: string): Promise<Block[]> {
    const rows = await this.db
      .selectFrom('mark_blocks')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .orderBy('sort')
      .execute();
    return rows.map(toBlock);
  }

  /** The blocks of several homework, each homework's in order. */
  async blocksOfMany(homeworkIds: string[]): Promise<Block[]> {
    if (homeworkIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('mark_blocks')
      .selectAll()
      .where('homework_id', 'in', homeworkIds)
      .orderBy('homework_id')
      .orderBy('sort')
      .execute();
    return rows.map(toBlock);
  }

  async findBlock(id: string): Promise<Block | undefined> {
    const row = await this.db.selectFrom('mark_blocks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toBlock(row);
  }

  async insertBlock(block: NewBlock): Promise<void> {
    await this.inTransaction(async (db) => {
      await db
        .insertInto('mark_blocks')
        .values(blockRow(block) as Insertable<MarkBlocksTable>)
        .execute();
      await recountBlocks(db, [block.id]);
    });
  }

  async updateBlock(id: string, set: Partial<BlockSettings>): Promise<void> {
    await this.inTransaction(async (db) => {
      await db.updateTable('mark_blocks').set(blockRow(set)).where('id', '=', id).execute();
      // What the items are judged by: their questions, single or double marking, the threshold.
      if (set.questionIds !== undefined || set.mode !== undefined || set.thresholdTenths !== undefined)
        await recountBlocks(db, [id]);
    });
  }

  async deleteBlock(id: string): Promise<void> {
    await this.inTransaction(async (db) => {
      await db.deleteFrom('mark_claims').where('block_id', '=', id).execute();
      await db.deleteFrom('mark_problems').where('block_id', '=', id).execute();
      await db.deleteFrom('mark_markers').where('block_id', '=', id).execute();
      await db.deleteFrom('mark_blocks').where('id', '=', id).execute();
      await recountBlocks(db, [id]);
    });
  }

  /** The markers of some blocks, with their names. */
  async markersOf(blockIds: string[]): Promise<(Marker & { blockId: string; nickname: string })[]> {
    if (blockIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('mark_markers as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.block_id', 'm.user_id', 'm.class_id', 'u.nickname'])
      .where('m.block_id', 'in', blockIds)
      .orderBy('u.nickname')
      .execute();
    return rows.map((r) => ({
      blockId: r.block_id,
      userId: r.user_id,
      classId: r.class_id,
      nickname: r.nickname,
    }));
  }

  // ───────────── rubric items ─────────────

  /** The rubric items of a homework's questions, in their order. */
  async rubricItems(homeworkId: string, questionIds: string[]): Promise<RubricItemRecord[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('mark_rubric_items')
      .select(['id', 'question_id', 'label', 'points_tenths', 'sort'])
      .where('homework_id', '=', homeworkId)
      .where('question_id', 'in', questionIds)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      questionId: r.question_id,
      label: r.label,
      pointsTenths: r.points_tenths,
    }));
  }

  /** Replaces the rubric items of some questions of a homework. */
  async setRubricItems(
    orgId: string,
    homeworkId: string,
    questionIds: string[],
    items: readonly RubricItemRecord[],
    now: string,
  ): Promise<void> {
    if (questionIds.length === 0) return;
    await this.db
      .deleteFrom('mark_rubric_items')
      .where('homework_id', '=', homeworkId)
      .where('question_id', 'in', questionIds)
      .execute();
    if (items.length > 0)
      await this.db
        .insertInto('mark_rubric_items')
        .values(
          items.map((r, sort) => ({
            id: r.id,
            question_id: r.questionId,
            label: r.label,
            points_tenths: r.pointsTenths,
            org_id: orgId,
            homework_id: homeworkId,
            sort,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
  }

  async setMarkers(blockId: string, markers: readonly Marker[]): Promise<void> {
    await this.db.deleteFrom('mark_markers').where('block_id', '=', blockId).execute();
    if (markers.length > 0)
      await this.db
        .insertInto('mark_markers')
        .values(markers.map((m) => ({ block_id: blockId, user_id: m.userId, class_id: m.classId })))
        .execute();
  }
}
