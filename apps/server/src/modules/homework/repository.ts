import type { Kysely } from 'kysely';
import { compareClassNames, type CardSettings, type HomeworkPaper } from '@zhzy/contracts';
import type { Database, HomeworkClassesTable } from '../../db/schema.js';
import { studentsOfClass } from '../../db/counts.js';
import { chunks } from '../../seed/catalog.js';
import {
  paperFromSnapshot,
  settingsOf,
  toBody,
  toCard,
  toCardVersion,
  toFrozenCardHead,
  toHomework,
  toListing,
  type AnswerCard,
  type CardVersion,
  type CardVersionBody,
  type FrozenCardHead,
  type Homework,
  type HomeworkFilter,
  type HomeworkListing,
  type HomeworkWithPaper,
  type NewHomework,
} from './repository/records.js';

export type {
  AnswerCard,
  CardVersion,
  CardVersionBody,
  FrozenCardHead,
  Homework,
  HomeworkFilter,
  HomeworkListing,
  HomeworkWithPaper,
  NewHomework,
} from './repository/records.js';

/**
 * Homework with its classes, the answer cards of papers and their frozen versions, and the read-only look-ups of
 * classes and students these need. Rows never leave this module's service.
 */
export class HomeworkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repo: HomeworkRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new HomeworkRepository(trx)));
  }

  // ───────────── answer cards of papers ─────────────

  async findCard(paperId: string): Promise<AnswerCard | undefined> {
    const row = await this.db
      .selectFrom('answer_cards')
      .selectAll()
      .where('paper_id', '=', paperId)
      .executeTakeFirst();
    return row && toCard(row);
  }

  /** Saves the designer's settings of a paper's card (creating the card on its first save). */
  async saveCardSettings(row: {
    paperId: string;
    orgId: string;
    settings: CardSettings;
    userId: string;
    now: string;
  }) {
    const settings = JSON.stringify(row.settings);
    await this.db
      .insertInto('answer_cards')
      .values({
        paper_id: row.paperId,
        org_id: row.orgId,
        settings,
        saved: 1,
        latest_version: 0,
        updated_by: row.userId,
        created_at: row.now,
        updated_at: row.now,
      })
      .onConflict((oc) =>
        oc.column('paper_id').doUpdateSet({
          settings,
          saved: 1,
          updated_by: row.userId,
          updated_at: row.now,
        }),
      )
      .execute();
  }

  /** Creates a paper's card with default settings unless it exists. */
  async ensureCard(row: {
    paperId: string;
    orgId: string;
    settings: CardSettings;
    userId: string;
    now: string;
  }) {
    await this.db
      .insertInto('answer_cards')
      .values({
        paper_id: row.paperId,
        org_id: row.orgId,
        settings: JSON.stringify(row.settings),
        saved: 0,
        latest_version: 0,
        updated_by: row.userId,
        created_at: row.now,
        updated_at: row.now,
      })
      .onConflict((oc) => oc.column('paper_id').doNothing())
      .execute();
  }

  /**
   * Takes the next version of a card. Call inside a transaction: the update locks the card's row (PostgreSQL) or
   * the database (SQLite), so two publications never take the same version.
   */
  async takeNextVersion(cardId: string): Promise<number> {
    await this.db
      .updateTable('answer_cards')
      .set((eb) => ({ latest_version: eb('latest_version', '+', 1) }))
      .where('paper_id', '=', cardId)
      .execute();
    const row = await this.db
      .selectFrom('answer_cards')
      .select('latest_version')
      .where('paper_id', '=', cardId)
      .executeTakeFirstOrThrow();
    return row.latest_version;
  }

  async insertCardVersion(v: CardVersion) {
    await this.db
      .insertInto('card_versions')
      .values({
        card_id: v.cardId,
        version: v.version,
        org_id: v.orgId,
        homework_id: v.homeworkId,
        settings: JSON.stringify(v.settings),
        card_paper: JSON.stringify(v.paper),
        layout: JSON.stringify(v.layout),
        identity: v.identity,
        page_count: v.pageCount,
        created_by: v.createdBy,
        created_at: v.createdAt,
      })
      .execute();
  }

  async findCardVersion(cardId: string, version: number): Promise<CardVersion | undefined> {
    const row = await this.db
      .selectFrom('card_versions')
      .selectAll()
      .where('card_id', '=', cardId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && toCardVersion(row);
  }

  /** A frozen version's facts with the homework it belongs to (the recogniser's look-up), without its JSON. */
  async findFrozenCard(cardId: string, version: number): Promise<FrozenCardHead | undefined> {
    const r = await this.db
      .selectFrom('card_versions as cv')
      .innerJoin('homework as h', 'h.id', 'cv.homework_id')
      .select([
        'cv.card_id',
        'cv.version',
        'cv.org_id',
        'cv.homework_id',
        'cv.created_at',
        'h.paper_id',
        'h.card_version as current_version',
        'h.deleted_at as homework_deleted_at',
      ])
      .where('cv.card_id', '=', cardId)
      .where('cv.version', '=', version)
      .executeTakeFirst();
    return r && toFrozenCardHead(r);
  }

  /** The JSON of a frozen version: settings, the card's paper and the layout (never changed once written). */
  async cardVersionBody(cardId: string, version: number): Promise<CardVersionBody | undefined> {
    const row = await this.db
      .selectFrom('card_versions')
      .select(['settings', 'card_paper', 'layout'])
      .where('card_id', '=', cardId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && toBody(row);
  }

  /** The versions of one homework's card, newest first (without their paper and layout). */
  async listCardVersions(
    homeworkId: string,
  ): Promise<
    Pick<CardVersion, 'cardId' | 'version' | 'identity' | 'pageCount' | 'settings' | 'createdAt'>[]
  > {
    const rows = await this.db
      .selectFrom('card_versions')
      .select(['card_id', 'version', 'identity', 'page_count', 'settings', 'created_at'])
      .where('homework_id', '=', homeworkId)
      .orderBy('version', 'desc')
      .execute();
    return rows.map((r) => ({
      cardId: r.card_id,
      version: r.version,
      identity: r.identity,
      pageCount: r.page_count,
      settings: settingsOf(r.settings),
      createdAt: r.created_at,
    }));
  }

  // ───────────── homework ─────────────

  async insertHomework(h: NewHomework, classIds: string[]) {
    await this.db
      .insertInto('homework')
      .values({
        id: h.id,
        org_id: h.orgId,
        year_id: h.yearId,
        type: h.type,
        title: h.title,
        paper_id: h.paperId,
        paper_title: h.paperTitle,
        stage_id: h.stageId,
        subject_id: h.subjectId,
        start_date: h.startDate,
        due_date: h.dueDate,
        subject_teacher: h.subjectTeacher ? 1 : 0,
        question_count: h.questionCount,
        total_score_tenths: h.totalScoreTenths,
        paper_snapshot: JSON.stringify(h.paper),
        card_id: h.cardId,
        card_version: h.cardVersion,
        created_by: h.createdBy,
        created_at: h.createdAt,
        updated_at: h.updatedAt,
        deleted_at: h.deletedAt,
      })
      .execute();
    const classes: HomeworkClassesTable[] = classIds.map((classId, i) => ({
      homework_id: h.id,
      class_id: classId,
      sort: i + 1,
    }));
    for (const batch of chunks(classes)) await this.db.insertInto('homework_classes').values(batch).execute();
  }

  /** Counts one more use of each question (the bank's 最多使用 order and the 使用次数 shown on each question). */
  async countQuestionUse(questionIds: readonly string[]): Promise<void> {
    for (const ids of chunks([...new Set(questionIds)])) {
      await this.db
        .updateTable('questions')
        .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
        .where('id', 'in', ids)
        .execute();
    }
  }

  async findHomework(id: string): Promise<Homework | undefined> {
    const row = await this.db.selectFrom('homework').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toHomework(row);
  }

  /** A homework with the snapshot of the paper it was published from, parsed by its schema. */
  async findHomeworkWithPaper(id: string): Promise<HomeworkWithPaper | undefined> {
    const row = await this.db.selectFrom('homework').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { ...toHomework(row), paper: paperFromSnapshot(row.paper_snapshot) };
  }

  /** The snapshot of the paper a homework was published from, parsed by its schema. */
  async findPaperSnapshot(id: string): Promise<HomeworkPaper | undefined> {
    return (await this.findHomeworkWithPaper(id))?.paper;
  }

  /** Points a homework at a newer card version (never back at an older one, whatever order edits finish in). */
  async setCardVersion(id: string, version: number, now: string) {
    await this.db
      .updateTable('homework')
      .set({ card_version: version, updated_at: now })
      .where('id', '=', id)
      .where('card_version', '<', version)
      .execute();
  }

  async softDelete(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('homework')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private filtered(f: HomeworkFilter) {
    let q = this.db
      .selectFrom('homework as h')
      .where('h.org_id', '=', f.orgId)
      .where('h.deleted_at', 'is', null);
    if (f.yearId) q = q.where('h.year_id', '=', f.yearId);
    if (f.ids) q = q.where('h.id', 'in', f.ids.length > 0 ? f.ids : ['']);
    if (f.subjectId) q = q.where('h.subject_id', '=', f.subjectId);
    if (f.type) q = q.where('h.type', '=', f.type);
    if (f.from) q = q.where('h.due_date', '>=', f.from);
    if (f.to) q = q.where('h.start_date', '<=', f.to);
    if (f.createdBy) q = q.where('h.created_by', '=', f.createdBy);
    if (f.classId) {
      const classId = f.classId;
      q = q.where('h.id', 'in', (eb) =>
        eb.selectFrom('homework_classes').select('homework_id').where('class_id', '=', classId),
      );
    }
    return q;
  }

  async countHomework(f: HomeworkFilter): Promise<number> {
    const row = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Homework for lists, newest start first, with the names and the current card version's facts. */
  async listHomework(f: HomeworkFilter): Promise<HomeworkListing[]> {
    return (await this.listing(f).execute()).map(toListing);
  }

  /**
   * A page of the list and how many homework the filter finds, in one statement (a window count beside the rows);
   * a page past the end has no row to carry the count, so only then is it counted on its own.
   */
  async pageHomework(
    f: HomeworkFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: HomeworkListing[]; total: number }> {
    const rows = await this.listing(f)
      .select((eb) => eb.fn.countAll<number>().over().as('total'))
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    if (rows.length === 0 && page.offset > 0) return { rows: [], total: await this.countHomework(f) };
    return { rows: rows.map(toListing), total: Number(rows[0]?.total ?? 0) };
  }

  private listing(f: HomeworkFilter) {
    return this.filtered(f)
      .innerJoin('subjects as sj', 'sj.id', 'h.subject_id')
      .innerJoin('stages as st', 'st.id', 'h.stage_id')
      .innerJoin('users as u', 'u.id', 'h.created_by')
      .innerJoin('card_versions as cv', (join) =>
        join.onRef('cv.card_id', '=', 'h.card_id').onRef('cv.version', '=', 'h.card_version'),
      )
      .select([
        'h.id',
        'h.title',
        'h.type',
        'h.paper_id',
        'h.paper_title',
        'h.stage_id',
        'st.name as stage_name',
        'h.subject_id',
        'sj.name as subject_name',
        'h.year_id',
        'h.start_date',
        'h.due_date',
        'h.subject_teacher',
        'h.question_count',
        'h.total_score_tenths',
        'h.card_id',
        'h.card_version',
        'cv.identity as card_identity',
        'cv.page_count as card_page_count',
        'cv.settings as card_settings',
        'h.created_by',
        'u.nickname as created_by_name',
        'h.created_at',
        'h.updated_at',
      ])
      .orderBy('h.start_date', 'desc')
      .orderBy('h.created_at', 'desc')
      .orderBy('h.id', 'desc');
  }

  /** The classes of some homework, in the order they were chosen, each with its students counted. */
  async classesOf(
    homeworkIds: string[],
  ): Promise<{ homeworkId: string; classId: string; name: string; sort: number; students: number }[]> {
    const out = [];
    for (const batch of chunks(homeworkIds, 300)) {
      out.push(
        ...(await this.db
          .selectFrom('homework_classes as hc')
          .innerJoin('classes as c', 'c.id', 'hc.class_id')
          .select([
            'hc.homework_id',
            'hc.class_id',
            'c.name',
            'hc.sort',
            studentsOfClass('hc.class_id').as('students'),
          ])
          .where('hc.homework_id', 'in', batch)
          .orderBy('hc.homework_id')
          .orderBy('hc.sort')
          .execute()),
      );
    }
    return out
      .sort((a, b) => a.homework_id.localeCompare(b.homework_id) || compareClassNames(a.name, b.name))
      .map((r) => ({
        homeworkId: r.homework_id,
        classId: r.class_id,
        name: r.name,
        sort: r.sort,
        students: Number(r.students ?? 0),
      }));
  }

  /** Each class's most recent homework (by start date, then publication) among the given classes. */
  async latestHomeworkOfClasses(
    orgId: string,
    classIds: string[],
  ): Promise<{ classId: string; id: string; startDate: string; createdAt: string }[]> {
    if (classIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('homework_classes as hc')
      .innerJoin('homework as h', 'h.id', 'hc.homework_id')
      .select(['hc.class_id', 'h.id', 'h.start_date', 'h.created_at'])
      .where('h.org_id', '=', orgId)
      .where('h.deleted_at', 'is', null)
      .where('hc.class_id', 'in', classIds)
      .execute();
    return rows.map((r) => ({
      classId: r.class_id,
      id: r.id,
      startDate: r.start_date,
      createdAt: r.created_at,
    }));
  }

  /** The paper snapshots of some homework; null for a snapshot its schema does not read. */
  async snapshotsOf(ids: string[]): Promise<{ id: string; paper: HomeworkPaper | null }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('homework')
      .select(['id', 'paper_snapshot'])
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, paper: paperFromSnapshot(r.paper_snapshot, null) }));
  }

  // ───────────── classes and students ─────────────

  async classesByIds(
    ids: string[],
  ): Promise<{ id: string; orgId: string; yearId: string; name: string; sort: number }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('classes')
      .select(['id', 'org_id', 'year_id', 'name', 'sort'])
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, orgId: r.org_id, yearId: r.year_id, name: r.name, sort: r.sort }));
  }

  /** The students of some classes, by student number within each class. */
  async studentsOfClasses(
    classIds: string[],
  ): Promise<{ id: string; name: string; studentNo: string; classId: string; className: string }[]> {
    if (classIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id', 'c.name as class_name'])
      .where('s.class_id', 'in', classIds)
      .orderBy('s.student_no')
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      studentNo: r.student_no,
      classId: r.class_id,
      className: r.class_name,
    }));
  }

  /** Some student numbers of a school year (to size the number bubble grid). */
  async studentNumbersOf(orgId: string, yearId: string | null, limit = 500): Promise<string[]> {
    let q = this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select('s.student_no')
      .where('s.org_id', '=', orgId);
    if (yearId) q = q.where('c.year_id', '=', yearId);
    const rows = await q.orderBy('s.id').limit(limit).execute();
    return rows.map((r) => r.student_no);
  }
}
