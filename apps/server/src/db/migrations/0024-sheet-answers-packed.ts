import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never imports application code. `sheets.answers_packed` (ADR 0033): every answer of the sheet as
// one JSON text, `[[question id, score in tenths | null, response | null, blank 0/1, has a crop 0/1], …]`, written
// by the results spine in the same statement sequence (and transaction) that writes the answers, so the first read
// of an analysis decodes one row per sheet instead of one per answer. Null means "not packed": the reader falls
// back to the sheet's answer rows. Existing sheets are packed here from their answers (the order of the entries is
// free: each names its question).

/* eslint-disable @typescript-eslint/no-explicit-any */
const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** Packs every sheet's answers from its answer rows (exported for the test that checks it against the spine's). */
export async function packExisting(db: Kysely<any>): Promise<void> {
  if (isSqlite(db))
    await sql
      .raw(
        `update sheets set answers_packed = (select json_group_array(json_array(a.question_id, a.score_tenths, ` +
          `a.response, a.blank, a.crop_path is not null)) from sheet_answers a where a.sheet_id = sheets.id)`,
      )
      .execute(db);
  else
    await sql
      .raw(
        `update sheets set answers_packed = coalesce((select json_agg(json_build_array(a.question_id, ` +
          `a.score_tenths, a.response, a.blank, (a.crop_path is not null)::int))::text from sheet_answers a ` +
          `where a.sheet_id = sheets.id), '[]')`,
      )
      .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sheets').addColumn('answers_packed', 'text').execute();
  await packExisting(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sheets').dropColumn('answers_packed').execute();
}
