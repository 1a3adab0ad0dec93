import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// Versions (migration 0017, ADR 0021): a counter per key in `analysis_versions` — a homework id counts the writes
// of its results; other keys (`context:<org>`) count other data a cache depends on. The results
// spine moves a homework's version with every write of its sheets; caches read versions here, never the table.

type Db = Kysely<Database>;

/** Current versions of some keys; a key without a row is version 0 (nothing written yet). */
export async function readVersions(
  db: Db,
  keys: readonly string[],
  chunk = 500,
): Promise<Map<string, number>> {
  const out = new Map<string, number>(keys.map((k) => [k, 0]));
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += chunk) {
    const rows = await db
      .selectFrom('analysis_versions')
      .select(['key', 'version'])
      .where('key', 'in', unique.slice(i, i + chunk))
      .execute();
    for (const r of rows) out.set(r.key, Number(r.version));
  }
  return out;
}

/** Moves the version of one key (created at 1). */
export async function bumpKey(db: Db, key: string): Promise<void> {
  await db
    .insertInto('analysis_versions')
    .values({ key, version: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ version: sql<number>`analysis_versions.version + 1` }))
    .execute();
}

/**
 * Bumps the results version of the sheet's homework: analysis compares it with the version its cached figures
 * were computed at (ADR 0021). Runs after the data it covers is written, in the caller's transaction when there is
 * one, so a reader never sees the new version with the old data.
 */
export async function bumpSheetVersion(db: Db, sheetId: string): Promise<void> {
  await db
    .insertInto('analysis_versions')
    .columns(['key', 'version'])
    .expression((eb) =>
      eb
        .selectFrom('sheets')
        .select(['homework_id', sql<number>`1`.as('version')])
        .where('id', '=', sheetId),
    )
    .onConflict((oc) => oc.column('key').doUpdateSet({ version: sql<number>`analysis_versions.version + 1` }))
    .execute();
  // The sheet remembers the version that covers it, so a reader at an older version re-reads only the sheets
  // written since (migration 0022, ADR 0030).
  await db
    .updateTable('sheets')
    .set({
      results_version: (eb) =>
        eb
          .selectFrom('analysis_versions')
          .select('version')
          .whereRef('analysis_versions.key', '=', 'sheets.homework_id'),
    })
    .where('id', '=', sheetId)
    .execute();
}
