import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PackableAnswer } from './packing.js';
import {
  answerColumns,
  sheetColumns,
  toScoreChange,
  toSheet,
  toSheetAnswer,
  type AnalysisSheet,
  type AnswerChange,
  type AnswerRead,
  type NewAnswer,
  type NewSheet,
  type ScoreChange,
  type Sheet,
  type SheetAnswer,
  type SheetChange,
} from './repository/records.js';

// Results tables (sheets, sheet_answers, score_changes): SQL only. It reads and writes the domain types of
// repository/records.ts (Sheet, SheetAnswer, ScoreChange, the new rows and changes), which alone map them to
// columns. The rules of a write — validation, the change log, totals, packs and versions — are the results
// service's (service.ts, ADR 0051); nothing else writes these tables. Callers scope by school before calling; every
// method here trusts the ids it is given.

type Db = Kysely<Database>;

/** A homework's pages received and answers still to score (its sheets summed), and the pages it expects. */
export interface ReceivedCounts {
  homeworkId: string;
  pages: number;
  unscored: number;
  /** Students of its classes × pages of its current card. */
  expectedPages: number;
}

/**
 * Pages received and answers still to score per homework of a school: answered from the index
 * `sheets (homework_id, org_id, pages_received, unscored_count)` alone (migration 0023, ADR 0031); beside them, in the
 * same statement, the pages each homework expects: students of its classes × pages of its current card (a read of
 * the homework module's tables kept here so the spine imports nothing from homework, ADR 0051).
 */
export function receivedQuery(db: Db, orgId: string, homeworkIds: string[]) {
  return db
    .selectFrom('sheets')
    .select((eb) => [
      'homework_id',
      eb.fn.sum<number>('pages_received').as('pages'),
      eb.fn.sum<number>('unscored_count').as('unscored'),
      eb
        .selectFrom('homework as h')
        .innerJoin('card_versions as v', (j) =>
          j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
        )
        .innerJoin('homework_classes as hc', 'hc.homework_id', 'h.id')
        .innerJoin('students as st', 'st.class_id', 'hc.class_id')
        .select(sql<number>`MAX(v.page_count) * COUNT(*)`.as('n'))
        .whereRef('h.id', '=', 'sheets.homework_id')
        .where('h.org_id', '=', orgId)
        .as('expected_pages'),
    ])
    .where('org_id', '=', orgId)
    .where('homework_id', 'in', homeworkIds)
    .groupBy('homework_id');
}

export class ResultsRepository {
  constructor(readonly db: Db) {}

  async findSheet(sheetId: string): Promise<Sheet | undefined> {
    const row = await this.db.selectFrom('sheets').selectAll().where('id', '=', sheetId).executeTakeFirst();
    return row && toSheet(row);
  }

  async findSheetOf(homeworkId: string, studentId: string): Promise<Sheet | undefined> {
    const row = await this.db
      .selectFrom('sheets')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    return row && toSheet(row);
  }

  async listSheets(homeworkId: string): Promise<Sheet[]> {
    const rows = await this.db
      .selectFrom('sheets')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .orderBy('class_id')
      .orderBy('student_id')
      .execute();
    return rows.map(toSheet);
  }

  /** The answers of one sheet. */
  async listAnswers(sheetId: string): Promise<SheetAnswer[]> {
    const rows = await this.db
      .selectFrom('sheet_answers')
      .selectAll()
      .where('sheet_id', '=', sheetId)
      .execute();
    return rows.map(toSheetAnswer);
  }

  /** The school and homework a sheet belongs to. */
  async sheetScope(sheetId: string): Promise<{ orgId: string; homeworkId: string } | undefined> {
    const row = await this.db
      .selectFrom('sheets')
      .select(['org_id', 'homework_id'])
      .where('id', '=', sheetId)
      .executeTakeFirst();
    return row && { orgId: row.org_id, homeworkId: row.homework_id };
  }

  /** Per homework of a school with sheets: pages received and answers still to score. */
  async receivedCounts(orgId: string, homeworkIds: string[]): Promise<ReceivedCounts[]> {
    const rows = await receivedQuery(this.db, orgId, homeworkIds).execute();
    return rows.map((r) => ({
      homeworkId: r.homework_id,
      pages: Number(r.pages ?? 0),
      unscored: Number(r.unscored ?? 0),
      expectedPages: Number(r.expected_pages ?? 0),
    }));
  }

  /** Every answer of a homework (analysis and marking read these). */
  async listHomeworkAnswers(homeworkId: string, questionId?: string): Promise<SheetAnswer[]> {
    let q = this.db.selectFrom('sheet_answers').selectAll().where('homework_id', '=', homeworkId);
    if (questionId !== undefined) q = q.where('question_id', '=', questionId);
    return (await q.execute()).map(toSheetAnswer);
  }

  /** The change log of one answer, oldest first. */
  async listChanges(sheetId: string, questionId: string): Promise<ScoreChange[]> {
    const rows = await this.db
      .selectFrom('score_changes')
      .selectAll()
      .where('sheet_id', '=', sheetId)
      .where('question_id', '=', questionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toScoreChange);
  }

  async insertSheet(s: NewSheet): Promise<void> {
    await this.db
      .insertInto('sheets')
      .values({
        id: s.id,
        org_id: s.orgId,
        homework_id: s.homeworkId,
        student_id: s.studentId,
        class_id: s.classId,
        card_id: s.cardId,
        card_version: s.cardVersion,
        pages_expected: s.pagesExpected,
        unscored_count: s.unscoredCount,
        answers_packed: s.answersPacked,
        created_at: s.createdAt,
        updated_at: s.createdAt,
      })
      .execute();
  }

  async insertAnswers(answers: readonly NewAnswer[]): Promise<void> {
    if (answers.length > 0)
      await this.db
        .insertInto('sheet_answers')
        .values(
          answers.map((a) => ({
            sheet_id: a.sheetId,
            org_id: a.orgId,
            homework_id: a.homeworkId,
            question_id: a.questionId,
            kind: a.kind,
            response: null,
            response_status: null,
            crop_path: null,
            full_score_tenths: a.fullScoreTenths,
            score_tenths: null,
            score_source: null,
            updated_by: null,
            updated_at: a.updatedAt,
          })),
        )
        .execute();
  }

  async updateSheet(sheetId: string, change: SheetChange): Promise<void> {
    await this.db.updateTable('sheets').set(sheetColumns(change)).where('id', '=', sheetId).execute();
  }

  async updateAnswer(sheetId: string, questionId: string, change: AnswerChange): Promise<void> {
    await this.db
      .updateTable('sheet_answers')
      .set(answerColumns(change))
      .where('sheet_id', '=', sheetId)
      .where('question_id', '=', questionId)
      .execute();
  }

  async insertChange(c: ScoreChange): Promise<void> {
    await this.db
      .insertInto('score_changes')
      .values({
        id: c.id,
        org_id: c.orgId,
        homework_id: c.homeworkId,
        sheet_id: c.sheetId,
        question_id: c.questionId,
        user_id: c.userId,
        reason: c.reason,
        before_response: c.beforeResponse,
        after_response: c.afterResponse,
        before_score_tenths: c.beforeScoreTenths,
        after_score_tenths: c.afterScoreTenths,
        created_at: c.createdAt,
      })
      .execute();
  }

  /** What packs hold of the answers of some sheets (at most a few hundred ids). */
  async packableAnswers(sheetIds: readonly string[]): Promise<(PackableAnswer & { sheetId: string })[]> {
    const rows = await this.db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'score_tenths', 'response', 'blank', 'crop_path'])
      .where('sheet_id', 'in', sheetIds)
      .execute();
    return rows.map((r) => ({
      sheetId: r.sheet_id,
      questionId: r.question_id,
      scoreTenths: r.score_tenths,
      response: r.response,
      blank: r.blank === 1,
      cropPath: r.crop_path,
    }));
  }

  /** Sets the packs of some sheets in one statement (sheet id → pack). */
  async setPacks(packs: ReadonlyMap<string, string>): Promise<void> {
    if (packs.size === 0) return;
    const cases = sql.join(
      [...packs].map(([id, pack]) => sql`when ${id} then ${pack}`),
      sql` `,
    );
    await this.db
      .updateTable('sheets')
      .set({ answers_packed: sql<string>`case id ${cases} end` })
      .where('id', 'in', [...packs.keys()])
      .execute();
  }

  /** The sheets of one homework as analysis reads them; with `since`, only those written after that version. */
  async analysisSheets(homeworkId: string, since?: number): Promise<AnalysisSheet[]> {
    const rows = await this.db
      .selectFrom('sheets')
      .select([
        'id',
        'student_id',
        'class_id',
        'objective_score_tenths',
        'subjective_score_tenths',
        'total_score_tenths',
        'unscored_count',
        'answers_packed',
      ])
      .where('homework_id', '=', homeworkId)
      .$if(since !== undefined, (q) => q.where('results_version', '>', since!))
      .execute();
    return rows.map((r) => ({
      id: r.id,
      studentId: r.student_id,
      classId: r.class_id,
      objectiveScoreTenths: r.objective_score_tenths,
      subjectiveScoreTenths: r.subjective_score_tenths,
      totalScoreTenths: r.total_score_tenths,
      unscoredCount: r.unscored_count,
      answersPacked: r.answers_packed,
    }));
  }

  /** Every answer of some sheets from their rows (at most a few hundred ids). */
  async answersOfSheets(sheetIds: readonly string[]): Promise<AnswerRead[]> {
    const rows = await this.db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'response', 'blank', 'crop_path', 'score_tenths'])
      .where('sheet_id', 'in', sheetIds)
      .execute();
    return rows.map((a) => ({
      sheetId: a.sheet_id,
      questionId: a.question_id,
      response: a.response,
      blank: a.blank === 1,
      crop: a.crop_path !== null,
      scoreTenths: a.score_tenths,
    }));
  }
}
