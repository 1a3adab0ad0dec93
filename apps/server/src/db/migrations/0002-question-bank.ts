import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. The question bank grows: blank counts, region, review
// state of shared school questions, copies (origin), the purge marker, and the full-text index.
//
// Full-text search: the host segments a question's text (Intl.Segmenter) and stores the tokens, lower-cased
// letters and digits separated by single spaces, in `questions.search_tokens` (null = not indexed yet).
// Each database indexes that column itself, so writing the column is all it takes to keep the index in step:
// - SQLite: triggers keep the FTS5 table `question_fts` (contentless, `ascii` tokenizer: the tokens are
//   already split, so FTS5 must not split them differently) in step, keyed by `question_search.rid`.
// - PostgreSQL: a stored generated `tsvector` column ('simple' configuration) with a GIN index.

/* eslint-disable @typescript-eslint/no-explicit-any */
// The adapter tells the dialect without running a statement that fails (a failed statement would abort
// PostgreSQL's migration transaction).
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

const NEW_COLUMNS: [string, 'text' | 'integer'][] = [
  ['blank_count', 'integer'],
  ['region', 'text'],
  ['origin_id', 'text'],
  ['reviewed_by', 'text'],
  ['reviewed_at', 'text'],
  ['review_note', 'text'],
  ['purged_at', 'text'],
  ['search_tokens', 'text'],
];

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);
  // One column per statement: SQLite adds only one at a time.
  for (const [name, type] of NEW_COLUMNS) {
    await db.schema.alterTable('questions').addColumn(name, type).execute();
  }
  // approved | pending | rejected; only shared school questions are ever anything but approved.
  await db.schema
    .alterTable('questions')
    .addColumn('review_status', 'text', (c) => c.notNull().defaultTo('approved'))
    .execute();

  // Question pages filter every row on its visibility (owner, school, review, deletion) and sort on type,
  // date or use. The long text columns make rows large (on SQLite the columns added here even sit behind
  // them), so these covering indexes answer counts and page ids without reading the rows: one ordered by
  // subject and type for browsing, one by id for the rows a full-text search hits.
  const covered = [
    'deleted_at',
    'review_status',
    'owner',
    'org_id',
    'owner_user_id',
    'difficulty',
    'year',
    'region',
    'created_at',
    'usage_count',
  ];
  await db.schema
    .createIndex('questions_browse')
    .on('questions')
    .columns(['subject_id', 'type_id', 'id', ...covered])
    .execute();
  await db.schema
    .createIndex('questions_lookup')
    .on('questions')
    .columns(['id', 'subject_id', 'type_id', ...covered])
    .execute();
  await db.schema
    .createIndex('questions_subject_created')
    .on('questions')
    .columns(['subject_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('questions_subject_usage')
    .on('questions')
    .columns(['subject_id', 'usage_count'])
    .execute();
  await db.schema.createIndex('questions_owner_user').on('questions').column('owner_user_id').execute();
  await db.schema.createIndex('questions_origin').on('questions').column('origin_id').execute();
  await db.schema
    .createIndex('questions_deleted')
    .on('questions')
    .column('deleted_at')
    .where(sql.ref('deleted_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('questions_search_pending')
    .on('questions')
    .column('id')
    .where(sql.ref('search_tokens'), 'is', null)
    .execute();

  if (sqlite) {
    // question_search maps a question to the integer rowid FTS5 needs (an INTEGER PRIMARY KEY, stable under
    // VACUUM); the FTS5 table is contentless (the tokens stay in questions.search_tokens) and supports deletes.
    await sql`create table question_search (
      rid integer primary key,
      question_id text not null unique
    )`.execute(db);
    await sql`create virtual table question_fts using fts5(
      tokens, content = '', contentless_delete = 1, tokenize = 'ascii'
    )`.execute(db);
    await sql`create trigger questions_search_ai after insert on questions
      when new.search_tokens is not null begin
      insert or ignore into question_search(question_id) values (new.id);
      insert into question_fts(rowid, tokens)
        values ((select rid from question_search where question_id = new.id), new.search_tokens);
    end`.execute(db);
    await sql`create trigger questions_search_au after update of search_tokens on questions begin
      delete from question_fts where rowid = (select rid from question_search where question_id = old.id);
      insert or ignore into question_search(question_id)
        select new.id where new.search_tokens is not null;
      insert into question_fts(rowid, tokens)
        select rid, new.search_tokens from question_search
        where question_id = new.id and new.search_tokens is not null;
    end`.execute(db);
    await sql`create trigger questions_search_ad after delete on questions begin
      delete from question_fts where rowid = (select rid from question_search where question_id = old.id);
      delete from question_search where question_id = old.id;
    end`.execute(db);
  } else {
    await sql`alter table questions add column search_vector tsvector
      generated always as (to_tsvector('simple'::regconfig, coalesce(search_tokens, ''))) stored`.execute(db);
    await sql`create index questions_search_vector on questions using gin (search_vector)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);
  if (sqlite) {
    for (const trigger of ['questions_search_ad', 'questions_search_au', 'questions_search_ai']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    }
    await sql`drop table if exists question_fts`.execute(db);
    await sql`drop table if exists question_search`.execute(db);
  } else {
    await sql`drop index if exists questions_search_vector`.execute(db);
    await sql`alter table questions drop column if exists search_vector`.execute(db);
  }
  for (const index of [
    'questions_lookup',
    'questions_browse',
    'questions_search_pending',
    'questions_deleted',
    'questions_origin',
    'questions_owner_user',
    'questions_subject_usage',
    'questions_subject_created',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  for (const name of ['review_status', ...NEW_COLUMNS.map(([n]) => n)].reverse()) {
    await db.schema.alterTable('questions').dropColumn(name).execute();
  }
}
