import { sql, type Kysely } from 'kysely';
import { packExisting } from './0024-sheet-answers-packed.js';

// Frozen in time: never imports application code. `sheets.answers_packed` without question ids (ADR 0037): a JSON
// array `[key, code, response | null, code, response | null, …]`. The key is the count of the sheet's question ids
// and a 32-bit FNV-1a hash of them in code-unit order (one newline after each), base 36: `30.1k3x9z`. Then two
// entries per answer in question-id order (code-unit order): the code `(score in tenths + 1) × 4` (0 for no score)
// + 2 when blank + 1 when it has a crop, and the response. A reader takes a pack only when its key is its paper's,
// else it reads the sheet's answer rows (as for a null pack). Every existing sheet is packed anew here from its
// answer rows, 500 sheets at a time (the packs of migration 0024 named their questions by id: 5–6 times longer).

/* eslint-disable @typescript-eslint/no-explicit-any */
const BATCH = 500;

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Answer {
  question_id: string;
  score_tenths: number | null;
  response: string | null;
  blank: number;
  crop_path: string | null;
}

function key(sortedIds: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of sortedIds) {
    for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 10, 0x01000193);
  }
  return `${sortedIds.length}.${(h >>> 0).toString(36)}`;
}

/** One sheet's pack from its answer rows (exported for the test that checks it against the spine's). */
export function pack(answers: readonly Answer[]): string {
  const sorted = [...answers].sort((a, b) => byId(a.question_id, b.question_id));
  const out: (string | number | null)[] = [key(sorted.map((a) => a.question_id))];
  for (const a of sorted)
    out.push(
      (a.score_tenths === null ? 0 : (Number(a.score_tenths) + 1) * 4) +
        (Number(a.blank) ? 2 : 0) +
        (a.crop_path === null ? 0 : 1),
      a.response,
    );
  return JSON.stringify(out);
}

/** Packs every sheet anew from its answer rows (exported for the test that checks it against the spine's). */
export async function repackExisting(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const ids = (
      await db.selectFrom('sheets').select('id').where('id', '>', after).orderBy('id').limit(BATCH).execute()
    ).map((r) => r.id as string);
    if (ids.length === 0) return;
    after = ids.at(-1)!;
    const answers = new Map<string, Answer[]>(ids.map((id) => [id, []]));
    const rows = await db
      .selectFrom('sheet_answers')
      .select(['sheet_id', 'question_id', 'score_tenths', 'response', 'blank', 'crop_path'])
      .where('sheet_id', 'in', ids)
      .execute();
    for (const r of rows) answers.get(r.sheet_id as string)!.push(r);
    const packs = sql.join(
      ids.map((id) => sql`when ${id} then ${pack(answers.get(id)!)}`),
      sql` `,
    );
    await db
      .updateTable('sheets')
      .set({ answers_packed: sql`case id ${packs} end` })
      .where('id', 'in', ids)
      .execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await repackExisting(db);
}

/** Back to the packs of migration 0024 (entries named by question id). */
export async function down(db: Kysely<any>): Promise<void> {
  await packExisting(db);
}
