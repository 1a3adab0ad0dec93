import type { Kysely } from 'kysely';

// A counter bumped by every basket change, read with the bearer check, so a host can keep a caller's basket in
// memory and know without another query whether it is still current (on every instance).

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('memberships')
    .addColumn('basket_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').dropColumn('basket_version').execute();
}
