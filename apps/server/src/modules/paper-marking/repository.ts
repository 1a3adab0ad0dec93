import type { Kysely, Selectable } from 'kysely';
import type { HomeworkPaper, PaperScoreState } from '@zhzy/contracts';
import { NO_SECTIONS, paperFromSnapshot } from '../homework/repository/records.js';
import type { Database, PaperScoresTable } from '../../db/schema.js';

// 纸上批阅's tables (ADR 0065): SQL only. `paper_scores` is this module's; the homework's `paper_marking` flag is
// written here too. The scan exceptions a doubtful box raises (code `scoreDoubtful`) are raised and resolved through
// recognition's repository bound to the same transaction (one piece of SQL for every exception); only dropping a box's
// open exception when it is read again is this module's own. Callers scope by school before calling; every method
// trusts the ids it is given. Every method returns a domain type (ADR 0073); rows stay in here.

type Db = Kysely<Database>;

/** What a score box read on a page became (one row of `paper_scores`). */
export interface PaperScoreRecord {
  id: string;
  orgId: string;
  homeworkId: string;
  sheetId: string;
  studentId: string;
  questionId: string;
  pageId: string | null;
  state: PaperScoreState;
  readTenths: number | null;
  reason: string | null;
  /** The box was marked in colour. */
  colour: boolean;
  cropPath: string | null;
  exceptionId: string | null;
  resolvedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A homework as 纸上批阅 reads it: its card, its setting and its frozen paper. */
export interface PaperMarkingHomework {
  id: string;
  orgId: string;
  createdBy: string;
  deletedAt: string | null;
  cardId: string;
  cardVersion: number;
  paperMarking: boolean;
  paper: HomeworkPaper;
}

/** A recognised page with the batch it was scanned in and its homework's setting. */
export interface RecognisedPage {
  status: string;
  sheetId: string | null;
  homeworkId: string | null;
  studentId: string | null;
  pageNo: number | null;
  /** The stored reading (JSON), parsed by recognition's schema where it is read. */
  result: string | null;
  orgId: string;
  batchId: string;
  paperMarking: boolean;
  homeworkDeleted: boolean;
}

/** A box's row with the student, class and score in the results, as the teacher's list shows it. */
export interface ListedPaperScore {
  id: string;
  questionId: string;
  studentId: string;
  state: PaperScoreState;
  reason: string | null;
  pageId: string | null;
  studentName: string;
  studentNo: string;
  className: string;
  scoreTenths: number | null;
  fullScoreTenths: number;
}

/** The one mapper of `paper_scores`. */
const toPaperScore = (r: Selectable<PaperScoresTable>): PaperScoreRecord => ({
  id: r.id,
  orgId: r.org_id,
  homeworkId: r.homework_id,
  sheetId: r.sheet_id,
  studentId: r.student_id,
  questionId: r.question_id,
  pageId: r.page_id,
  state: r.state,
  readTenths: r.read_tenths,
  reason: r.reason,
  colour: r.colour === 1,
  cropPath: r.crop_path,
  exceptionId: r.exception_id,
  resolvedBy: r.resolved_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const paperScoreRow = (p: PaperScoreRecord) => ({
  id: p.id,
  org_id: p.orgId,
  homework_id: p.homeworkId,
  sheet_id: p.sheetId,
  student_id: p.studentId,
  question_id: p.questionId,
  page_id: p.pageId,
  state: p.state,
  read_tenths: p.readTenths,
  reason: p.reason,
  colour: p.colour ? 1 : 0,
  crop_path: p.cropPath,
  exception_id: p.exceptionId,
  resolved_by: p.resolvedBy,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

/** The exception code a doubtful box raises in the scan exception queue. */
export const SCORE_DOUBTFUL = 'scoreDoubtful';

export class PaperMarkingRepository {
  constructor(readonly db: Db) {}

  /** Runs `fn` with a repository bound to one transaction (and the transaction, for the results spine). */
  transaction<T>(fn: (repo: PaperMarkingRepository, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new PaperMarkingRepository(trx), trx));
  }

  // ───────────── the homework's setting ─────────────

  async findHomework(id: string): Promise<PaperMarkingHomework | undefined> {
    const r = await this.db
      .selectFrom('homework')
      .select([
        'id',
        'org_id',
        'created_by',
        'deleted_at',
        'card_id',
        'card_version',
        'paper_marking',
        'paper_snapshot',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      r && {
        id: r.id,
        orgId: r.org_id,
        createdBy: r.created_by,
        deletedAt: r.deleted_at,
        cardId: r.card_id,
        cardVersion: r.card_version,
        paperMarking: r.paper_marking === 1,
        paper: paperFromSnapshot(r.paper_snapshot, NO_SECTIONS),
      }
    );
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
  async recognisedPage(pageId: string): Promise<RecognisedPage | undefined> {
    const r = await this.db
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
    return (
      r && {
        status: r.status,
        sheetId: r.sheet_id,
        homeworkId: r.homework_id,
        studentId: r.student_id,
        pageNo: r.page_no,
        result: r.result,
        orgId: r.org_id,
        batchId: r.batch_id,
        paperMarking: r.paper_marking === 1,
        homeworkDeleted: !!r.deleted_at,
      }
    );
  }

  /** The rows of some questions of a sheet. */
  async scoresOfSheet(sheetId: string, questionIds: readonly string[]): Promise<PaperScoreRecord[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('sheet_id', '=', sheetId)
      .where('question_id', 'in', [...questionIds])
      .execute();
    return rows.map(toPaperScore);
  }

  /** Stores rows in place of the sheet's rows of the same questions. */
  async saveScores(scores: readonly PaperScoreRecord[]): Promise<void> {
    for (const p of scores) {
      await this.db
        .deleteFrom('paper_scores')
        .where('sheet_id', '=', p.sheetId)
        .where('question_id', '=', p.questionId)
        .execute();
      await this.db.insertInto('paper_scores').values(paperScoreRow(p)).execute();
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
  async undecidedOfPage(pageId: string): Promise<PaperScoreRecord[]> {
    const rows = await this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('resolved_by', 'is', null)
      .where('state', 'in', ['scored', 'doubtful'])
      .execute();
    return rows.map(toPaperScore);
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
  async listScores(
    homeworkId: string,
    query: { questionId?: string | undefined; state: 'doubtful' | 'all' },
  ): Promise<ListedPaperScore[]> {
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
    return (await q.execute()).map((r) => ({
      id: r.id,
      questionId: r.question_id,
      studentId: r.student_id,
      state: r.state,
      reason: r.reason,
      pageId: r.page_id,
      studentName: r.student_name,
      studentNo: r.student_no,
      className: r.class_name,
      scoreTenths: r.score_tenths,
      fullScoreTenths: r.full_score_tenths,
    }));
  }

  async findScore(id: string): Promise<PaperScoreRecord | undefined> {
    const r = await this.db.selectFrom('paper_scores').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toPaperScore(r);
  }

  async findScoreOfException(exceptionId: string): Promise<PaperScoreRecord | undefined> {
    const r = await this.db
      .selectFrom('paper_scores')
      .selectAll()
      .where('exception_id', '=', exceptionId)
      .executeTakeFirst();
    return r && toPaperScore(r);
  }

  /** The rows behind some score exceptions, with their full score. */
  async scoresOfExceptions(
    exceptionIds: readonly string[],
  ): Promise<
    { id: string; exceptionId: string; questionId: string; pageId: string | null; fullScoreTenths: number }[]
  > {
    if (exceptionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('paper_scores as p')
      .innerJoin('sheet_answers as a', (j) =>
        j.onRef('a.sheet_id', '=', 'p.sheet_id').onRef('a.question_id', '=', 'p.question_id'),
      )
      .select(['p.id', 'p.exception_id', 'p.question_id', 'p.page_id', 'a.full_score_tenths'])
      .where('p.exception_id', 'in', [...exceptionIds])
      .execute();
    return rows.map((r) => ({
      id: r.id,
      exceptionId: r.exception_id!,
      questionId: r.question_id,
      pageId: r.page_id,
      fullScoreTenths: r.full_score_tenths,
    }));
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
  async cropSource(
    pageId: string,
  ): Promise<
    { result: string | null; cardId: string | null; cardVersion: number | null; filePath: string } | undefined
  > {
    const r = await this.db
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as sp', 'sp.id', 'r.page_id')
      .select(['r.result', 'r.card_id', 'r.card_version', 'sp.file_path'])
      .where('r.page_id', '=', pageId)
      .executeTakeFirst();
    return r && { result: r.result, cardId: r.card_id, cardVersion: r.card_version, filePath: r.file_path };
  }

  async setCropPath(id: string, file: string): Promise<void> {
    await this.db.updateTable('paper_scores').set({ crop_path: file }).where('id', '=', id).execute();
  }
}
