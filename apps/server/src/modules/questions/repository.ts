import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { isForeignKeyViolation, refreshPlannerStatistics, type FullTextQuery } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { questionSearchTokens } from './search-text.js';
import { questionsMatching } from './visibility.js';

export { questionsMatching, visibleTo, type QuestionsDb } from './visibility.js';
import {
  QUESTION_COLUMNS,
  parseOptions,
  toLink,
  toQuestionRecord,
  writeRow,
  type PageArgs,
  type QuestionLink,
  type QuestionRecord,
  type QuestionWrite,
} from './repository/records.js';

export {
  QUESTION_COLUMNS,
  parseOptions,
  type PageArgs,
  type QuestionLink,
  type QuestionOption,
  type QuestionRecord,
  type QuestionWrite,
} from './repository/records.js';

/** Questions, their links, sharing, the recycle bin and the full-text index. Only this file writes them. */
export class QuestionsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: DialectName,
  ) {}

  transaction<T>(work: (repo: QuestionsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new QuestionsRepository(trx, this.dialect)));
  }

  private selectQuestions() {
    return this.db
      .selectFrom('questions as q')
      .innerJoin('question_types as t', 't.id', 'q.type_id')
      .innerJoin('subjects as s', 's.id', 'q.subject_id')
      .select(QUESTION_COLUMNS);
  }

  async findQuestion(id: string): Promise<QuestionRecord | undefined> {
    const row = await this.selectQuestions().where('q.id', '=', id).executeTakeFirst();
    return row && toQuestionRecord(row);
  }

  /** Questions by id, in the order of `ids`. */
  async questionsByIds(ids: string[]): Promise<QuestionRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectQuestions().where('q.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, toQuestionRecord(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async knowledgePointsOf(questionIds: string[]): Promise<QuestionLink[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('question_knowledge_points as qk')
      .innerJoin('knowledge_points as k', 'k.id', 'qk.knowledge_point_id')
      .select(['qk.question_id', 'k.id', 'k.name'])
      .where('qk.question_id', 'in', questionIds)
      .orderBy('k.sort')
      .orderBy('k.id')
      .execute();
    return rows.map(toLink);
  }

  async chaptersOf(questionIds: string[]): Promise<QuestionLink[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('question_booknodes as qb')
      .innerJoin('booknodes as b', 'b.id', 'qb.booknode_id')
      .innerJoin('textbooks as x', 'x.id', 'b.textbook_id')
      .select(['qb.question_id', 'b.id', 'b.name'])
      .where('qb.question_id', 'in', questionIds)
      .orderBy('x.sort')
      .orderBy('b.depth')
      .orderBy('b.sort')
      .execute();
    return rows.map(toLink);
  }

  async findType(typeId: string): Promise<{ id: string; subjectId: string; name: string } | undefined> {
    const row = await this.db
      .selectFrom('question_types')
      .select(['id', 'subject_id', 'name'])
      .where('id', '=', typeId)
      .executeTakeFirst();
    return row && { id: row.id, subjectId: row.subject_id, name: row.name };
  }

  findSubject(subjectId: string) {
    return this.db.selectFrom('subjects').select(['id']).where('id', '=', subjectId).executeTakeFirst();
  }

  /** The knowledge points among `ids` that belong to the subject, with their names. */
  knowledgePointsIn(subjectId: string, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('knowledge_points')
      .select(['id', 'name'])
      .where('subject_id', '=', subjectId)
      .where('id', 'in', ids)
      .execute();
  }

  /** The chapters among `ids` that belong to a textbook of the subject. */
  booknodesIn(subjectId: string, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('booknodes as b')
      .innerJoin('textbooks as x', 'x.id', 'b.textbook_id')
      .select(['b.id'])
      .where('x.subject_id', '=', subjectId)
      .where('b.id', 'in', ids)
      .execute();
  }

  private async setLinks(questionId: string, knowledgePointIds: string[], booknodeIds: string[]) {
    await this.db.deleteFrom('question_knowledge_points').where('question_id', '=', questionId).execute();
    await this.db.deleteFrom('question_booknodes').where('question_id', '=', questionId).execute();
    if (knowledgePointIds.length > 0)
      await this.db
        .insertInto('question_knowledge_points')
        .values(knowledgePointIds.map((k) => ({ question_id: questionId, knowledge_point_id: k })))
        .execute();
    if (booknodeIds.length > 0)
      await this.db
        .insertInto('question_booknodes')
        .values(booknodeIds.map((b) => ({ question_id: questionId, booknode_id: b })))
        .execute();
  }

  /** Inserts a question with its links; its search tokens are written in the same statement. */
  async insert(row: {
    id: string;
    write: QuestionWrite;
    owner: 'personal' | 'school';
    orgId: string | null;
    ownerUserId: string;
    originId: string | null;
    reviewStatus: 'approved' | 'pending';
    now: string;
    knowledgePoints: { id: string; name: string }[];
    booknodeIds: string[];
    searchTokens: string;
  }) {
    await this.db
      .insertInto('questions')
      .values({
        id: row.id,
        ...writeRow(row.write),
        owner: row.owner,
        org_id: row.orgId,
        owner_user_id: row.ownerUserId,
        origin_id: row.originId,
        review_status: row.reviewStatus,
        created_at: row.now,
        updated_at: row.now,
        deleted_at: null,
        search_tokens: row.searchTokens,
      })
      .execute();
    await this.setLinks(
      row.id,
      row.knowledgePoints.map((k) => k.id),
      row.booknodeIds,
    );
  }

  async update(
    id: string,
    write: QuestionWrite,
    now: string,
    knowledgePointIds: string[],
    booknodeIds: string[],
    searchTokens: string,
  ) {
    await this.db
      .updateTable('questions')
      .set({ ...writeRow(write), updated_at: now, search_tokens: searchTokens })
      .where('id', '=', id)
      .execute();
    await this.setLinks(id, knowledgePointIds, booknodeIds);
  }

  async setDeleted(id: string, deletedAt: string | null) {
    await this.db.updateTable('questions').set({ deleted_at: deletedAt }).where('id', '=', id).execute();
  }

  async setReview(id: string, review: { status: string; by: string; at: string; note: string | null }) {
    await this.db
      .updateTable('questions')
      .set({
        review_status: review.status,
        reviewed_by: review.by,
        reviewed_at: review.at,
        review_note: review.note,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A share of `originId` still waiting for review in the school. */
  findPendingShare(orgId: string, originId: string) {
    return this.db
      .selectFrom('questions')
      .select('id')
      .where('owner', '=', 'school')
      .where('org_id', '=', orgId)
      .where('origin_id', '=', originId)
      .where('review_status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** School questions of one school in one review state (optionally of one sharer), one page. */
  async pageSchool(f: {
    orgId: string;
    /** Any state when left out. */
    status?: string | undefined;
    sharedBy?: string | undefined;
    subjectId?: string | undefined;
    keyword?: FullTextQuery | null;
    oldestFirst: boolean;
    page: PageArgs;
  }) {
    let query = questionsMatching(this.db, this.dialect, f.keyword)
      .where('q.owner', '=', 'school')
      .where('q.org_id', '=', f.orgId)
      .where('q.deleted_at', 'is', null);
    if (f.status) query = query.where('q.review_status', '=', f.status);
    if (f.sharedBy) query = query.where('q.owner_user_id', '=', f.sharedBy);
    if (f.subjectId) query = query.where('q.subject_id', '=', f.subjectId);
    const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const direction = f.oldestFirst ? 'asc' : 'desc';
    const ids = await query
      .select('q.id')
      .orderBy('q.created_at', direction)
      .orderBy('q.id', direction)
      .offset(f.page.offset)
      .limit(f.page.limit)
      .execute();
    return { total: Number(total.n), ids: ids.map((r) => r.id) };
  }

  /** Nicknames of users, by id. */
  async nicknames(userIds: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'nickname'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.nickname]));
  }

  /** The caller's questions in the recycle bin, deleted since `since`, most recently deleted first. */
  async pageRecycle(f: { userId: string; since: string; subjectId?: string | undefined; page: PageArgs }) {
    let query = this.db
      .selectFrom('questions as q')
      .where('q.owner', '=', 'personal')
      .where('q.owner_user_id', '=', f.userId)
      .where('q.deleted_at', 'is not', null)
      .where('q.deleted_at', '>=', f.since)
      .where('q.purged_at', 'is', null);
    if (f.subjectId) query = query.where('q.subject_id', '=', f.subjectId);
    const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const ids = await query
      .select('q.id')
      .orderBy('q.deleted_at', 'desc')
      .orderBy('q.id', 'desc')
      .offset(f.page.offset)
      .limit(f.page.limit)
      .execute();
    return { total: Number(total.n), ids: ids.map((r) => r.id) };
  }

  /** Personal and school questions deleted before `before` and not yet purged. */
  async expiredDeleted(before: string, limit = 500) {
    const rows = await this.db
      .selectFrom('questions')
      .select('id')
      .where('deleted_at', 'is not', null)
      .where('deleted_at', '<', before)
      .where('purged_at', 'is', null)
      .where('owner', '!=', 'system')
      .orderBy('deleted_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes a question for ever: its links, basket entries and row. A question a saved paper still points
   * at cannot go (foreign key): it is marked purged instead, so that paper keeps it and nothing else shows it.
   * Answers 'deleted' or 'kept'.
   */
  async deleteForever(id: string, now: string): Promise<'deleted' | 'kept'> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // The baskets that held it change: their members' cached baskets must be rebuilt.
        const holders = await trx
          .selectFrom('basket_items as i')
          .innerJoin('basket_papers as p', 'p.id', 'i.paper_id')
          .select(['p.org_id', 'p.user_id'])
          .where('i.question_id', '=', id)
          .execute();
        for (const h of holders) {
          await trx
            .updateTable('memberships')
            .set((eb) => ({ basket_version: eb('basket_version', '+', 1) }))
            .where('org_id', '=', h.org_id)
            .where('user_id', '=', h.user_id)
            .execute();
        }
        await trx.deleteFrom('basket_items').where('question_id', '=', id).execute();
        await trx.deleteFrom('question_knowledge_points').where('question_id', '=', id).execute();
        await trx.deleteFrom('question_booknodes').where('question_id', '=', id).execute();
        await trx.deleteFrom('questions').where('id', '=', id).execute();
      });
      return 'deleted';
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await this.db
        .updateTable('questions')
        .set({ purged_at: now, search_tokens: '' })
        .where('id', '=', id)
        .execute();
      return 'kept';
    }
  }

  /** See db/dialect.ts: keeps the planner's choice of index right as the bank grows. */
  refreshStatistics(): Promise<void> {
    return refreshPlannerStatistics(this.db, this.dialect);
  }

  /**
   * Indexes questions written without search tokens (by other modules, imports or older seeds), a batch at a
   * time; answers how many were indexed. Cheap when none are pending (a partial index finds them).
   */
  async indexPending(batch = 200): Promise<number> {
    let done = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('questions')
        .select(['id', 'stem', 'options', 'answer', 'analysis'])
        .where('search_tokens', 'is', null)
        .limit(batch)
        .execute();
      if (rows.length === 0) return done;
      const kps = await this.knowledgePointsOf(rows.map((r) => r.id));
      for (const row of rows) {
        const tokens = questionSearchTokens({
          stem: row.stem,
          options: parseOptions(row.options),
          answer: row.answer,
          analysis: row.analysis,
          knowledgePoints: kps.filter((k) => k.questionId === row.id).map((k) => k.name),
        });
        await this.db
          .updateTable('questions')
          .set({ search_tokens: tokens })
          .where('id', '=', row.id)
          .where('search_tokens', 'is', null)
          .execute();
      }
      done += rows.length;
      if (rows.length < batch) return done;
    }
  }
}
