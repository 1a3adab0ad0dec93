import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. Full-text search on PostgreSQL reads a narrow copy of the
// questions (ADR 0024). Depends on 0002.
//
// A search reads every hit's filter and sort columns (visibility, type, date, use) to count and order them. GIN
// answers with row addresses only, so each hit costs a visit to its heap row; on `questions` those rows carry the
// stem, options, answer, analysis, tokens and tsvector (≈1.4 kB), which spreads 10,000 hits over 8,000 pages.
// `question_search_rows` holds one row per question with only what a search filters and sorts on plus the
// tsvector, kept in step by a trigger on `questions`, so the same hits sit on about half the pages and the
// subject index is not ANDed in for nothing. The tsvector moves here: `questions.search_vector` and its GIN
// index go, which also makes the question rows themselves narrower.
//
// SQLite needs no such copy: its FTS5 index answers the ids, and the covering index `questions_lookup`
// (migration 0002) answers the filter and sort columns without reading the rows.

/* eslint-disable @typescript-eslint/no-explicit-any */
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** The columns of `questions` a search filters and sorts on, in table order. */
const COLUMNS = [
  'id',
  'subject_id',
  'type_id',
  'owner',
  'org_id',
  'owner_user_id',
  'difficulty',
  'year',
  'source',
  'usage_count',
  'created_at',
  'deleted_at',
  'region',
  'review_status',
];

/** Links a page filters by chapter or knowledge point, read from the index alone: (link, question). */
const LINK_INDEXES = [
  { table: 'question_booknodes', column: 'booknode_id', old: 'question_booknodes_node' },
  { table: 'question_knowledge_points', column: 'knowledge_point_id', old: 'question_knowledge_points_kp' },
];

export async function up(db: Kysely<any>): Promise<void> {
  // Both databases: a chapter's or knowledge point's questions (`id in (select question_id …)`) come from a
  // covering index instead of one table row per link. They replace the single-column indexes of 0001, which
  // they serve in full.
  for (const l of LINK_INDEXES) {
    await db.schema
      .createIndex(`${l.table}_by_link`)
      .on(l.table)
      .columns([l.column, 'question_id'])
      .execute();
    await db.schema.dropIndex(l.old).ifExists().execute();
  }
  if (isSqlite(db)) return;
  const cols = sql.raw(COLUMNS.join(', '));
  const newCols = sql.raw(COLUMNS.map((c) => `new.${c}`).join(', '));
  const setCols = sql.raw(
    COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = new.${c}`)
      .join(', '),
  );
  await sql`create table question_search_rows (
    id text primary key,
    subject_id text not null,
    type_id text not null,
    owner text not null,
    org_id text,
    owner_user_id text,
    difficulty integer not null,
    year integer,
    source text,
    usage_count integer not null,
    created_at text not null,
    deleted_at text,
    region text,
    review_status text not null,
    search_vector tsvector not null
  )`.execute(db);
  // Only a change to a copied column (or the tokens) fires the trigger; the tsvector is rebuilt only when the
  // tokens change. Questions are never re-keyed, but an id change would still be followed.
  await sql`create function question_search_rows_sync() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'DELETE' or (tg_op = 'UPDATE' and new.id <> old.id) then
        delete from question_search_rows where id = old.id;
        if tg_op = 'DELETE' then
          return null;
        end if;
      end if;
      if tg_op = 'UPDATE' and new.id = old.id and new.search_tokens is not distinct from old.search_tokens then
        update question_search_rows set ${setCols} where id = new.id;
        return null;
      end if;
      insert into question_search_rows (${cols}, search_vector)
        values (${newCols}, to_tsvector('simple'::regconfig, coalesce(new.search_tokens, '')))
        on conflict (id) do update set ${sql.raw(
          [...COLUMNS.filter((c) => c !== 'id'), 'search_vector']
            .map((c) => `${c} = excluded.${c}`)
            .join(', '),
        )};
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger questions_search_rows
    after insert or delete or update of ${cols}, search_tokens on questions
    for each row execute function question_search_rows_sync()`.execute(db);
  await sql`insert into question_search_rows (${cols}, search_vector)
    select ${cols}, to_tsvector('simple'::regconfig, coalesce(search_tokens, '')) from questions`.execute(db);
  await sql`create index question_search_rows_vector on question_search_rows using gin (search_vector)`.execute(
    db,
  );
  await sql`drop index if exists questions_search_vector`.execute(db);
  await sql`alter table questions drop column if exists search_vector`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const l of LINK_INDEXES) {
    await db.schema.createIndex(l.old).ifNotExists().on(l.table).column(l.column).execute();
    await db.schema.dropIndex(`${l.table}_by_link`).ifExists().execute();
  }
  if (isSqlite(db)) return;
  await sql`drop trigger if exists questions_search_rows on questions`.execute(db);
  await sql`drop function if exists question_search_rows_sync()`.execute(db);
  await sql`drop table if exists question_search_rows`.execute(db);
  await sql`alter table questions add column search_vector tsvector
    generated always as (to_tsvector('simple'::regconfig, coalesce(search_tokens, ''))) stored`.execute(db);
  await sql`create index questions_search_vector on questions using gin (search_vector)`.execute(db);
}
