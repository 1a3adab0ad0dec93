import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-question-bank.js';
import * as m0003 from './migrations/0003-papers.js';
import * as m0004 from './migrations/0004-scan.js';
import * as m0005 from './migrations/0005-homework.js';
import * as m0006 from './migrations/0006-school.js';
import * as m0007 from './migrations/0007-basket-version.js';
import * as m0008 from './migrations/0008-results.js';
import * as m0016 from './migrations/0016-paper-setting-defaults.js';
import * as m0009 from './migrations/0009-recognition.js';
import * as m0010 from './migrations/0010-marking.js';
import * as m0011 from './migrations/0011-analysis.js';
import * as m0012 from './migrations/0012-materials.js';
import * as m0017 from './migrations/0017-analysis-versions.js';
import * as m0021 from './migrations/0021-question-search-rows.js';
import * as m0022 from './migrations/0022-analysis-incremental.js';
import * as m0023 from './migrations/0023-sheets-progress-index.js';
import * as m0024 from './migrations/0024-sheet-answers-packed.js';
import * as m0025 from './migrations/0025-sheet-answers-repacked.js';
import * as m0026 from './migrations/0026-recognition-queue-by-school.js';
import * as m0027 from './migrations/0027-scan-batch-homework.js';
import * as m0028 from './migrations/0028-sign-in-hardening.js';
import * as m0029 from './migrations/0029-question-search-upsert.js';
import * as m0030 from './migrations/0030-school-time-zone.js';
import * as m0031 from './migrations/0031-mark-rubric-items.js';
import * as m0032 from './migrations/0032-paper-marking.js';
import * as m0033 from './migrations/0033-mark-item-counts.js';

// Migrations are listed statically so a bundled or containerised host needs no file-system scan.
const MIGRATIONS: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-question-bank': m0002,
  '0003-papers': m0003,
  '0004-scan': m0004,
  '0005-homework': m0005,
  '0006-school': m0006,
  '0007-basket-version': m0007,
  '0008-results': m0008,
  '0016-paper-setting-defaults': m0016,
  '0009-recognition': m0009,
  '0010-marking': m0010,
  '0011-analysis': m0011,
  '0012-materials': m0012,
  '0017-analysis-versions': m0017,
  '0021-question-search-rows': m0021,
  '0022-analysis-incremental': m0022,
  '0023-sheets-progress-index': m0023,
  '0024-sheet-answers-packed': m0024,
  '0025-sheet-answers-repacked': m0025,
  '0026-recognition-queue-by-school': m0026,
  '0027-scan-batch-homework': m0027,
  '0028-sign-in-hardening': m0028,
  '0029-question-search-upsert': m0029,
  '0030-school-time-zone': m0030,
  '0031-mark-rubric-items': m0031,
  '0032-paper-marking': m0032,
  '0033-mark-item-counts': m0033,
};

class StaticProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(MIGRATIONS);
  }
}

/** Brings the schema to the newest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${reason}`, { cause: error });
  }
}

/** Names of migrations this build knows that the database has not run yet (readiness). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider() });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
