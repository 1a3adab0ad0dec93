import type { Insertable, Kysely, Selectable } from 'kysely';
import type { PaperScoreState } from '@zhzy/contracts';
import type { Database, PaperScoresTable } from '../../db/schema.js';

// 纸上批阅's tables (ADR 0065): SQL only. `paper_scores` is this module's; the homework's `paper_marking` flag is
// written here too. The scan exceptions a doubtful box raises (code `scoreDoubtful`) are raised and resolved through
// recognition's repository bound to the same transaction (one piece of SQL for every exception); only dropping a box's
// open exception when it is read again is this module's own. Callers scope by school before calling; every method
// trusts the ids it is given.

type Db = Kysely<Database>;

export type PaperScoreRow = Selectable<PaperScoresTable>;
export type NewPaperScore = Insertable<PaperScoresTable>;

/** The exception code a doubtful box raises in the scan exception queue. */
export const SCORE_DOUBTFUL = 'scoreDoubtful';

export class PaperMarkingRepository {
  constructor(readonly db: Db) {}

  /** Runs `fn` with a repository bound to one transaction (and the transaction, for the results spine). */
  transaction<T>(fn: (repo: PaperMarkingRepository, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new PaperMarkingRepository(trx), trx));
  }

  // ───────────── the homework's setting ─────────────

  findHomework(id: string) {
    return this.db.selectFrom('homework').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setPaperMarking(homeworkId: string, enabled: boolean, at: string): Promise<void> {
    await this.db
      .updateTable('homework')
      .set({ paper_marking: enabled ? 1 : 0, updated_at: at })
      .where('id', '=', homeworkId)
      .execute();
  }

  // ───────────── a recognised page ─────────────

  /** A recognised page with the batch it was scanned in and its homework's setting. */
  recognisedPage(pageId: string) {
    return this.db
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as sp', 'sp.id', 'r.page_id')
      .leftJoin('homework as h', 'h.id', 'r.homework_id')
      .select([
        'r.status',
        'r.sheet_id',
        'r.homework_id',
        'r.student_id',
        'r.page_no',
        'r.result',
        'r.org_id',
        'sp.batch_id',
        'h.paper_marking',
        'h.deleted_at',
      ])
      .where('r.page_id', '=', pageId)
      .executeTakeFirst();
  }

  /** The rows of some questions of a sheet. */
  scoresOfSheet(sheetId: string, questionIds: readonly string[]) {
    if (questionIds.length === 0) return Promise.resolve([] as PaperScoreRow[]);
    return this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('sheet_id', '=', sheetId)
      .where('question_id', 'in', [...questionIds])
      .execute();
  }

  /** Stores rows in place of the sheet's rows of the same questions. */
  async saveScores(rows: readonly NewPaperScore[]): Promise<void> {
    for (const r of rows) {
      await this.db
        .deleteFrom('paper_scores')
        .where('sheet_id', '=', r.sheet_id)
        .where('question_id', '=', r.question_id)
        .execute();
      await this.db.insertInto('paper_scores').values(r).execute();
    }
  }

  /** Drops open score exceptions (a box read again raises its own anew); resolved ones stay as history. */
  async dropOpenExceptions(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('recognition_exceptions')
      .where('id', 'in', [...ids])
      .where('code', '=', SCORE_DOUBTFUL)
      .where('status', '=', 'open')
      .execute();
  }

  /** The rows of a page set aside that no person decided: their reading is no longer taken. */
  undecidedOfPage(pageId: string) {
    return this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('resolved_by', 'is', null)
      .where('state', 'in', ['scored', 'doubtful'])
      .execute();
  }

  /** A box of a page set aside waits for a person: doubtful, with why. */
  async setAside(ids: readonly string[], reason: string, at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('paper_scores')
      .set({ state: 'doubtful', reason, updated_at: at })
      .where('id', 'in', [...ids])
      .execute();
  }

  // ───────────── what a teacher sees and decides ─────────────

  /** A homework's rows with the student, class and score in the results. */
  listScores(homeworkId: string, query: { questionId?: string | undefined; state: 'doubtful' | 'all' }) {
    let q = this.db
      .selectFrom('paper_scores as p')
      .innerJoin('students as st', 'st.id', 'p.student_id')
      .innerJoin('sheets as s', 's.id', 'p.sheet_id')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .innerJoin('sheet_answers as a', (j) =>
        j.onRef('a.sheet_id', '=', 'p.sheet_id').onRef('a.question_id', '=', 'p.question_id'),
      )
      .select([
        'p.id',
        'p.question_id',
        'p.student_id',
        'p.state',
        'p.reason',
        'p.page_id',
        'st.name as student_name',
        'st.student_no',
        'c.name as class_name',
        'a.score_tenths',
        'a.full_score_tenths',
      ])
      .where('p.homework_id', '=', homeworkId);
    if (query.questionId) q = q.where('p.question_id', '=', query.questionId);
    if (query.state === 'doubtful') q = q.where('p.state', '=', 'doubtful');
    return q.execute();
  }

  findScore(id: string) {
    return this.db.selectFrom('paper_scores').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findScoreOfException(exceptionId: string) {
    return this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('exception_id', '=', exceptionId)
      .executeTakeFirst();
  }

  /** The rows behind some score exceptions, with their full score. */
  scoresOfExceptions(exceptionIds: readonly string[]) {
    if (exceptionIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('paper_scores as p')
      .innerJoin('sheet_answers as a', (j) =>
        j.onRef('a.sheet_id', '=', 'p.sheet_id').onRef('a.question_id', '=', 'p.question_id'),
      )
      .select(['p.id', 'p.exception_id', 'p.question_id', 'p.page_id', 'a.full_score_tenths'])
      .where('p.exception_id', 'in', [...exceptionIds])
      .execute();
  }

  async setState(id: string, state: PaperScoreState, by: string, at: string): Promise<void> {
    await this.db
      .updateTable('paper_scores')
      .set({ state, resolved_by: by, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  // ───────────── the 讲评 crop ─────────────

  /** What a box's crop is cut from: the page's reading, its card and its file. */
  cropSource(pageId: string) {
    return this.db
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as sp', 'sp.id', 'r.page_id')
      .select(['r.result', 'r.card_id', 'r.card_version', 'sp.file_path'])
      .where('r.page_id', '=', pageId)
      .executeTakeFirst();
  }

  async setCropPath(id: string, file: string): Promise<void> {
    await this.db.updateTable('paper_scores').set({ crop_path: file }).where('id', '=', id).execute();
  }
}
