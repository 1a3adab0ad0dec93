import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  RecognitionExceptionsTable,
  RecognitionPagesTable,
  ScoringRulesTable,
} from '../../db/schema.js';
import { ScanRepository, type ScanPage } from '../scan/repository.js';

export type RecognitionPageRow = Selectable<RecognitionPagesTable>;
export type RecognitionExceptionRow = Selectable<RecognitionExceptionsTable>;
export type NewException = Omit<
  RecognitionExceptionRow,
  'status' | 'resolution' | 'resolved_by' | 'resolved_at'
>;

type Db = Kysely<Database>;

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

  findPage(pageId: string) {
    return this.db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('page_id', '=', pageId)
      .executeTakeFirst();
  }

  /** The cards (id, version) the batch's read pages were taken for, most pages first. */
  async batchCards(batchId: string): Promise<{ card_id: string; card_version: number; pages: number }[]> {
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
      .map((r) => ({ card_id: r.card_id!, card_version: r.card_version!, pages: Number(r.pages) }))
      .sort((a, b) => b.pages - a.pages);
  }

  async upsertPage(row: RecognitionPageRow): Promise<void> {
    const { page_id: _key, ...rest } = row;
    await this.db
      .insertInto('recognition_pages')
      .values(row)
      .onConflict((oc) => oc.column('page_id').doUpdateSet(rest))
      .execute();
  }

  async updatePage(pageId: string, set: Partial<RecognitionPageRow>): Promise<void> {
    await this.db.updateTable('recognition_pages').set(set).where('page_id', '=', pageId).execute();
  }

  /** Other live pages of the same student and card page (a second sheet for one student). */
  findTwin(homeworkId: string, studentId: string, pageNo: number, exceptPageId: string) {
    return this.db
      .selectFrom('recognition_pages')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .where('student_id', '=', studentId)
      .where('page_no', '=', pageNo)
      .where('page_id', '!=', exceptPageId)
      .where('status', '=', 'done')
      .where('sheet_id', 'is not', null)
      .executeTakeFirst();
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

  listBatchPages(batchId: string) {
    return this.db
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
  }

  // ───────────── exceptions ─────────────

  async insertExceptions(rows: NewException[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('recognition_exceptions').values(rows).execute();
  }

  /** Drops the open exceptions of a page (a re-run of the page raises them again). */
  async clearOpenExceptions(pageId: string): Promise<void> {
    await this.db
      .deleteFrom('recognition_exceptions')
      .where('page_id', '=', pageId)
      .where('status', '=', 'open')
      .execute();
  }

  findException(id: string) {
    return this.db.selectFrom('recognition_exceptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listExceptions(
    orgId: string,
    filter: { batchId?: string; homeworkId?: string; status?: 'open' | 'resolved' },
  ) {
    let q = this.db.selectFrom('recognition_exceptions').selectAll().where('org_id', '=', orgId);
    if (filter.batchId) q = q.where('batch_id', '=', filter.batchId);
    if (filter.homeworkId) q = q.where('homework_id', '=', filter.homeworkId);
    if (filter.status) q = q.where('status', '=', filter.status);
    return q.orderBy('created_at').orderBy('id').limit(500).execute();
  }

  listPageExceptions(pageId: string) {
    return this.db.selectFrom('recognition_exceptions').selectAll().where('page_id', '=', pageId).execute();
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

  findHomework(id: string) {
    return this.db.selectFrom('homework').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Students of a homework's classes (with their class's name). */
  homeworkStudents(homeworkId: string) {
    return this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('students as s', 's.class_id', 'hc.class_id')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id', 'c.name as class_name', 'hc.sort'])
      .where('hc.homework_id', '=', homeworkId)
      .orderBy('hc.sort')
      .orderBy('s.student_no')
      .execute();
  }

  findHomeworkStudent(homeworkId: string, by: { id?: string; studentNo?: string }) {
    let q = this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('students as s', 's.class_id', 'hc.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id'])
      .where('hc.homework_id', '=', homeworkId);
    if (by.id !== undefined) q = q.where('s.id', '=', by.id);
    if (by.studentNo !== undefined) q = q.where('s.student_no', '=', by.studentNo);
    return q.execute();
  }

  studentsByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 'c.name as class_name'])
      .where('s.id', 'in', ids)
      .execute();
  }

  homeworkTitles(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('homework').select(['id', 'title']).where('id', 'in', ids).execute();
  }

  // ───────────── answer keys and rules ─────────────

  answerKeys(homeworkId: string) {
    return this.db.selectFrom('answer_keys').selectAll().where('homework_id', '=', homeworkId).execute();
  }

  async setAnswerKey(row: Selectable<Database['answer_keys']>): Promise<void> {
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

  scoringRule(homeworkId: string) {
    return this.db
      .selectFrom('scoring_rules')
      .selectAll()
      .where('homework_id', '=', homeworkId)
      .executeTakeFirst();
  }

  async setScoringRule(row: Selectable<ScoringRulesTable>): Promise<void> {
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
  sheetPages(sheetId: string) {
    return this.db
      .selectFrom('recognition_pages as r')
      .innerJoin('scan_pages as p', 'p.id', 'r.page_id')
      .select(['r.page_id', 'r.page_no', 'r.result', 'r.card_id', 'r.card_version', 'p.width', 'p.height'])
      .where('r.sheet_id', '=', sheetId)
      .where('r.status', '=', 'done')
      .orderBy('r.page_no')
      .execute();
  }

  queuedPages() {
    return this.db
      .selectFrom('recognition_pages')
      .select(['page_id', 'org_id'])
      .where('status', '=', 'queued')
      .orderBy('created_at')
      .execute();
  }

  /** Pages of a school waiting for (or in) recognition that were stored before the given one. */
  async queuedAhead(orgId: string, page: { page_id: string; created_at: string }): Promise<number> {
    const row = await this.db
      .selectFrom('recognition_pages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('status', '=', 'queued')
      .where((eb) =>
        eb.or([
          eb('created_at', '<', page.created_at),
          eb.and([eb('created_at', '=', page.created_at), eb('page_id', '<', page.page_id)]),
        ]),
      )
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The page scanned just before or after one in its batch, with what recognition made of it. */
  async neighbour(batchId: string, seq: number, direction: 'before' | 'after') {
    return this.db
      .selectFrom('scan_pages as p')
      .innerJoin('recognition_pages as r', 'r.page_id', 'p.id')
      .selectAll('r')
      .select('p.seq')
      .where('p.batch_id', '=', batchId)
      .where('p.seq', direction === 'before' ? '<' : '>', seq)
      .orderBy('p.seq', direction === 'before' ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst();
  }
}
