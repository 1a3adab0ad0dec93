import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: never imports application code. SQLite only.
// The search trigger on an update of `questions.search_tokens` kept `question_search` in step with
// `insert or ignore`. Inside an UPSERT (`insert … on conflict do update`, how the catalog seed refreshes system
// questions) SQLite replaces a trigger's `or ignore` with the outer statement's ABORT, so re-seeding a database
// that already held the questions — any release whose catalog changed, or turning on SEED_CHECKED_BANK — failed
// with "UNIQUE constraint failed: question_search.question_id" and the host did not start. The trigger now inserts
// only a missing row.

/* eslint-disable @typescript-eslint/no-explicit-any */
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger questions_search_au`.execute(db);
  await sql`create trigger questions_search_au after update of search_tokens on questions begin
    delete from question_fts where rowid = (select rid from question_search where question_id = old.id);
    insert into question_search(question_id)
      select new.id where new.search_tokens is not null
        and not exists (select 1 from question_search where question_id = new.id);
    insert into question_fts(rowid, tokens)
      select rid, new.search_tokens from question_search
      where question_id = new.id and new.search_tokens is not null;
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger questions_search_au`.execute(db);
  await sql`create trigger questions_search_au after update of search_tokens on questions begin
    delete from question_fts where rowid = (select rid from question_search where question_id = old.id);
    insert or ignore into question_search(question_id)
      select new.id where new.search_tokens is not null;
    insert into question_fts(rowid, tokens)
      select rid, new.search_tokens from question_search
      where question_id = new.id and new.search_tokens is not null;
  end`.execute(db);
}
