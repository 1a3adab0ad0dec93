import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DialectName } from '../../../db/connect.js';
import { relatedSystemQuestionIds } from '../../../db/dialect.js';
import type { Database } from '../../../db/schema.js';
import { chunks } from '../../../seed/catalog.js';
import { CatalogRepository } from '../../catalog/repository.js';

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

/** A personal question composition inserts (an inline edit's copy, or a question imported from Word). */
export interface NewQuestion {
  id: string;
  subjectId: string;
  typeId: string;
  orgId: string;
  ownerUserId: string;
  difficulty: number;
  stem: string;
  options: { label: string; content: string }[];
  answer: string;
  analysis: string;
  year: number | null;
  source: string | null;
  createdAt: string;
  booknodeIds: string[];
  knowledgePointIds: string[];
}

/** A bank question as a paper shows it, with its type's name. */
export interface BankQuestion {
  id: string;
  subjectId: string;
  typeId: string;
  typeName: string;
  owner: string;
  orgId: string | null;
  ownerUserId: string | null;
  difficulty: number;
  stem: string;
  options: { label: string; content: string }[];
  answer: string;
  analysis: string;
  year: number | null;
  source: string | null;
  deletedAt: string | null;
}

/** A basket paper of the caller's: what composing from it needs. */
export interface BasketPaperRef {
  id: string;
  stageId: string;
  subjectId: string;
  textbookId: string | null;
}

const OptionsJson = z.array(z.object({ label: z.string(), content: z.string() }));

/** Stored options (JSON); a list that does not fit the schema reads as none. */
function parseOptions(json: string): BankQuestion['options'] {
  try {
    return OptionsJson.parse(JSON.parse(json));
  } catch {
    return [];
  }
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

  usersByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'nickname']).where('id', 'in', ids).execute();
  }

  async typesByIds(ids: string[]): Promise<{ id: string; subjectId: string; name: string }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('question_types')
      .select(['id', 'subject_id', 'name'])
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, subjectId: r.subject_id, name: r.name }));
  }

  /** Booknodes of the textbooks holding `ids`, for expanding chapters to their sections. */
  async booknodesAround(ids: string[]): Promise<{ id: string; parentId: string | null }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('booknodes')
      .select(['id', 'parent_id'])
      .where(
        'textbook_id',
        'in',
        this.db.selectFrom('booknodes').select('textbook_id').where('id', 'in', ids),
      )
      .execute();
    return rows.map((r) => ({ id: r.id, parentId: r.parent_id }));
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
  async questionsByIds(ids: string[]): Promise<BankQuestion[]> {
    const out: BankQuestion[] = [];
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
          .execute()
          .then((rows) =>
            rows.map((r) => ({
              id: r.id,
              subjectId: r.subject_id,
              typeId: r.type_id,
              typeName: r.type_name,
              owner: r.owner,
              orgId: r.org_id,
              ownerUserId: r.owner_user_id,
              difficulty: r.difficulty,
              stem: r.stem,
              options: parseOptions(r.options),
              answer: r.answer,
              analysis: r.analysis,
              year: r.year,
              source: r.source,
              deletedAt: r.deleted_at,
            })),
          )),
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

  async knowledgePointsOf(
    questionIds: string[],
  ): Promise<{ questionId: string; id: string; name: string }[]> {
    const out: { questionId: string; id: string; name: string }[] = [];
    for (const batch of chunks([...new Set(questionIds)], 300)) {
      out.push(
        ...(await this.db
          .selectFrom('question_knowledge_points as qk')
          .innerJoin('knowledge_points as k', 'k.id', 'qk.knowledge_point_id')
          .select(['qk.question_id', 'k.id', 'k.name'])
          .where('qk.question_id', 'in', batch)
          .orderBy('k.sort')
          .execute()
          .then((rows) => rows.map((r) => ({ questionId: r.question_id, id: r.id, name: r.name })))),
      );
    }
    return out;
  }

  /** The booknode ids the questions are filed under. */
  async booknodeIdsOf(questionIds: string[]): Promise<string[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('question_booknodes')
      .select(['booknode_id'])
      .where('question_id', 'in', questionIds)
      .execute();
    return rows.map((r) => r.booknode_id);
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
        subject_id: q.subjectId,
        type_id: q.typeId,
        owner: 'personal',
        org_id: q.orgId,
        owner_user_id: q.ownerUserId,
        difficulty: q.difficulty,
        stem: q.stem,
        options: JSON.stringify(q.options),
        answer: q.answer,
        analysis: q.analysis,
        year: q.year,
        source: q.source,
        created_at: q.createdAt,
        updated_at: q.createdAt,
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

  async findBasketPaper(
    orgId: string,
    userId: string,
    basketPaperId: string,
  ): Promise<BasketPaperRef | undefined> {
    const row = await this.db
      .selectFrom('basket_papers')
      .select(['id', 'stage_id', 'subject_id', 'textbook_id'])
      .where('id', '=', basketPaperId)
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      row && { id: row.id, stageId: row.stage_id, subjectId: row.subject_id, textbookId: row.textbook_id }
    );
  }

  /** The basket paper's question ids in its type order, then in the order they were added. */
  async basketQuestionIds(basketPaperId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('basket_items as i')
      .innerJoin('basket_sections as b', 'b.id', 'i.section_id')
      .select(['i.question_id'])
      .where('i.paper_id', '=', basketPaperId)
      .orderBy('b.sort')
      .orderBy('i.sort')
      .execute();
    return rows.map((r) => r.question_id);
  }
}
