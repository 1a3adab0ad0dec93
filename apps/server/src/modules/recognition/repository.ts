import type { Kysely, Selectable } from 'kysely';
import type { Database, ScoringRulesTable } from '../../db/schema.js';
import { HomeworkRepository, type HomeworkWithPaper } from '../homework/repository.js';
import { ScanRepository, type ScanPage } from '../scan/repository.js';
import {
  pageRow,
  toAnswerKey,
  toException,
  toPage,
  type AnswerKey,
  type BatchPageLine,
  type ExceptionRecord,
  type HomeworkStudent,
  type NewException,
  type PageRow,
  type RecognitionPage,
  type ScoringRule,
  type SheetPage,
  type StudentWithClass,
} from './repository/records.js';

export type * from './repository/records.js';

type Db = Kysely<Database>;

// Rows never leave this file and repository/records.ts (the types and mappers): each read returns a camelCase domain
// type, each write takes one (ADR 0073).

/** Recognition results, exceptions, answer keys and scoring rules. Callers scope by school. */
export class RecognitionRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (repo: RecognitionRepository, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new RecognitionRepository(trx), trx));
  }

  /** A stored page image: the scan module's query and mapper serve (on this repository's connection). */
  findScanPage(pageId: string): Promise<ScanPage | undefined> {
    return new ScanRepository(this.db).findPage(pageId);
  }

  async findPage(pageId: string): Promise<RecognitionPage | undefined> {
    const row = await this.db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('page_id', '=', pageId)
      .executeTakeFirst();
    return row && toPage(row);
  }

  /** The cards (id, version) the batch's read pages were taken for, most pages first. */
  async batchCards(batchId: string): Promise<{ cardId: string; cardVersion: number; pages: number }[]> {
    const rows = await this.db
      .selectFrom('recognition_pages')
      .select(['card_id', 'card_version', (eb) => eb.fn.countAll<number | string>().as('pages')])
      .where('batch_id', '=', batchId)
      .where('card_id', 'is not', null)
      .where('card_version', 'is not', null)
      .where('homework_id', 'is not', null)
      .groupBy(['card_id', 'card_version'])
      .execute();
    return rows
      .map((r) => ({ cardId: r.card_id!, cardVersion: r.card_version!, pages: Number(r.pages) }))
      .sort((a, b) => b.pages - a.pages);
  }

  async upsertPage(page: RecognitionPage): Promise<void> {
    const row = pageRow(page) as PageRow;
    const { page_id: _key, ...rest } = row;
    await this.db
      .insertInto('recognition_pages')
      .values(row)
      .onConflict((oc) => oc.column('page_id').doUpdateSet(rest))
      .execute();
  }

  async updatePage(pageId: string, set: Partial<RecognitionPage>): Promise<void> {
    await this.db.updateTable('recognition_pages').set(pageRow(set)).where('page_id', '=', pageId).execute();
  }

  /** Other live pages of the same student and card page (a second sheet for one student). */
  async findTwin(
    homeworkId: string,
    studentId: string,
    pageNo: number,
    exceptPageId: string,
  ): Promise<RecognitionPage | undefined> {
    const row = await this.db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .where('student_id', '=', studentId)
      .where('page_no', '=', pageNo)
      .where('page_id', '!=', exceptPageId)
      .where('status', '=', 'done')
      .where('sheet_id', 'is not', null)
      .executeTakeFirst();
    return row && toPage(row);
  }

  /** Distinct card pages of a sheet read from live pages. */
  async pagesOfSheet(sheetId: string): Promise<number> {
    const rows = await this.db
      .selectFrom('recognition_pages')
      .select('page_no')
      .distinct()
      .where('sheet_id', '=', sheetId)
      .where('status', '=', 'done')
      .execute();
    return rows.length;
  }

  async listBatchPages(batchId: string): Promise<BatchPageLine[]> {
    const rows = await this.db
      .selectFrom('scan_pages as p')
      .leftJoin('recognition_pages as r', 'r.page_id', 'p.id')
      .leftJoin('students as s', 's.id', 'r.student_id')
      .leftJoin('homework as h', 'h.id', 'r.homework_id')
      .leftJoin('sheets as sh', 'sh.id', 'r.sheet_id')
      .select([
        'p.id',
        'p.seq',
        'r.status',
        'r.page_no',
        'r.homework_id',
        'r.sheet_id',
        's.name as student_name',
        'h.title as homework_title',
        'sh.objective_score_tenths',
      ])
      .where('p.batch_id', '=', batchId)
      .orderBy('p.seq', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      seq: r.seq,
      status: r.status,
      pageNo: r.page_no,
      homeworkId: r.homework_id,
      sheetId: r.sheet_id,
      studentName: r.student_name,
      homeworkTitle: r.homework_title,
      objectiveScoreTenths: r.objective_score_tenths,
    }));
  }

  // ───────────── exceptions ─────────────

  async insertExceptions(list: NewException[]): Promise<void> {
    if (list.length === 0) return;
    await this.db
      .insertInto('recognition_exceptions')
      .values(
        list.map((e) => ({
          id: e.id,
          org_id: e.orgId,
          batch_id: e.batchId,
          page_id: e.pageId,
          homework_id: e.homeworkId,
          sheet_id: e.sheetId,
          student_id: e.studentId,
          page_no: e.pageNo,
          code: e.code,
          message: e.message,
          question_ids: JSON.stringify(e.questionIds),
          created_at: e.createdAt,
        })),
      )
      .execute();
  }

  /** Drops the open exceptions of a page (a re-run of the page raises them again). */
  async clearOpenExceptions(pageId: string): Promise<void> {
    await this.db
      .deleteFrom('recognition_exceptions')
      .where('page_id', '=', pageId)
      .where('status', '=', 'open')
      .execute();
  }

  async findException(id: string): Promise<ExceptionRecord | undefined> {
    const row = await this.db
      .selectFrom('recognition_exceptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toException(row);
  }

  async listExceptions(
    orgId: string,
    filter: { batchId?: string; homeworkId?: string; status?: 'open' | 'resolved' },
  ): Promise<ExceptionRecord[]> {
    let q = this.db.selectFrom('recognition_exceptions').selectAll().where('org_id', '=', orgId);
    if (filter.batchId) q = q.where('batch_id', '=', filter.batchId);
    if (filter.homeworkId) q = q.where('homework_id', '=', filter.homeworkId);
    if (filter.status) q = q.where('status', '=', filter.status);
    return (await q.orderBy('created_at').orderBy('id').limit(500).execute()).map(toException);
  }

  async listPageExceptions(pageId: string): Promise<ExceptionRecord[]> {
    const rows = await this.db
      .selectFrom('recognition_exceptions')
      .selectAll()
      .where('page_id', '=', pageId)
      .execute();
    return rows.map(toException);
  }

  /** Resolves an exception that is still open (a resolved one keeps who resolved it, when and how). */
  async resolveException(id: string, resolution: string, userId: string | null, at: string): Promise<void> {
    await this.db
      .updateTable('recognition_exceptions')
      .set({ status: 'resolved', resolution, resolved_by: userId, resolved_at: at })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .execute();
  }

  /** Resolves every open exception of a page (the page was ignored or rescanned). */
  async resolvePageExceptions(pageId: string, resolution: string, userId: string, at: string): Promise<void> {
    await this.db
      .updateTable('recognition_exceptions')
      .set({ status: 'resolved', resolution, resolved_by: userId, resolved_at: at })
      .where('page_id', '=', pageId)
      .where('status', '=', 'open')
      .execute();
  }

  async openMissingPage(sheetId: string, pageNo: number) {
    return this.db
      .selectFrom('recognition_exceptions')
      .select('id')
      .where('sheet_id', '=', sheetId)
      .where('page_no', '=', pageNo)
      .where('code', '=', 'missingPage')
      .executeTakeFirst();
  }

  async countOpen(filter: { batchId?: string; sheetIds?: string[] }): Promise<Map<string, number>> {
    let q = this.db
      .selectFrom('recognition_exceptions')
      .select((eb) => ['batch_id', 'sheet_id', eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'open');
    if (filter.batchId) q = q.where('batch_id', '=', filter.batchId);
    if (filter.sheetIds) {
      if (filter.sheetIds.length === 0) return new Map();
      q = q.where('sheet_id', 'in', filter.sheetIds);
    }
    const rows = await q.groupBy(['batch_id', 'sheet_id']).execute();
    const out = new Map<string, number>();
    for (const r of rows) {
      const key = filter.batchId ? 'batch' : (r.sheet_id ?? '');
      out.set(key, (out.get(key) ?? 0) + Number(r.n));
    }
    return out;
  }

  // ───────────── homework, students ─────────────

  /** A homework with its paper: the homework module's query and mapper serve (on this repository's connection). */
  findHomework(id: string): Promise<HomeworkWithPaper | undefined> {
    return new HomeworkRepository(this.db).findHomeworkWithPaper(id);
  }

  /** Students of a homework's classes (with their class's name). */
  async homeworkStudents(homeworkId: string): Promise<StudentWithClass[]> {
    const rows = await this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('students as s', 's.class_id', 'hc.class_id')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id', 'c.name as class_name', 'hc.sort'])
      .where('hc.homework_id', '=', homeworkId)
      .orderBy('hc.sort')
      .orderBy('s.student_no')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, studentNo: r.student_no, className: r.class_name }));
  }

  async findHomeworkStudent(
    homeworkId: string,
    by: { id?: string; studentNo?: string },
  ): Promise<HomeworkStudent[]> {
    let q = this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('students as s', 's.class_id', 'hc.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id'])
      .where('hc.homework_id', '=', homeworkId);
    if (by.id !== undefined) q = q.where('s.id', '=', by.id);
    if (by.studentNo !== undefined) q = q.where('s.student_no', '=', by.studentNo);
    return (await q.execute()).map((r) => ({
      id: r.id,
      name: r.name,
      studentNo: r.student_no,
      classId: r.class_id,
    }));
  }

  async studentsByIds(ids: string[]): Promise<StudentWithClass[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 'c.name as class_name'])
      .where('s.id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, studentNo: r.student_no, className: r.class_name }));
  }

  homeworkTitles(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('homework').select(['id', 'title']).where('id', 'in', ids).execute();
  }

  // ───────────── answer keys and rules ─────────────

  async answerKeys(homeworkId: string): Promise<AnswerKey[]> {
    const rows = await this.db
      .selectFrom('answer_keys')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .execute();
    return rows.map(toAnswerKey);
  }

  async setAnswerKey(key: AnswerKey): Promise<void> {
    const row = {
      homework_id: key.homeworkId,
      question_id: key.questionId,
      org_id: key.orgId,
      answer: key.answer,
      updated_by: key.updatedBy,
      updated_at: key.updatedAt,
    };
    await this.db
      .insertInto('answer_keys')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['homework_id', 'question_id'])
          .doUpdateSet({ answer: row.answer, updated_by: row.updated_by, updated_at: row.updated_at }),
      )
      .execute();
  }

  async scoringRule(homeworkId: string): Promise<ScoringRule | undefined> {
    const r = await this.db
      .selectFrom('scoring_rules')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .executeTakeFirst();
    return (
      r && {
        homeworkId: r.homework_id,
        orgId: r.org_id,
        partialRule: r.partial_rule,
        updatedBy: r.updated_by,
        updatedAt: r.updated_at,
      }
    );
  }

  async setScoringRule(rule: ScoringRule): Promise<void> {
    const row: Selectable<ScoringRulesTable> = {
      homework_id: rule.homeworkId,
      org_id: rule.orgId,
      partial_rule: rule.partialRule,
      updated_by: rule.updatedBy,
      updated_at: rule.updatedAt,
    };
    await this.db
      .insertInto('scoring_rules')
      .values(row)
      .onConflict((oc) =>
        oc.column('homework_id').doUpdateSet({
          partial_rule: row.partial_rule,
          updated_by: row.updated_by,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  /** Live pages that make up a sheet (for the review). */
  async sheetPages(sheetId: string): Promise<SheetPage[]> {
    const rows = await this.db
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as p', 'p.id', 'r.page_id')
      .select(['r.page_id', 'r.page_no', 'r.result', 'r.card_id', 'r.card_version', 'p.width', 'p.height'])
      .where('r.sheet_id', '=', sheetId)
      .where('r.status', '=', 'done')
      .orderBy('r.page_no')
      .execute();
    return rows.map((r) => ({
      pageId: r.page_id,
      pageNo: r.page_no,
      result: r.result,
      cardId: r.card_id,
      cardVersion: r.card_version,
      width: r.width,
      height: r.height,
    }));
  }

  async queuedPages(): Promise<{ pageId: string; orgId: string }[]> {
    const rows = await this.db
      .selectFrom('recognition_pages')
      .select(['page_id', 'org_id'])
      .where('status', '=', 'queued')
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({ pageId: r.page_id, orgId: r.org_id }));
  }

  /** Pages of a school waiting for (or in) recognition that were stored before the given one. */
  async queuedAhead(orgId: string, page: Pick<RecognitionPage, 'pageId' | 'createdAt'>): Promise<number> {
    const row = await this.db
      .selectFrom('recognition_pages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('status', '=', 'queued')
      .where((eb) =>
        eb.or([
          eb('created_at', '<', page.createdAt),
          eb.and([eb('created_at', '=', page.createdAt), eb('page_id', '<', page.pageId)]),
        ]),
      )
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The page scanned just before or after one in its batch, with what recognition made of it. */
  async neighbour(
    batchId: string,
    seq: number,
    direction: 'before' | 'after',
  ): Promise<(RecognitionPage & { seq: number }) | undefined> {
    const row = await this.db
      .selectFrom('scan_pages as p')
      .innerJoin('recognition_pages as r', 'r.page_id', 'p.id')
      .selectAll('r')
      .select('p.seq')
      .where('p.batch_id', '=', batchId)
      .where('p.seq', direction === 'before' ? '<' : '>', seq)
      .orderBy('p.seq', direction === 'before' ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst();
    return row && { ...toPage(row), seq: row.seq };
  }
}
