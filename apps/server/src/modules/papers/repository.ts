import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike, relatedSystemQuestionIds } from '../../db/dialect.js';
import type { Database, PaperItemsTable, PaperSectionsTable, PapersTable } from '../../db/schema.js';
import { chunks } from '../../seed/catalog.js';

export type PaperRow = PapersTable;
export type SectionRow = PaperSectionsTable;
export type ItemRow = PaperItemsTable;

/** Which list of papers: mine, the school's shared ones, my recycle bin, or template papers. */
export type PaperListKind = 'mine' | 'school' | 'recycle' | 'template';

export interface PaperListFilter {
  kind: PaperListKind;
  orgId: string;
  userId: string;
  keyword?: string | undefined;
  subjectId?: string | undefined;
  status?: string | undefined;
  /** Inclusive ISO bounds on updated_at. */
  fromIso?: string | undefined;
  toIso?: string | undefined;
  /** Recycle bin: papers deleted before this instant are gone already (purged or about to be). */
  recycleCutoffIso?: string | undefined;
  offset: number;
  limit: number;
}

export interface PoolFilter {
  orgId: string;
  userId: string;
  subjectId: string;
  typeIds: string[];
  booknodeIds?: string[] | undefined;
  knowledgePointIds?: string[] | undefined;
}

export interface NewQuestion {
  id: string;
  subject_id: string;
  type_id: string;
  org_id: string;
  owner_user_id: string;
  difficulty: number;
  stem: string;
  options: string;
  answer: string;
  analysis: string;
  year: number | null;
  source: string | null;
  created_at: string;
  booknodeIds: string[];
  knowledgePointIds: string[];
}

/**
 * Papers with their sections and items, and the read-only look-ups composition needs from the
 * catalogue, the bank and the basket. Rows never leave this module's service.
 */
export class PapersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** The school's time zone (migration 0030): its "today" names default titles. */
  async schoolTimeZone(orgId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('orgs')
      .select('time_zone')
      .where('id', '=', orgId)
      .executeTakeFirst();
    return row?.time_zone;
  }

  transaction<T>(work: (repo: PapersRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new PapersRepository(trx, this.dialect)));
  }

  // ───────────── papers ─────────────

  findPaper(id: string) {
    return this.db.selectFrom('papers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listSections(paperId: string) {
    return this.db
      .selectFrom('paper_sections')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
  }

  listItems(paperId: string) {
    return this.db
      .selectFrom('paper_items')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
  }

  findSettingDefaults(userId: string) {
    return this.db
      .selectFrom('paper_setting_defaults')
      .select(['settings'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async saveSettingDefaults(userId: string, settings: string, now: string): Promise<void> {
    await this.db
      .insertInto('paper_setting_defaults')
      .values({ user_id: userId, settings, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: now }))
      .execute();
  }

  async deleteSettingDefaults(userId: string): Promise<void> {
    await this.db.deleteFrom('paper_setting_defaults').where('user_id', '=', userId).execute();
  }

  async insertPaper(row: PaperRow) {
    await this.db.insertInto('papers').values(row).execute();
  }

  /** Updates a paper if it still has `version`; false when someone saved in between. */
  async updatePaperIfVersion(id: string, version: number, set: Partial<PaperRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('papers')
      .set(set)
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updatePaper(id: string, set: Partial<PaperRow>) {
    await this.db.updateTable('papers').set(set).where('id', '=', id).execute();
  }

  /** Replaces the sections and items of a paper. */
  async replaceContent(paperId: string, sections: SectionRow[], items: ItemRow[]) {
    await this.db.deleteFrom('paper_items').where('paper_id', '=', paperId).execute();
    await this.db.deleteFrom('paper_sections').where('paper_id', '=', paperId).execute();
    for (const batch of chunks(sections, 100))
      await this.db.insertInto('paper_sections').values(batch).execute();
    for (const batch of chunks(items, 100)) await this.db.insertInto('paper_items').values(batch).execute();
  }

  async deletePapers(ids: string[]) {
    for (const batch of chunks(ids, 200)) {
      await this.db.deleteFrom('paper_items').where('paper_id', 'in', batch).execute();
      await this.db.deleteFrom('paper_sections').where('paper_id', 'in', batch).execute();
      await this.db.deleteFrom('papers').where('id', 'in', batch).execute();
    }
  }

  /** Ids of papers in a recycle bin since before `cutoffIso`. */
  async expiredDeleted(cutoffIso: string) {
    const rows = await this.db
      .selectFrom('papers')
      .select('id')
      .where('deleted_at', 'is not', null)
      .where('deleted_at', '<', cutoffIso)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The newest open draft composed from a basket paper. */
  findDraftOfBasket(userId: string, orgId: string, basketPaperId: string) {
    return this.db
      .selectFrom('papers')
      .selectAll()
      .where('owner_user_id', '=', userId)
      .where('org_id', '=', orgId)
      .where('basket_paper_id', '=', basketPaperId)
      .where('status', '=', 'draft')
      .where('deleted_at', 'is', null)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  private listQuery(f: PaperListFilter) {
    let q = this.db.selectFrom('papers as p');
    switch (f.kind) {
      case 'mine':
        q = q
          .where('p.owner_user_id', '=', f.userId)
          .where('p.org_id', '=', f.orgId)
          .where('p.deleted_at', 'is', null);
        break;
      case 'school':
        q = q
          .where('p.org_id', '=', f.orgId)
          .where('p.shared_at', 'is not', null)
          .where('p.deleted_at', 'is', null);
        break;
      case 'recycle':
        q = q
          .where('p.owner_user_id', '=', f.userId)
          .where('p.org_id', '=', f.orgId)
          .where('p.deleted_at', 'is not', null);
        if (f.recycleCutoffIso) q = q.where('p.deleted_at', '>=', f.recycleCutoffIso);
        break;
      case 'template':
        q = q
          .where('p.is_template', '=', 1)
          .where('p.deleted_at', 'is', null)
          .where((eb) =>
            eb.or([
              eb('p.owner', '=', 'system'),
              eb.and([eb('p.org_id', '=', f.orgId), eb('p.shared_at', 'is not', null)]),
            ]),
          );
        break;
    }
    if (f.keyword) q = q.where(ilike(this.dialect, 'p.title', containsPattern(f.keyword)));
    if (f.subjectId) q = q.where('p.subject_id', '=', f.subjectId);
    if (f.status) q = q.where('p.status', '=', f.status);
    if (f.fromIso) q = q.where('p.updated_at', '>=', f.fromIso);
    if (f.toIso) q = q.where('p.updated_at', '<=', f.toIso);
    return q;
  }

  async pagePapers(f: PaperListFilter) {
    const total = await this.listQuery(f)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    const order = f.kind === 'recycle' ? 'p.deleted_at' : f.kind === 'template' ? 'p.owner' : 'p.updated_at';
    let rows = this.listQuery(f).selectAll('p');
    rows =
      f.kind === 'template'
        ? rows.orderBy(order, 'desc').orderBy('p.updated_at', 'desc')
        : rows.orderBy(order, 'desc');
    const list = await rows.orderBy('p.id', 'desc').offset(f.offset).limit(f.limit).execute();
    return { total: Number(total.n), rows: list };
  }

  /** Question count and total score (tenths) of each paper, computed from its items. */
  async totalsOf(paperIds: string[]) {
    if (paperIds.length === 0) return new Map<string, { count: number; tenths: number }>();
    const rows = await this.db
      .selectFrom('paper_items as i')
      .innerJoin('paper_sections as s', 's.id', 'i.section_id')
      .select([
        'i.paper_id',
        sql<number>`count(*)`.as('n'),
        sql<number>`sum(coalesce(i.score_tenths, s.default_score_tenths))`.as('tenths'),
      ])
      .where('i.paper_id', 'in', paperIds)
      .groupBy('i.paper_id')
      .execute();
    return new Map(rows.map((r) => [r.paper_id, { count: Number(r.n), tenths: Number(r.tenths ?? 0) }]));
  }

  // ───────────── names ─────────────

  findSubject(subjectId: string) {
    return this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as g', 'g.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'g.name as stage_name'])
      .where('s.id', '=', subjectId)
      .executeTakeFirst();
  }

  subjectsByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as g', 'g.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'g.name as stage_name'])
      .where('s.id', 'in', ids)
      .execute();
  }

  usersByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'nickname']).where('id', 'in', ids).execute();
  }

  findTextbook(id: string) {
    return this.db
      .selectFrom('textbooks')
      .select(['id', 'subject_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  questionTypes(subjectId: string) {
    return this.db
      .selectFrom('question_types')
      .select(['id', 'name', 'objective', 'sort'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
  }

  typesByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('question_types')
      .select(['id', 'subject_id', 'name', 'sort'])
      .where('id', 'in', ids)
      .execute();
  }

  /** Booknodes of the textbooks holding `ids`, for expanding chapters to their sections. */
  booknodesAround(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('booknodes')
      .select(['id', 'parent_id', 'textbook_id'])
      .where(
        'textbook_id',
        'in',
        this.db.selectFrom('booknodes').select('textbook_id').where('id', 'in', ids),
      )
      .execute();
  }

  knowledgePoints(subjectId: string) {
    return this.db
      .selectFrom('knowledge_points')
      .select(['id', 'parent_id', 'name'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
  }

  classesOf(orgId: string, classIds: string[]) {
    if (classIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('classes')
      .select(['id'])
      .where('org_id', '=', orgId)
      .where('id', 'in', classIds)
      .execute();
  }

  // ───────────── questions (read; personal copies are inserted) ─────────────

  /** Question rows by id, deleted ones included (a paper keeps showing what it holds). */
  async questionsByIds(ids: string[]) {
    const out = [];
    for (const batch of chunks([...new Set(ids)], 300)) {
      out.push(
        ...(await this.db
          .selectFrom('questions as q')
          .innerJoin('question_types as t', 't.id', 'q.type_id')
          .select([
            'q.id',
            'q.subject_id',
            'q.type_id',
            't.name as type_name',
            'q.owner',
            'q.org_id',
            'q.owner_user_id',
            'q.difficulty',
            'q.stem',
            'q.options',
            'q.answer',
            'q.analysis',
            'q.year',
            'q.source',
            'q.deleted_at',
          ])
          .where('q.id', 'in', batch)
          .execute()),
      );
    }
    return out;
  }

  /** The subject's system questions sharing words with `tokens`, best first, with their indexed words. */
  async relatedQuestions(subjectId: string, tokens: readonly string[], limit: number) {
    const ids = await relatedSystemQuestionIds(this.db, this.dialect, subjectId, tokens, limit);
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('questions')
      .select(['id', 'search_tokens'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r.search_tokens ?? '']));
    return ids.map((id) => ({ id, tokens: byId.get(id) ?? '' }));
  }

  async knowledgePointsOf(questionIds: string[]) {
    const out = [];
    for (const batch of chunks([...new Set(questionIds)], 300)) {
      out.push(
        ...(await this.db
          .selectFrom('question_knowledge_points as qk')
          .innerJoin('knowledge_points as k', 'k.id', 'qk.knowledge_point_id')
          .select(['qk.question_id', 'k.id', 'k.name'])
          .where('qk.question_id', 'in', batch)
          .orderBy('k.sort')
          .execute()),
      );
    }
    return out;
  }

  async booknodesOf(questionIds: string[]) {
    if (questionIds.length === 0) return [];
    return this.db
      .selectFrom('question_booknodes')
      .select(['question_id', 'booknode_id'])
      .where('question_id', 'in', questionIds)
      .execute();
  }

  private visible(orgId: string, userId: string) {
    return this.db
      .selectFrom('questions as q')
      .where('q.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('q.owner', '=', 'system'),
          eb.and([eb('q.owner', '=', 'school'), eb('q.org_id', '=', orgId)]),
          eb.and([eb('q.owner', '=', 'personal'), eb('q.owner_user_id', '=', userId)]),
        ]),
      );
  }

  /** The ids among `ids` the caller may put in a paper. */
  async visibleQuestionIds(orgId: string, userId: string, ids: string[]) {
    const out = new Set<string>();
    for (const batch of chunks([...new Set(ids)], 300)) {
      const rows = await this.visible(orgId, userId).select('q.id').where('q.id', 'in', batch).execute();
      for (const r of rows) out.add(r.id);
    }
    return out;
  }

  /** Candidates for smart composition: id, type, level and knowledge points. */
  async pool(f: PoolFilter) {
    let q = this.visible(f.orgId, f.userId)
      .where('q.subject_id', '=', f.subjectId)
      .where('q.type_id', 'in', f.typeIds);
    if (f.booknodeIds && f.booknodeIds.length > 0) {
      const ids = f.booknodeIds;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('question_booknodes as qb')
            .select('qb.question_id')
            .whereRef('qb.question_id', '=', 'q.id')
            .where('qb.booknode_id', 'in', ids),
        ),
      );
    }
    if (f.knowledgePointIds && f.knowledgePointIds.length > 0) {
      const ids = f.knowledgePointIds;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('question_knowledge_points as qk')
            .select('qk.question_id')
            .whereRef('qk.question_id', '=', 'q.id')
            .where('qk.knowledge_point_id', 'in', ids),
        ),
      );
    }
    const rows = await q.select(['q.id', 'q.type_id', 'q.difficulty']).orderBy('q.id').execute();
    const kps = await this.db
      .selectFrom('question_knowledge_points as qk')
      .select(['qk.question_id', 'qk.knowledge_point_id'])
      .where('qk.question_id', 'in', q.select('q.id'))
      .execute();
    const byQuestion = new Map<string, string[]>();
    for (const k of kps) {
      const list = byQuestion.get(k.question_id) ?? [];
      list.push(k.knowledge_point_id);
      byQuestion.set(k.question_id, list);
    }
    return rows.map((r) => ({
      id: r.id,
      typeId: r.type_id,
      level: r.difficulty,
      knowledgePointIds: byQuestion.get(r.id) ?? [],
    }));
  }

  /** Inserts a personal question (a copy edited inline, or one imported from Word) with its links. */
  async insertQuestion(q: NewQuestion) {
    await this.db
      .insertInto('questions')
      .values({
        id: q.id,
        subject_id: q.subject_id,
        type_id: q.type_id,
        owner: 'personal',
        org_id: q.org_id,
        owner_user_id: q.owner_user_id,
        difficulty: q.difficulty,
        stem: q.stem,
        options: q.options,
        answer: q.answer,
        analysis: q.analysis,
        year: q.year,
        source: q.source,
        created_at: q.created_at,
        updated_at: q.created_at,
        deleted_at: null,
      })
      .execute();
    const nodes = [...new Set(q.booknodeIds)];
    if (nodes.length > 0) {
      await this.db
        .insertInto('question_booknodes')
        .values(nodes.map((b) => ({ question_id: q.id, booknode_id: b })))
        .execute();
    }
    const kps = [...new Set(q.knowledgePointIds)];
    if (kps.length > 0) {
      await this.db
        .insertInto('question_knowledge_points')
        .values(kps.map((k) => ({ question_id: q.id, knowledge_point_id: k })))
        .execute();
    }
  }

  // ───────────── the basket (read only) ─────────────

  findBasketPaper(orgId: string, userId: string, basketPaperId: string) {
    return this.db
      .selectFrom('basket_papers')
      .select(['id', 'stage_id', 'subject_id', 'textbook_id'])
      .where('id', '=', basketPaperId)
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The basket paper's questions in its type order, then in the order they were added. */
  basketItems(basketPaperId: string) {
    return this.db
      .selectFrom('basket_items as i')
      .innerJoin('basket_sections as b', 'b.id', 'i.section_id')
      .select(['b.type_id', 'i.question_id'])
      .where('i.paper_id', '=', basketPaperId)
      .orderBy('b.sort')
      .orderBy('i.sort')
      .execute();
  }

  // ───────────── meta ─────────────

  findMeta(key: string) {
    return this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  }

  async setMeta(key: string, value: string) {
    await this.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
