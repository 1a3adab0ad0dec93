import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. Two refinements of migration 0017 (ADR 0030):
// - `sheets.results_version`: the version of its homework (key `<homework id>` in `analysis_versions`) at the
//   sheet's last write, set by the results spine in the same transaction as the bump. A reader holding figures
//   computed at version v re-reads only the sheets whose `results_version` is above v.
// - The context version per school: changes to a school's homework, classes, students, teaching assignments, card
//   versions and analysis settings bump `context:<org id>` instead of the global `context` row, so one school's
//   change no longer invalidates every school's figures. Subjects, stages and users' names are shared by all
//   schools and still bump the global `context` row.

/* eslint-disable @typescript-eslint/no-explicit-any */
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** School tables with an `org_id` column. */
const SCHOOL_TABLES = [
  'homework',
  'classes',
  'students',
  'teaching_assignments',
  'card_versions',
  'analysis_settings',
] as const;
/** homework_classes has no org_id: its homework's school. */
const ALL_SCHOOL_TABLES = [...SCHOOL_TABLES, 'homework_classes'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

const GLOBAL_BUMP = `update analysis_versions set version = version + 1 where key = 'context'`;

/** SQLite: the key of the row's school (`rec` is NEW or OLD); the global key when it cannot be known. */
const sqliteKey = (table: string, rec: 'NEW' | 'OLD') =>
  table === 'homework_classes'
    ? `coalesce('context:' || (select org_id from homework where id = ${rec}.homework_id), 'context')`
    : `'context:' || ${rec}.org_id`;

const sqliteBump = (table: string, rec: 'NEW' | 'OLD') =>
  `insert into analysis_versions (key, version) values (${sqliteKey(table, rec)}, 1) ` +
  `on conflict (key) do update set version = version + 1;`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sheets')
    .addColumn('results_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sheets_homework_results_version')
    .on('sheets')
    .columns(['homework_id', 'results_version'])
    .execute();
  if (isSqlite(db)) {
    for (const table of ALL_SCHOOL_TABLES)
      for (const event of EVENTS) {
        await sql.raw(`drop trigger if exists analysis_context_${table}_${event}`).execute(db);
        const body =
          event === 'insert'
            ? sqliteBump(table, 'NEW')
            : event === 'delete'
              ? sqliteBump(table, 'OLD')
              : `${sqliteBump(table, 'OLD')} ${sqliteBump(table, 'NEW')}`;
        await sql
          .raw(
            `create trigger analysis_context_${table}_${event} after ${event} on ${table} begin ${body} end`,
          )
          .execute(db);
      }
  } else {
    // Statement triggers with transition tables: one upsert per statement and school, whatever the row count.
    const orgs = (rows: string, table: string) =>
      table === 'homework_classes'
        ? `select h.org_id from ${rows} r join homework h on h.id = r.homework_id`
        : `select org_id from ${rows}`;
    for (const table of ALL_SCHOOL_TABLES) {
      await sql.raw(`drop trigger if exists analysis_context_${table} on ${table}`).execute(db);
      for (const event of EVENTS) {
        const source =
          event === 'insert'
            ? orgs('new_rows', table)
            : event === 'delete'
              ? orgs('old_rows', table)
              : `${orgs('old_rows', table)} union ${orgs('new_rows', table)}`;
        const referencing =
          event === 'insert'
            ? 'new table as new_rows'
            : event === 'delete'
              ? 'old table as old_rows'
              : 'old table as old_rows new table as new_rows';
        const fn = `analysis_bump_${table}_${event}`;
        await sql
          .raw(
            `create function ${fn}() returns trigger language plpgsql as $$ begin ` +
              `insert into analysis_versions (key, version) ` +
              `select distinct 'context:' || o.org_id, 1 from (${source}) o ` +
              `on conflict (key) do update set version = analysis_versions.version + 1; ` +
              `return null; end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger analysis_context_${table}_${event} after ${event} on ${table} ` +
              `referencing ${referencing} for each statement execute function ${fn}()`,
          )
          .execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const table of ALL_SCHOOL_TABLES)
      for (const event of EVENTS) {
        await sql.raw(`drop trigger if exists analysis_context_${table}_${event}`).execute(db);
        await sql
          .raw(
            `create trigger analysis_context_${table}_${event} after ${event} on ${table} begin ${GLOBAL_BUMP}; end`,
          )
          .execute(db);
      }
  } else {
    for (const table of ALL_SCHOOL_TABLES) {
      for (const event of EVENTS) {
        await sql.raw(`drop trigger if exists analysis_context_${table}_${event} on ${table}`).execute(db);
        await sql.raw(`drop function if exists analysis_bump_${table}_${event}()`).execute(db);
      }
      await sql
        .raw(
          `create trigger analysis_context_${table} after insert or update or delete on ${table} for each statement execute function analysis_bump_context()`,
        )
        .execute(db);
    }
  }
  await db.schema.dropIndex('sheets_homework_results_version').ifExists().execute();
  await db.schema.alterTable('sheets').dropColumn('results_version').execute();
}
