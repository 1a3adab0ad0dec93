import type { Expression, ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { fullTextFilter, type FullTextQuery } from '../../db/dialect.js';
import type { Database, QuestionSearchRowsTable } from '../../db/schema.js';

// Which questions a query sees: the full-text narrowing of `questions as q` and the bank as a caller may read it.

/** The columns of a question that pages filter and sort on (all a search may read, see below). */
export type Q = { q: QuestionSearchRowsTable };
/** The database as a query over `questions as q`, limited to those columns, sees it. */
export type QuestionsDb = Database & Q;

/**
 * `questions as q`, narrowed to a full-text query when one is given, with the filter and sort columns only. On
 * SQLite the query starts from the FTS5 hits; on PostgreSQL `q` is the narrow `question_search_rows` (see
 * db/dialect.ts). The extra table on SQLite is only used to join, so callers see `q` alone.
 */
export function questionsMatching(
  db: Kysely<Database>,
  dialect: DialectName,
  keyword: FullTextQuery | null | undefined,
): SelectQueryBuilder<QuestionsDb, 'q', object> {
  const base = db.selectFrom('questions as q');
  if (!keyword) return base;
  const { hits, searchRows } = fullTextFilter(dialect, 'q', keyword);
  if (hits) {
    return db.selectFrom(hits).crossJoin('questions as q').whereRef('q.id', '=', 'm.question_id');
  }
  return searchRows ? db.selectFrom('question_search_rows as q').where(searchRows) : base;
}

/**
 * The bank as the caller sees it (alias `q`): system questions, their school's approved questions and their
 * own personal questions, none deleted. The policy's `canRead` is the same rule for one row.
 */
export function visibleTo<DB extends Q>(orgId: string, userId: string) {
  return (eb: ExpressionBuilder<DB, 'q'>): Expression<SqlBool> => {
    const e = eb as unknown as ExpressionBuilder<Q, 'q'>;
    return e.and([
      e('q.deleted_at', 'is', null),
      e('q.review_status', '=', 'approved'),
      e.or([
        e('q.owner', '=', 'system'),
        e.and([e('q.owner', '=', 'school'), e('q.org_id', '=', orgId)]),
        e.and([e('q.owner', '=', 'personal'), e('q.owner_user_id', '=', userId)]),
      ]),
    ]);
  };
}
