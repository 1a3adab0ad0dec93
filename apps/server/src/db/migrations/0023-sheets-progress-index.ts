import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The homework list's progress (ADR 0031) sums each listed
// homework's sheets' `pages_received` and `unscored_count` for the caller's school. With only
// `(homework_id, class_id)` indexed every sheet row was read from the table; this index holds the filtered and
// summed columns, so PostgreSQL answers with an index-only scan and SQLite with a covering index.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('sheets_homework_progress')
    .on('sheets')
    .columns(['homework_id', 'org_id', 'pages_received', 'unscored_count'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sheets_homework_progress').ifExists().execute();
}
