import { sql, type Kysely } from 'kysely';
import type { QuestionType, Textbook } from '@zhzy/contracts';
import type { Database } from '../../db/schema.js';
import { containsPattern, ilike, type FullTextQuery } from '../../db/dialect.js';
import type { DialectName } from '../../db/connect.js';
import { questionsMatching, visibleTo } from '../questions/repository.js';

export interface QuestionFilter {
  orgId: string;
  userId: string;
  subjectId: string;
  typeId?: string | undefined;
  difficulty?: number | undefined;
  booknodeIds?: string[] | undefined;
  knowledgePointIds?: string[] | undefined;
  keyword?: FullTextQuery | null | undefined;
  year?: number | undefined;
  source?: string | undefined;
  region?: string | undefined;
  scope: 'all' | 'system' | 'school' | 'mine';
  sort: 'default' | 'newest' | 'mostUsed';
  offset: number;
  limit: number;
}

/** A subject and its stage. */
export interface Subject {
  id: string;
  name: string;
  stageId: string;
  stageName: string;
}

const toSubject = (r: { id: string; name: string; stage_id: string; stage_name: string }): Subject => ({
  id: r.id,
  name: r.name,
  stageId: r.stage_id,
  stageName: r.stage_name,
});

/** A node of a chapter or knowledge tree, flat. */
export interface TreeRow {
  id: string;
  parentId: string | null;
  name: string;
}

const toTreeRow = (r: { id: string; parent_id: string | null; name: string }): TreeRow => ({
  id: r.id,
  parentId: r.parent_id,
  name: r.name,
});

/** Stages, subjects, textbooks, chapter and knowledge trees, question types and questions. */
export class CatalogRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  listStages() {
    return this.db.selectFrom('stages').select(['id', 'name']).orderBy('sort').execute();
  }

  async listSubjects(): Promise<{ id: string; stageId: string; name: string }[]> {
    const rows = await this.db
      .selectFrom('subjects')
      .select(['id', 'stage_id', 'name'])
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({ id: r.id, stageId: r.stage_id, name: r.name }));
  }

  private subjects() {
    return this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as g', 'g.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'g.name as stage_name']);
  }

  /** A subject with its stage's name (the papers module names papers and checks subjects through this). */
  async findSubject(subjectId: string): Promise<Subject | undefined> {
    const row = await this.subjects().where('s.id', '=', subjectId).executeTakeFirst();
    return row && toSubject(row);
  }

  async subjectsByIds(ids: string[]): Promise<Subject[]> {
    if (ids.length === 0) return [];
    return (await this.subjects().where('s.id', 'in', ids).execute()).map(toSubject);
  }

  async listTextbooks(subjectId: string): Promise<Textbook[]> {
    const rows = await this.db
      .selectFrom('textbooks')
      .select(['id', 'subject_id', 'publisher', 'name'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({ id: r.id, subjectId: r.subject_id, publisher: r.publisher, name: r.name }));
  }

  /** A textbook and its subject (the papers module checks a paper's textbook through this too). */
  async findTextbook(textbookId: string): Promise<{ id: string; subjectId: string } | undefined> {
    const row = await this.db
      .selectFrom('textbooks')
      .select(['id', 'subject_id'])
      .where('id', '=', textbookId)
      .executeTakeFirst();
    return row && { id: row.id, subjectId: row.subject_id };
  }

  async listBooknodes(textbookId: string): Promise<TreeRow[]> {
    const rows = await this.db
      .selectFrom('booknodes')
      .select(['id', 'parent_id', 'name'])
      .where('textbook_id', '=', textbookId)
      .orderBy('depth')
      .orderBy('sort')
      .execute();
    return rows.map(toTreeRow);
  }

  async findBooknode(id: string): Promise<{ id: string; textbookId: string } | undefined> {
    const row = await this.db
      .selectFrom('booknodes')
      .select(['id', 'textbook_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { id: row.id, textbookId: row.textbook_id };
  }

  /** The subject's knowledge points in their order (papers' smart composition and Word import read them too). */
  async listKnowledgePoints(subjectId: string): Promise<TreeRow[]> {
    const rows = await this.db
      .selectFrom('knowledge_points')
      .select(['id', 'parent_id', 'name'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
    return rows.map(toTreeRow);
  }

  async findKnowledgePoint(id: string): Promise<{ id: string; subjectId: string } | undefined> {
    const row = await this.db
      .selectFrom('knowledge_points')
      .select(['id', 'subject_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { id: row.id, subjectId: row.subject_id };
  }

  /** A subject's question types in their order (the papers module's Word import picks among them too). */
  async listQuestionTypes(subjectId: string): Promise<QuestionType[]> {
    const rows = await this.db
      .selectFrom('question_types')
      .select(['id', 'subject_id', 'name', 'objective'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      subjectId: r.subject_id,
      name: r.name,
      objective: r.objective === 1,
    }));
  }

  private visibleQuestions(orgId: string, userId: string) {
    return this.db.selectFrom('questions as q').where(visibleTo(orgId, userId));
  }

  private filtered(f: QuestionFilter) {
    let query = questionsMatching(this.db, this.dialect, f.keyword)
      .where(visibleTo(f.orgId, f.userId))
      .where('q.subject_id', '=', f.subjectId);
    if (f.scope === 'system') query = query.where('q.owner', '=', 'system');
    if (f.scope === 'school') query = query.where('q.owner', '=', 'school');
    if (f.scope === 'mine') query = query.where('q.owner', '=', 'personal');
    if (f.typeId) query = query.where('q.type_id', '=', f.typeId);
    if (f.difficulty) query = query.where('q.difficulty', '=', f.difficulty);
    if (f.year) query = query.where('q.year', '=', f.year);
    if (f.region) query = query.where('q.region', '=', f.region);
    if (f.source) query = query.where(ilike(this.dialect, 'q.source', containsPattern(f.source)));
    // As `id in (…)` rather than EXISTS: the planner can then start from the chapter's or point's links
    // when they are fewer than the subject's questions.
    if (f.booknodeIds) {
      const ids = f.booknodeIds;
      query = query.where('q.id', 'in', (eb) =>
        eb.selectFrom('question_booknodes as qb').select('qb.question_id').where('qb.booknode_id', 'in', ids),
      );
    }
    if (f.knowledgePointIds) {
      const ids = f.knowledgePointIds;
      query = query.where('q.id', 'in', (eb) =>
        eb
          .selectFrom('question_knowledge_points as qk')
          .select('qk.question_id')
          .where('qk.knowledge_point_id', 'in', ids),
      );
    }
    return query;
  }

  /** One page of question ids for the filters, in the order asked for, and the total. */
  async pageQuestionIds(f: QuestionFilter) {
    if (f.keyword) return this.pageSearchHits(f);
    const perType = await this.filtered(f)
      .select(['q.type_id', sql<number>`count(*)`.as('n')])
      .groupBy('q.type_id')
      .execute();
    const total = perType.reduce((sum, r) => sum + Number(r.n), 0);
    if (total === 0 || f.offset >= total) return { total, ids: [] };
    let query = this.filtered(f).select('q.id');
    if (f.sort === 'newest') query = query.orderBy('q.created_at', 'desc').orderBy('q.id', 'desc');
    else if (f.sort === 'mostUsed')
      query = query.orderBy('q.usage_count', 'desc').orderBy('q.created_at', 'desc').orderBy('q.id', 'desc');
    else return { total, ids: await this.pageByType(f, perType) };
    const rows = await query.offset(f.offset).limit(f.limit).execute();
    return { total, ids: rows.map((r) => r.id) };
  }

  /**
   * A full-text search reads its hits once (the few columns the orders need) and counts, sorts and pages them
   * here, instead of matching the index twice (once to count, once for the page). Ties break on the id in
   * code-point order, the same on both databases whatever their collation.
   */
  private async pageSearchHits(f: QuestionFilter) {
    const [hits, types] = await Promise.all([
      this.filtered(f).select(['q.id', 'q.type_id', 'q.created_at', 'q.usage_count']).execute(),
      this.db
        .selectFrom('question_types')
        .select(['id', 'sort'])
        .where('subject_id', '=', f.subjectId)
        .execute(),
    ]);
    const typeSort = new Map(types.map((t) => [t.id, t.sort]));
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const newest = (a: (typeof hits)[number], b: (typeof hits)[number]) =>
      a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : -byId(a, b);
    if (f.sort === 'newest') hits.sort(newest);
    else if (f.sort === 'mostUsed') hits.sort((a, b) => b.usage_count - a.usage_count || newest(a, b));
    else hits.sort((a, b) => (typeSort.get(a.type_id) ?? 0) - (typeSort.get(b.type_id) ?? 0) || byId(a, b));
    return { total: hits.length, ids: hits.slice(f.offset, f.offset + f.limit).map((h) => h.id) };
  }

  /**
   * The default order (type, then id) without sorting the whole subject: the page is cut from the per-type
   * counts, and each type's part is read in index order.
   */
  private async pageByType(f: QuestionFilter, perType: { type_id: string; n: number }[]) {
    const order = await this.db
      .selectFrom('question_types')
      .select('id')
      .where(
        'id',
        'in',
        perType.map((r) => r.type_id),
      )
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const counts = new Map(perType.map((r) => [r.type_id, Number(r.n)]));
    const ids: string[] = [];
    let skip = f.offset;
    let wanted = f.limit;
    for (const { id: typeId } of order) {
      const n = counts.get(typeId) ?? 0;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      const take = Math.min(wanted, n - skip);
      const rows = await this.filtered(f)
        .where('q.type_id', '=', typeId)
        .select('q.id')
        .orderBy('q.id')
        .offset(skip)
        .limit(take)
        .execute();
      ids.push(...rows.map((r) => r.id));
      wanted -= take;
      skip = 0;
      if (wanted === 0) break;
    }
    return ids;
  }

  /**
   * 举一反三 candidates: visible questions of the same subject and type, difficulty within one level, sharing
   * at least one of `linkIds` (knowledge points, or chapters when `by` is 'chapter'). Ordered by how many
   * links they share, then closeness of difficulty, then id, so the answer is the same every time.
   */
  async similarIds(f: {
    orgId: string;
    userId: string;
    subjectId: string;
    typeId: string;
    difficulty: number;
    by: 'knowledge' | 'chapter';
    linkIds: string[];
    exclude: string[];
    limit: number;
  }) {
    if (f.linkIds.length === 0) return [];
    const links =
      f.by === 'knowledge'
        ? this.db
            .selectFrom('question_knowledge_points as l')
            .select(['l.question_id', 'l.knowledge_point_id as link_id'])
        : this.db.selectFrom('question_booknodes as l').select(['l.question_id', 'l.booknode_id as link_id']);
    let query = this.visibleQuestions(f.orgId, f.userId)
      .innerJoin(links.as('l'), 'l.question_id', 'q.id')
      .where('l.link_id', 'in', f.linkIds)
      .where('q.subject_id', '=', f.subjectId)
      .where('q.type_id', '=', f.typeId)
      .where('q.difficulty', '>=', f.difficulty - 1)
      .where('q.difficulty', '<=', f.difficulty + 1);
    if (f.exclude.length > 0) query = query.where('q.id', 'not in', f.exclude);
    const rows = await query
      .select(['q.id', sql<number>`count(*)`.as('shared'), 'q.difficulty'])
      .groupBy(['q.id', 'q.difficulty'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy(sql`abs(${sql.ref('q.difficulty')} - ${f.difficulty})`)
      .orderBy('q.id')
      .limit(f.limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The chapters holding `booknodeIds` (a section's parent, or the node itself when it is a chapter) with every section under them. */
  async chapterNodes(booknodeIds: string[]): Promise<string[]> {
    if (booknodeIds.length === 0) return [];
    const nodes = await this.db
      .selectFrom('booknodes')
      .select(['id', 'parent_id'])
      .where('id', 'in', booknodeIds)
      .execute();
    const chapters = [...new Set(nodes.map((n) => n.parent_id ?? n.id))];
    const under = await this.db
      .selectFrom('booknodes')
      .select('id')
      .where('parent_id', 'in', chapters)
      .execute();
    return [...chapters, ...under.map((n) => n.id)];
  }

  /** Years, sources, regions and difficulties among the visible questions of a subject, with counts. */
  async filterCounts(orgId: string, userId: string, subjectId: string) {
    const base = () => this.visibleQuestions(orgId, userId).where('q.subject_id', '=', subjectId);
    const count = sql<number>`count(*)`.as('n');
    const [years, sources, regions, difficulties] = await Promise.all([
      base().select(['q.year as value', count]).where('q.year', 'is not', null).groupBy('q.year').execute(),
      base()
        .select(['q.source as value', count])
        .where('q.source', 'is not', null)
        .groupBy('q.source')
        .execute(),
      base()
        .select(['q.region as value', count])
        .where('q.region', 'is not', null)
        .groupBy('q.region')
        .execute(),
      base().select(['q.difficulty as value', count]).groupBy('q.difficulty').execute(),
    ]);
    return { years, sources, regions, difficulties };
  }

  /** The visible questions among `ids`, with their subject, stage and type. */
  /** The questions among `ids` the user may see, with where each belongs (stage, subject, type). */
  async findVisibleQuestions(
    orgId: string,
    userId: string,
    ids: string[],
  ): Promise<{ id: string; subjectId: string; stageId: string; typeId: string }[]> {
    const rows = await this.visibleQuestions(orgId, userId)
      .innerJoin('subjects as s', 's.id', 'q.subject_id')
      .select(['q.id', 'q.subject_id', 's.stage_id', 'q.type_id'])
      .where('q.id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, subjectId: r.subject_id, stageId: r.stage_id, typeId: r.type_id }));
  }
}
