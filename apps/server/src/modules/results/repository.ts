import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  AnswerKind,
  Database,
  ResponseStatus,
  ScoreSource,
  SheetAnswersTable,
  SheetsTable,
} from '../../db/schema.js';
import { newId, nowIso } from '../../lib/ids.js';
import type { HomeworkProgress, HomeworkProgressSource } from '../homework/service.js';
import { sheetTotals } from './scoring.js';

// Results: a sheet per (homework, student) and an answer per question, the one place every writer goes through
// (recognition, the teacher's review, marking, seeding) so totals and the change log can never drift from the
// answers. Callers scope by school before calling; every method here trusts the ids it is given.

export type SheetRow = Selectable<SheetsTable>;
export type SheetAnswerRow = Selectable<SheetAnswersTable>;

export { OBJECTIVE_KINDS, isObjective } from './scoring.js';

export interface OpenSheet {
  orgId: string;
  homeworkId: string;
  studentId: string;
  classId: string;
  cardId: string;
  cardVersion: number;
  pagesExpected: number;
  /** Every question of the homework's paper, in paper order. */
  questions: readonly { questionId: string; kind: AnswerKind; fullScoreTenths: number }[];
}

/** What one writer changes of one answer; fields left out stay as they are. */
export interface AnswerPatch {
  questionId: string;
  response?: string | null;
  responseStatus?: ResponseStatus | null;
  cropPath?: string | null;
  blank?: boolean;
  /** Null clears the score (the answer waits for a marker again). */
  scoreTenths?: number | null;
  /** Required whenever scoreTenths is given. */
  source?: ScoreSource;
}

type Db = Kysely<Database>;

/** What a packed answer holds (ADR 0033, ADR 0037): what analysis reads of an answer. */
export interface PackableAnswer {
  question_id: string;
  score_tenths: number | null;
  response: string | null;
  blank: number;
  crop_path: string | null;
}

/** Code-unit order of question ids: the order of a pack's entries. */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The key of a set of question ids (ADR 0037): their count and a 32-bit FNV-1a hash of the ids in code-unit order,
 * one newline after each. A pack starts with the key of the questions it holds; a reader takes a pack only when its
 * key is the key of the paper's questions, so entries without their ids still land on the right questions.
 */
export function packKey(questionIds: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of [...questionIds].sort(byId)) {
    for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 10, 0x01000193);
  }
  return `${questionIds.length}.${(h >>> 0).toString(36)}`;
}

/** Where a paper's questions sit in a pack: their key, and for each entry of a pack the question's paper index. */
export interface PackLayout {
  key: string;
  /** Entry j of a pack is the answer to question `order[j]` of the paper (paper order). */
  order: Int32Array;
}

/** The pack layout of a paper's questions (question ids in paper order, each once). */
export function packLayout(questionIds: readonly string[]): PackLayout {
  const order = questionIds.map((_, i) => i).sort((a, b) => byId(questionIds[a]!, questionIds[b]!));
  return { key: packKey(questionIds), order: Int32Array.from(order) };
}

/** Flags of a packed answer's code (the low two bits). */
export const PACKED_CROP = 1;
export const PACKED_BLANK = 2;

/**
 * One answer's score and flags as one number: `(score in tenths + 1) × 4`, 0 for no score, plus 2 when blank and 1
 * when it has a crop. The score is `(code >> 2) - 1` tenths (none when the code is below 4).
 */
export const packedCode = (a: PackableAnswer): number =>
  (a.score_tenths === null ? 0 : (a.score_tenths + 1) * 4) +
  (a.blank ? PACKED_BLANK : 0) +
  (a.crop_path === null ? 0 : PACKED_CROP);

/**
 * A sheet's answers as `sheets.answers_packed` (migration 0025, ADR 0037): a JSON array
 * `[key, code, response | null, code, response | null, …]` — the key of the sheet's question ids (`packKey`), then
 * two entries per answer in question-id order (code-unit order, no ids): its `packedCode` and its response.
 */
export function packAnswers(answers: readonly PackableAnswer[]): string {
  const sorted = [...answers].sort((a, b) => byId(a.question_id, b.question_id));
  const out: (string | number | null)[] = [packKey(sorted.map((a) => a.question_id))];
  for (const a of sorted) out.push(packedCode(a), a.response);
  return JSON.stringify(out);
}

export class ResultsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Runs `fn` with a repository bound to one transaction. */
  transaction<T>(fn: (repo: ResultsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new ResultsRepository(trx, this.clock)));
  }

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

  /**
   * The sheet of a student for a homework, with an answer row for every question; created on first call, returned
   * as it is afterwards (a second page of the same student lands on the same sheet).
   */
  async openSheet(input: OpenSheet): Promise<SheetRow> {
    const existing = await this.findSheetOf(input.homeworkId, input.studentId);
    if (existing) return existing;
    const now = nowIso(this.clock);
    const id = newId();
    const unscored = input.questions.length;
    await this.db
      .insertInto('sheets')
      .values({
        id,
        org_id: input.orgId,
        homework_id: input.homeworkId,
        student_id: input.studentId,
        class_id: input.classId,
        card_id: input.cardId,
        card_version: input.cardVersion,
        pages_expected: input.pagesExpected,
        unscored_count: unscored,
        answers_packed: packAnswers(
          input.questions.map((q) => ({
            question_id: q.questionId,
            score_tenths: null,
            response: null,
            blank: 0,
            crop_path: null,
          })),
        ),
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (input.questions.length > 0) {
      await this.db
        .insertInto('sheet_answers')
        .values(
          input.questions.map((q) => ({
            sheet_id: id,
            org_id: input.orgId,
            homework_id: input.homeworkId,
            question_id: q.questionId,
            kind: q.kind,
            response: null,
            response_status: null,
            crop_path: null,
            full_score_tenths: q.fullScoreTenths,
            score_tenths: null,
            score_source: null,
            updated_by: null,
            updated_at: now,
          })),
        )
        .execute();
    }
    await this.bumpVersion(id);
    return (await this.findSheet(id))!;
  }

  async setPagesReceived(sheetId: string, pages: number): Promise<void> {
    await this.db
      .updateTable('sheets')
      .set({ pages_received: pages, updated_at: nowIso(this.clock) })
      .where('id', '=', sheetId)
      .execute();
    await this.bumpVersion(sheetId);
  }

  async setReviewStatus(sheetId: string, status: 'pending' | 'confirmed'): Promise<void> {
    await this.db
      .updateTable('sheets')
      .set({ review_status: status, updated_at: nowIso(this.clock) })
      .where('id', '=', sheetId)
      .execute();
    await this.bumpVersion(sheetId);
  }

  /**
   * Applies patches to answers of one sheet, records every change of a response or a score (who, why, before,
   * after) and recomputes the sheet's totals. Call inside `transaction` when several writers may race.
   * Returns the number of answers whose response or score changed.
   */
  async writeAnswers(
    sheetId: string,
    patches: readonly AnswerPatch[],
    actor: { userId: string | null; reason: string },
  ): Promise<number> {
    if (patches.length === 0) return 0;
    const sheet = await this.findSheet(sheetId);
    if (!sheet) throw new Error(`sheet ${sheetId} not found`);
    const current = new Map((await this.listAnswers(sheetId)).map((a) => [a.question_id, a]));
    const now = nowIso(this.clock);
    let changed = 0;
    for (const patch of patches) {
      const before = current.get(patch.questionId);
      if (!before) throw new Error(`question ${patch.questionId} is not on sheet ${sheetId}`);
      if (patch.scoreTenths !== undefined && patch.scoreTenths !== null) {
        if (!Number.isInteger(patch.scoreTenths) || patch.scoreTenths < 0)
          throw new Error(`score ${patch.scoreTenths} is not a whole number of tenths`);
        if (patch.scoreTenths > before.full_score_tenths)
          throw new Error(`score ${patch.scoreTenths} above full ${before.full_score_tenths}`);
        if (!patch.source) throw new Error('a score needs its source');
      }
      const set: Partial<SheetAnswerRow> = { updated_at: now, updated_by: actor.userId };
      if (patch.response !== undefined) set.response = patch.response;
      if (patch.responseStatus !== undefined) set.response_status = patch.responseStatus;
      if (patch.cropPath !== undefined) set.crop_path = patch.cropPath;
      if (patch.blank !== undefined) set.blank = patch.blank ? 1 : 0;
      if (patch.scoreTenths !== undefined) {
        set.score_tenths = patch.scoreTenths;
        set.score_source = patch.scoreTenths === null ? null : patch.source!;
      }
      await this.db
        .updateTable('sheet_answers')
        .set(set)
        .where('sheet_id', '=', sheetId)
        .where('question_id', '=', patch.questionId)
        .execute();
      const responseChanged = patch.response !== undefined && patch.response !== before.response;
      const scoreChanged = patch.scoreTenths !== undefined && patch.scoreTenths !== before.score_tenths;
      if (responseChanged || scoreChanged) {
        changed += 1;
        await this.db
          .insertInto('score_changes')
          .values({
            id: newId(),
            org_id: sheet.org_id,
            homework_id: sheet.homework_id,
            sheet_id: sheetId,
            question_id: patch.questionId,
            user_id: actor.userId,
            reason: actor.reason,
            before_response: before.response,
            after_response: patch.response !== undefined ? patch.response : before.response,
            before_score_tenths: before.score_tenths,
            after_score_tenths: patch.scoreTenths !== undefined ? patch.scoreTenths : before.score_tenths,
            created_at: now,
          })
          .execute();
      }
    }
    await this.recomputeTotals(sheetId);
    return changed;
  }

  /**
   * Objective, subjective and total scores, the unscored count and the packed answers (ADR 0033), from the answers
   * as they are now.
   */
  async recomputeTotals(sheetId: string): Promise<void> {
    const answers = await this.listAnswers(sheetId);
    const totals = sheetTotals(answers.map((a) => ({ kind: a.kind, scoreTenths: a.score_tenths })));
    await this.db
      .updateTable('sheets')
      .set({
        objective_score_tenths: totals.objectiveTenths,
        subjective_score_tenths: totals.subjectiveTenths,
        total_score_tenths: totals.totalTenths,
        unscored_count: totals.unscored,
        answers_packed: packAnswers(answers),
        updated_at: nowIso(this.clock),
      })
      .where('id', '=', sheetId)
      .execute();
    await this.bumpVersion(sheetId);
  }

  /**
   * Packs some sheets anew from their answer rows: for bulk writers that insert answers set-based instead of through
   * `writeAnswers` (a generated district), so their sheets carry the pack `recomputeTotals` would write. Figures do
   * not change, so no version moves.
   */
  async repack(sheetIds: readonly string[]): Promise<void> {
    for (let i = 0; i < sheetIds.length; i += 500) {
      const ids = sheetIds.slice(i, i + 500);
      const answers = new Map<string, PackableAnswer[]>(ids.map((id) => [id, []]));
      const rows = await this.db
        .selectFrom('sheet_answers')
        .select(['sheet_id', 'question_id', 'score_tenths', 'response', 'blank', 'crop_path'])
        .where('sheet_id', 'in', ids)
        .execute();
      for (const r of rows) answers.get(r.sheet_id)!.push(r);
      const packs = sql.join(
        ids.map((id) => sql`when ${id} then ${packAnswers(answers.get(id)!)}`),
        sql` `,
      );
      await this.db
        .updateTable('sheets')
        .set({ answers_packed: sql<string>`case id ${packs} end` })
        .where('id', 'in', ids)
        .execute();
    }
  }

  /**
   * Bumps the results version of the sheet's homework (migration 0017): analysis compares it with the version its
   * cached figures were computed at (ADR 0021). Runs after the data it covers is written, in the caller's
   * transaction when there is one, so a reader never sees the new version with the old data.
   */
  private async bumpVersion(sheetId: string): Promise<void> {
    await this.db
      .insertInto('analysis_versions')
      .columns(['key', 'version'])
      .expression((eb) =>
        eb
          .selectFrom('sheets')
          .select(['homework_id', sql<number>`1`.as('version')])
          .where('id', '=', sheetId),
      )
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ version: sql<number>`analysis_versions.version + 1` }),
      )
      .execute();
    // The sheet remembers the version that covers it, so a reader at an older version re-reads only the sheets
    // written since (migration 0022, ADR 0030).
    await this.db
      .updateTable('sheets')
      .set({
        results_version: (eb) =>
          eb
            .selectFrom('analysis_versions')
            .select('version')
            .whereRef('analysis_versions.key', '=', 'sheets.homework_id'),
      })
      .where('id', '=', sheetId)
      .execute();
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
}

/**
 * Pages received and answers still to score per homework of a school: answered from the index
 * `sheets (homework_id, org_id, pages_received, unscored_count)` alone (migration 0023, ADR 0031).
 */
export function receivedQuery(db: Db, orgId: string, homeworkIds: string[]) {
  return db
    .selectFrom('sheets')
    .select((eb) => [
      'homework_id',
      eb.fn.sum<number>('pages_received').as('pages'),
      eb.fn.sum<number>('unscored_count').as('unscored'),
    ])
    .where('org_id', '=', orgId)
    .where('homework_id', 'in', homeworkIds)
    .groupBy('homework_id');
}

/**
 * Homework progress from results: pages received against the pages expected (students of the homework's classes ×
 * pages of its current card), and answers still waiting for a score.
 */
export function resultsProgress(db: Db): HomeworkProgressSource {
  return {
    async progressOf(orgId, homeworkIds) {
      const out = new Map<string, HomeworkProgress>();
      if (homeworkIds.length === 0) return out;
      const received = await receivedQuery(db, orgId, homeworkIds).execute();
      if (received.length === 0) return out;
      const expected = await db
        .selectFrom('homework as h')
        .innerJoin('card_versions as v', (j) =>
          j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
        )
        .innerJoin('homework_classes as hc', 'hc.homework_id', 'h.id')
        .innerJoin('students as s', 's.class_id', 'hc.class_id')
        .select((eb) => ['h.id', 'v.page_count', eb.fn.countAll<number>().as('students')])
        .where('h.org_id', '=', orgId)
        .where('h.id', 'in', homeworkIds)
        .groupBy(['h.id', 'v.page_count'])
        .execute();
      const expectedOf = new Map(expected.map((e) => [e.id, Number(e.students) * Number(e.page_count)]));
      for (const r of received) {
        out.set(r.homework_id, {
          pages: Number(r.pages ?? 0),
          expectedPages: expectedOf.get(r.homework_id) ?? 0,
          answersToMark: Number(r.unscored ?? 0),
        });
      }
      return out;
    },
  };
}
