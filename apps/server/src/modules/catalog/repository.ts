import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type { DialectName } from '../../db/connect.js';

export interface QuestionFilter {
  orgId: string;
  userId: string;
  subjectId: string;
  typeId?: string | undefined;
  difficulty?: number | undefined;
  booknodeIds?: string[] | undefined;
  knowledgePointIds?: string[] | undefined;
  keyword?: string | undefined;
  offset: number;
  limit: number;
}

/** Stages, subjects, textbooks, chapter and knowledge trees, question types and questions. */
export class CatalogRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  listStages() {
    return this.db.selectFrom('stages').select(['id', 'name']).orderBy('sort').execute();
  }

  listSubjects() {
    return this.db.selectFrom('subjects').select(['id', 'stage_id', 'name']).orderBy('sort').execute();
  }

  findSubject(subjectId: string) {
    return this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as g', 'g.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'g.name as stage_name'])
      .where('s.id', '=', subjectId)
      .executeTakeFirst();
  }

  listTextbooks(subjectId: string) {
    return this.db
      .selectFrom('textbooks')
      .select(['id', 'subject_id', 'publisher', 'name'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
  }

  findTextbook(textbookId: string) {
    return this.db
      .selectFrom('textbooks')
      .select(['id', 'subject_id'])
      .where('id', '=', textbookId)
      .executeTakeFirst();
  }

  listBooknodes(textbookId: string) {
    return this.db
      .selectFrom('booknodes')
      .select(['id', 'parent_id', 'name'])
      .where('textbook_id', '=', textbookId)
      .orderBy('depth')
      .orderBy('sort')
      .execute();
  }

  findBooknode(id: string) {
    return this.db
      .selectFrom('booknodes')
      .select(['id', 'textbook_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  listKnowledgePoints(subjectId: string) {
    return this.db
      .selectFrom('knowledge_points')
      .select(['id', 'parent_id', 'name'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
  }

  findKnowledgePoint(id: string) {
    return this.db
      .selectFrom('knowledge_points')
      .select(['id', 'subject_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  listQuestionTypes(subjectId: string) {
    return this.db
      .selectFrom('question_types')
      .select(['id', 'subject_id', 'name', 'objective'])
      .where('subject_id', '=', subjectId)
      .orderBy('sort')
      .execute();
  }

  private visibleQuestions(orgId: string, userId: string) {
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

  private filtered(f: QuestionFilter) {
    let query = this.visibleQuestions(f.orgId, f.userId).where('q.subject_id', '=', f.subjectId);
    if (f.typeId) query = query.where('q.type_id', '=', f.typeId);
    if (f.difficulty) query = query.where('q.difficulty', '=', f.difficulty);
    if (f.booknodeIds) {
      const ids = f.booknodeIds;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('question_booknodes as qb')
            .select('qb.question_id')
            .whereRef('qb.question_id', '=', 'q.id')
            .where('qb.booknode_id', 'in', ids),
        ),
      );
    }
    if (f.knowledgePointIds) {
      const ids = f.knowledgePointIds;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('question_knowledge_points as qk')
            .select('qk.question_id')
            .whereRef('qk.question_id', '=', 'q.id')
            .where('qk.knowledge_point_id', 'in', ids),
        ),
      );
    }
    if (f.keyword) query = query.where(ilike(this.dialect, 'q.stem', containsPattern(f.keyword)));
    return query;
  }

  async pageQuestions(f: QuestionFilter) {
    const total = await this.filtered(f)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.filtered(f)
      .innerJoin('question_types as t', 't.id', 'q.type_id')
      .innerJoin('subjects as s', 's.id', 'q.subject_id')
      .select([
        'q.id',
        'q.subject_id',
        's.stage_id',
        'q.type_id',
        't.name as type_name',
        'q.difficulty',
        'q.stem',
        'q.options',
        'q.answer',
        'q.analysis',
        'q.year',
        'q.source',
        'q.usage_count',
      ])
      .orderBy('t.sort')
      .orderBy('q.id')
      .offset(f.offset)
      .limit(f.limit)
      .execute();
    return { total: Number(total.n), rows };
  }

  /** The visible questions among `ids`, with their subject, stage and type. */
  findVisibleQuestions(orgId: string, userId: string, ids: string[]) {
    return this.visibleQuestions(orgId, userId)
      .innerJoin('subjects as s', 's.id', 'q.subject_id')
      .select(['q.id', 'q.subject_id', 's.stage_id', 'q.type_id'])
      .where('q.id', 'in', ids)
      .execute();
  }

  knowledgePointsOf(questionIds: string[]) {
    if (questionIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('question_knowledge_points as qk')
      .innerJoin('knowledge_points as k', 'k.id', 'qk.knowledge_point_id')
      .select(['qk.question_id', 'k.id', 'k.name'])
      .where('qk.question_id', 'in', questionIds)
      .orderBy('k.sort')
      .execute();
  }
}
