import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. Issue 22 point 11 (ADR 0045): a school keeps its time zone
// (IANA name), Asia/Shanghai unless its administrator sets another; "today" and default titles follow it.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orgs')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('Asia/Shanghai'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orgs').dropColumn('time_zone').execute();
}
