// The one place where SQLite and PostgreSQL differ. Nothing else in the host writes dialect-only SQL.
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './connect.js';
import type { Database } from './schema.js';

/** Whether an error is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  return (
    e.code === '23505' || // PostgreSQL unique_violation
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Case-insensitive "contains" for a keyword search, escaped for LIKE. */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE pattern` that is case-insensitive on both databases. */
export function ilike(dialect: DialectName, column: string, pattern: string): RawBuilder<boolean> {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** Whether an error is a foreign-key violation on either database (a row still referenced elsewhere). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * A full-text query: phrases of tokens that must all occur, each phrase's tokens next to each other.
 * Tokens are what `questionSearchTokens` stores: lower-case letters and digits only, so they need no quoting
 * beyond what is done here and both databases split them the same way (on the single spaces).
 */
export type FullTextQuery = readonly (readonly string[])[];

const SAFE_TOKEN = /^[\p{L}\p{Nd}]+$/u;

/**
 * How a full-text query narrows questions (alias `q`). Both read the same `search_tokens`, so both answer the
 * same rows.
 * - SQLite: `hits`, the ids of the matching questions from the FTS5 table (see migration 0002), to put first
 *   in the FROM clause with a CROSS JOIN to questions, so SQLite starts from the few hits instead of the
 *   subject's rows.
 * - PostgreSQL: `searchRows`, a condition on `search_vector` of `question_search_rows` (alias `q` in place of
 *   `questions`), answered by its GIN index. That table is a narrow copy of the columns searches filter and
 *   sort on (migration 0021, ADR 0024): visiting each hit's row there costs about half of visiting it in
 *   `questions`.
 */
export function fullTextFilter(
  dialect: DialectName,
  questionAlias: string,
  query: FullTextQuery,
): { hits?: AliasedRawBuilder<{ question_id: string }, 'm'>; searchRows?: RawBuilder<boolean> } {
  const phrases = query.filter((p) => p.length > 0);
  for (const token of phrases.flat()) {
    if (!SAFE_TOKEN.test(token)) throw new Error(`unsafe full-text token ${JSON.stringify(token)}`);
  }
  if (dialect === 'postgres') {
    if (phrases.length === 0) return {};
    const text = phrases.map((p) => p.map((t) => `'${t}'`).join(' <-> ')).join(' & ');
    return {
      searchRows: sql<boolean>`${sql.ref(`${questionAlias}.search_vector`)} @@ to_tsquery('simple', ${text})`,
    };
  }
  if (phrases.length === 0) return {};
  const text = phrases.map((p) => `"${p.join(' ')}"`).join(' AND ');
  return {
    hits: sql<{ question_id: string }>`(select s.question_id from question_fts f
      cross join question_search s on s.rid = f.rowid where question_fts match ${text})`.as('m'),
  };
}

/**
 * Ids of the subject's system questions that share any of `tokens`, most relevant first (SQLite: FTS5's bm25;
 * PostgreSQL: ts_rank over the same tokens). For suggesting what a question written elsewhere is about, not for
 * search: a search needs every word, this needs any.
 */
export async function relatedSystemQuestionIds(
  db: Kysely<Database>,
  dialect: DialectName,
  subjectId: string,
  tokens: readonly string[],
  limit: number,
): Promise<string[]> {
  const words = [...new Set(tokens)].filter((t) => SAFE_TOKEN.test(t));
  if (words.length === 0) return [];
  if (dialect === 'postgres') {
    const text = words.map((t) => `'${t}'`).join(' | ');
    const rows = await sql<{ id: string }>`select q.id from question_search_rows q
      where q.search_vector @@ to_tsquery('simple', ${text})
        and q.subject_id = ${subjectId} and q.owner = 'system' and q.deleted_at is null
      order by ts_rank(q.search_vector, to_tsquery('simple', ${text})) desc, q.id
      limit ${limit}`.execute(db);
    return rows.rows.map((r) => r.id);
  }
  const text = words.map((t) => `"${t}"`).join(' OR ');
  const rows = await sql<{ id: string }>`select s.question_id as id from question_fts f
    cross join question_search s on s.rid = f.rowid
    join questions q on q.id = s.question_id
    where question_fts match ${text}
      and q.subject_id = ${subjectId} and q.owner = 'system' and q.deleted_at is null
    order by bm25(question_fts), q.id
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Refreshes the statistics the query planner chooses indexes by (question pages pick between a subject's
 * rows, a chapter's links and full-text hits by them). SQLite keeps none until asked: `PRAGMA optimize`
 * (sampled, bounded by `analysis_limit`) is what its documentation recommends at start and then daily.
 * PostgreSQL's autovacuum analyses too; an explicit ANALYZE of the question tables keeps both the same.
 */
export async function refreshPlannerStatistics(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`pragma analysis_limit = 1000`.execute(db);
    await sql`pragma optimize = 0x10002`.execute(db);
    return;
  }
  await sql`analyze questions, question_search_rows, question_knowledge_points, question_booknodes`.execute(
    db,
  );
}
