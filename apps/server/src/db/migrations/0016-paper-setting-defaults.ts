import type { Kysely } from 'kysely';

// Frozen in time. A teacher's own default paper settings (/cloudResources/paperSetting), on the host so they follow
// the teacher to every browser; a new paper starts with them. Depends on 0001 only.

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('paper_setting_defaults')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    // JSON of PaperSettings, validated with zod where read.
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('paper_setting_defaults').ifExists().execute();
}
