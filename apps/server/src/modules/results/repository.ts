import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, ScoreChangesTable, SheetAnswersTable, SheetsTable } from '../../db/schema.js';
import type { PackableAnswer } from './packing.js';

// Results tables (sheets, sheet_answers, score_changes): SQL only. The rules of a write — validation, the change
// log, totals, packs and versions — are the results service's (service.ts, ADR 0051); nothing else writes these
// tables. Callers scope by school before calling; every method here trusts the ids it is given.

export type SheetRow = Selectable<SheetsTable>;
export type SheetAnswerRow = Selectable<SheetAnswersTable>;

type Db = Kysely<Database>;

/** An answer as analysis reads it from its row (`crop`: whether it has a crop). */
export interface AnswerRead {
  sheet_id: string;
  question_id: string;
  response: string | null;
  blank: number;
  crop: boolean;
  score_tenths: number | null;
}

export class ResultsRepository {
  constructor(readonly db: Db) {}

  findSheet(sheetId: string) {
    return this.db.selectFrom('sheets').selectAll().where('id', '=', sheetId).executeTakeFirst();
  }

  findSheetOf(homeworkId: string, studentId: string) {
    return this.db
      .selectFrom('sheets')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .where('student_id', '=', studentId)
      .executeTakeFirst();
  }

  listSheets(homeworkId: string) {
    return this.db
      .selectFrom('sheets')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .orderBy('class_id')
      .orderBy('student_id')
      .execute();
  }

  listAnswers(sheetId: string) {
    return this.db.selectFrom('sheet_answers').selectAll().where('sheet_id', '=', sheetId).execute();
  }

  /** Every answer of a homework (analysis and marking read these). */
  listHomeworkAnswers(homeworkId: string, questionId?: string) {
    let q = this.db.selectFrom('sheet_answers').selectAll().where('homework_id', '=', homeworkId);
    if (questionId !== undefined) q = q.where('question_id', '=', questionId);
    return q.execute();
  }

  /** The change log of one answer, oldest first. */
  listChanges(sheetId: string, questionId: string) {
    return this.db
      .selectFrom('score_changes')
      .selectAll()
      .where('sheet_id', '=', sheetId)
      .where('question_id', '=', questionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async insertSheet(row: Insertable<SheetsTable>): Promise<void> {
    await this.db.insertInto('sheets').values(row).execute();
  }

  async insertAnswers(rows: readonly Insertable<SheetAnswersTable>[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('sheet_answers')
        .values([...rows])
        .execute();
  }

  async updateSheet(sheetId: string, set: Partial<SheetRow>): Promise<void> {
    await this.db.updateTable('sheets').set(set).where('id', '=', sheetId).execute();
  }

  async updateAnswer(sheetId: string, questionId: string, set: Partial<SheetAnswerRow>): Promise<void> {
    await this.db
      .updateTable('sheet_answers')
      .set(set)
      .where('sheet_id', '=', sheetId)
      .where('question_id', '=', questionId)
      .execute();
  }

  async insertChange(row: Insertable<ScoreChangesTable>): Promise<void> {
    await this.db.insertInto('score_changes').values(row).execute();
  }

  /** What packs hold of the answers of some sheets (at most a few hundred ids). */
  packableAnswers(sheetIds: readonly string[]): Promise<(PackableAnswer & { sheet_id: string })[]> {
    return this.db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'score_tenths', 'response', 'blank', 'crop_path'])
      .where('sheet_id', 'in', sheetIds)
      .execute();
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
  analysisSheets(homeworkId: string, since?: number) {
    return this.db
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
  }

  /** Every answer of some sheets from their rows (at most a few hundred ids). */
  async answersOfSheets(sheetIds: readonly string[]): Promise<AnswerRead[]> {
    const rows = await this.db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'response', 'blank', 'crop_path', 'score_tenths'])
      .where('sheet_id', 'in', sheetIds)
      .execute();
    return rows.map((a) => ({
      sheet_id: a.sheet_id,
      question_id: a.question_id,
      response: a.response,
      blank: a.blank,
      crop: a.crop_path !== null,
      score_tenths: a.score_tenths,
    }));
  }
}
