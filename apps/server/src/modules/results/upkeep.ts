import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// What other modules keep in step with the spine's answers (ADR 0051, 0071). A module whose own tables depend on a
// sheet's answers (marking's item counters) registers its upkeep here once, when it is wired; the spine calls every
// registered upkeep inside its writing transaction after it changed a sheet's answers, so the spine imports nothing
// from those modules and they never see a write they missed.

/** Brings a module's tables in step with some sheets' answers, inside the spine's transaction `db`. */
export type SheetUpkeep = (db: Kysely<Database>, sheetIds: readonly string[]) => Promise<void>;

const upkeeps: SheetUpkeep[] = [];

/** Registers an upkeep (again is a no-op). */
export function onSheetsWritten(upkeep: SheetUpkeep): void {
  if (!upkeeps.includes(upkeep)) upkeeps.push(upkeep);
}

/** Runs every registered upkeep for some sheets, in registration order. */
export async function keepUp(db: Kysely<Database>, sheetIds: readonly string[]): Promise<void> {
  for (const upkeep of upkeeps) await upkeep(db, sheetIds);
}
