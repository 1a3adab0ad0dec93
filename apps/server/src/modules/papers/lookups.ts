import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { relatedSystemQuestionIds } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { chunks } from '../../seed/catalog.js';
import { CatalogRepository } from '../catalog/repository.js';

// The read-only look-ups composition needs from the catalogue, the bank and the basket (names, questions, the
// pool smart composition draws from), and the personal copies of questions it inserts. `PapersRepository`
// (repository.ts) adds the papers themselves on top of it.

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

export class PaperLookups {
  /** Textbooks and question types are the catalogue's: one query each serves both modules. */
  readonly catalog: CatalogRepository;

  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly dialect: DialectName,
  ) {
    this.catalog = new CatalogRepository(db, dialect);
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
}
