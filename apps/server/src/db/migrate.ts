import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-question-bank.js';
import * as m0003 from './migrations/0003-papers.js';
import * as m0004 from './migrations/0004-scan.js';
import * as m0005 from './migrations/0005-homework.js';
import * as m0006 from './migrations/0006-school.js';
import * as m0007 from './migrations/0007-basket-version.js';

// Migrations are listed statically so a bundled or containerised host needs no file-system scan.
const MIGRATIONS: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-question-bank': m0002,
  '0003-papers': m0003,
  '0004-scan': m0004,
  '0005-homework': m0005,
  '0006-school': m0006,
  '0007-basket-version': m0007,
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
