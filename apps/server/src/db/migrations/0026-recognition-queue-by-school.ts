import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. Recognition takes schools in turns (ADR 0041): each stored page
// counts its school's pages still queued, which this index answers without reading other schools' rows.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('recognition_pages_school_status')
    .on('recognition_pages')
    .columns(['org_id', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('recognition_pages_school_status').ifExists().execute();
}
