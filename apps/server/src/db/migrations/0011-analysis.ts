import type { Kysely } from 'kysely';

// Frozen in time: a migration never imports application code. Analysis settings of a school: pass / good /
// excellent lines, whether ranks are shown, how 临界生 are chosen (a JSON document validated by the contracts'
// AnalysisSettingsSchema on the way in and out, so new settings need no migration). Depends on 0001 (orgs, users).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analysis_settings')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analysis_settings').ifExists().execute();
}
