import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. A scan started from a homework's 「扫描」 button is bound to that
// homework (ADR 0044): the batch keeps its id, and /scan opened for the homework lists only its batches.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scan_batches').addColumn('homework_id', 'text').execute();
  await db.schema
    .createIndex('scan_batches_homework')
    .on('scan_batches')
    .columns(['org_id', 'homework_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scan_batches_homework').ifExists().execute();
  await db.schema.alterTable('scan_batches').dropColumn('homework_id').execute();
}
