import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. Versions that let an analysis host keep computed figures in
// memory and still never serve a stale one (ADR 0021): every read compares the versions it cached against these
// rows, so an instance sees at once what another instance wrote.
// - `<homework id>`: bumped by the results spine (ResultsRepository) after every write of a sheet or an answer.
// - `context`: bumped by triggers on every change to what analysis shows beside the results — homework and their
//   classes, classes, students, teaching assignments, teachers' names, card versions (expected pages), subjects,
//   stages and the schools' analysis settings — whoever writes them. These change rarely.

/* eslint-disable @typescript-eslint/no-explicit-any */
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** Tables whose every insert, update or delete bumps the context version. */
const CONTEXT_TABLES = [
  'homework',
  'homework_classes',
  'classes',
  'students',
  'teaching_assignments',
  'card_versions',
  'subjects',
  'stages',
  'analysis_settings',
] as const;

const BUMP = `update analysis_versions set version = version + 1 where key = 'context'`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analysis_versions')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('analysis_versions').values({ key: 'context', version: 1 }).execute();
  if (isSqlite(db)) {
    for (const table of CONTEXT_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql
          .raw(
            `create trigger analysis_context_${table}_${event} after ${event} on ${table} begin ${BUMP}; end`,
          )
          .execute(db);
    await sql
      .raw(
        `create trigger analysis_context_users_update after update of nickname, username on users begin ${BUMP}; end`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create function analysis_bump_context() returns trigger language plpgsql as $$ begin ${BUMP}; return null; end $$`,
      )
      .execute(db);
    for (const table of CONTEXT_TABLES)
      await sql
        .raw(
          `create trigger analysis_context_${table} after insert or update or delete on ${table} for each statement execute function analysis_bump_context()`,
        )
        .execute(db);
    await sql
      .raw(
        `create trigger analysis_context_users after update of nickname, username on users for each statement execute function analysis_bump_context()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const table of CONTEXT_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql.raw(`drop trigger if exists analysis_context_${table}_${event}`).execute(db);
    await sql.raw(`drop trigger if exists analysis_context_users_update`).execute(db);
  } else {
    for (const table of [...CONTEXT_TABLES, 'users'])
      await sql.raw(`drop trigger if exists analysis_context_${table} on ${table}`).execute(db);
    await sql.raw(`drop function if exists analysis_bump_context()`).execute(db);
  }
  await db.schema.dropTable('analysis_versions').ifExists().execute();
}
