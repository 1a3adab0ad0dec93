import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { HomeworkDetail } from '@zhzy/contracts';
import type { Database } from '../src/db/schema.js';
import { packExisting } from '../src/db/migrations/0024-sheet-answers-packed.js';
import { repackExisting } from '../src/db/migrations/0025-sheet-answers-repacked.js';
import type { AuthContext } from '../src/lib/call.js';
import { packAnswers } from '../src/modules/results/packing.js';
import { isObjective } from '../src/modules/results/scoring.js';
import { ResultsService } from '../src/modules/results/service.js';
import { DIALECTS } from './helpers/index.js';
import {
  markedHomework,
  type MarkedHomework,
  type MarkedQuestion,
  type MarkedStudent,
} from './helpers/marked-homework.js';
import { homeworkWorld, type World } from './homework-fixtures.js';

// The first read of an analysis decodes each sheet's packed answers (`sheets.answers_packed`, ADR 0033, without
// question ids since ADR 0037) instead of one row per answer. The results spine writes the pack with the answers, so
// after any sequence of writes — scores up and down, answers unmarked again, responses, crops and blanks changed,
// absent students handing in a sheet — every pack must be exactly the pack of the sheet's answer rows, and the
// analysis, 讲评 and details computed from the packs must equal those computed from the answer rows alone (packs
// cleared: the reader's fallback, as for sheets written around the spine), and a pack made for other questions must
// not be read. The migrations' packing of existing sheets must agree with the spine's.

const CLOCK = () => Date.parse('2026-11-02T08:00:00.000Z');

/** Undoes whatever `fn` wrote. */
class Rollback extends Error {}
async function rolledBack<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  let out: T | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      out = await fn(trx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return out!;
}

describe.each(DIALECTS)('packed answers on %s', (dialect) => {
  let w: World;
  let db: Kysely<Database>;
  let hw: HomeworkDetail;
  let results: ResultsService;
  let auth: AuthContext;
  let students: MarkedStudent[];
  let questions: MarkedQuestion[];
  let sheetOf: Map<string, string>;
  let open: MarkedHomework['open'];
  let uncachedService: MarkedHomework['uncachedService'];

  /** The three views of the homework computed by a service that keeps nothing, reading through `on`. */
  const views = async (on: Kysely<Database>) => {
    const service = uncachedService(on);
    return JSON.parse(
      JSON.stringify({
        analysis: await service.homeworkAnalysis(auth, hw.id),
        commentary: await service.commentary(auth, hw.id),
        details: await service.details(auth, hw.id),
      }),
    ) as unknown;
  };

  /** Every sheet's pack, and the pack of its answer rows as they are. */
  const packs = async (on: Kysely<Database>) => {
    const sheets = await on
      .selectFrom('sheets')
      .select(['id', 'answers_packed'])
      .where('homework_id', '=', hw.id)
      .orderBy('id')
      .execute();
    const spine = new ResultsService(on, CLOCK);
    return Promise.all(
      sheets.map(async (s) => ({
        stored: s.answers_packed,
        rows: packAnswers(await spine.listAnswers(s.id)),
      })),
    );
  };

  beforeAll(async () => {
    w = await homeworkWorld(dialect, CLOCK);
    const marked = await markedHomework(w, CLOCK, '打包答案');
    ({ db, hw, results, auth, students, questions, sheetOf, open, uncachedService } = marked);
    // One student in three hands in a sheet, fully marked; the rest are absent for now.
    for (const [i, s] of students.entries())
      if (i % 3 === 0) await marked.markAll(i, await open(s), { crops: true });
  }, 180_000);
  afterAll(async () => {
    await w?.close();
  });

  it('holds exactly the answer rows after any writes, and gives the figures of the answer rows', async () => {
    const write = fc.record({
      student: fc.nat({ max: 1000 }),
      question: fc.nat({ max: 1000 }),
      /** A fraction of the full score, or null: the answer is unmarked again. */
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 5 }),
      response: fc.constantFrom('A', 'B', 'AC', 'D', '', null),
      crop: fc.boolean(),
      blank: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        for (const m of writes) {
          const student = students[m.student % students.length]!;
          const q = questions[m.question % questions.length]!;
          const sheetId = sheetOf.get(student.id) ?? (await open(student));
          await results.transaction((r) =>
            r.writeAnswers(
              sheetId,
              [
                {
                  questionId: q.questionId,
                  scoreTenths: m.score === null ? null : Math.round(m.score * q.full),
                  source: 'marker',
                  blank: m.blank,
                  ...(isObjective(q.kind)
                    ? { response: m.response }
                    : { cropPath: m.crop ? `crops/${sheetId}/${q.questionId}.png` : null }),
                },
              ],
              { userId: null, reason: 'random' },
            ),
          );
        }
        for (const p of await packs(db)) expect(p.stored).toEqual(p.rows);
        const packed = await views(db);
        // From the answer rows alone: every pack cleared (the fallback reads the rows) …
        const fromRows = await rolledBack(db, async (trx) => {
          await trx
            .updateTable('sheets')
            .set({ answers_packed: null })
            .where('homework_id', '=', hw.id)
            .execute();
          return views(trx);
        });
        expect(packed).toEqual(fromRows);
        // … or only some of them (a homework marked partly before the migration and partly after).
        const mixed = await rolledBack(db, async (trx) => {
          const ids = [...sheetOf.values()].filter((_, i) => i % 2 === 0);
          await trx.updateTable('sheets').set({ answers_packed: null }).where('id', 'in', ids).execute();
          return views(trx);
        });
        expect(packed).toEqual(mixed);
        // A pack made for other questions (one question id differs: another key) is not read, whatever it holds:
        // here every answer is given full marks, which would change the figures if it were.
        const foreign = await rolledBack(db, async (trx) => {
          const spine = new ResultsService(trx, CLOCK);
          for (const [i, sheetId] of [...sheetOf.values()].entries()) {
            if (i % 2 === 1) continue;
            const rows = await spine.listAnswers(sheetId);
            const pack = packAnswers(
              rows.map((a, k) => ({
                ...a,
                questionId: k === 0 ? `${a.questionId}′` : a.questionId,
                scoreTenths: a.fullScoreTenths,
              })),
            );
            await trx.updateTable('sheets').set({ answers_packed: pack }).where('id', '=', sheetId).execute();
          }
          return views(trx);
        });
        expect(packed).toEqual(foreign);
      }),
      { numRuns: 8 },
    );
    // Some figures really come from answers: scored students, questions answered, crops to show.
    const now = (await views(db)) as { details: { rows: { cells: { cropUrl: string | null }[] }[] } };
    expect(now.details.rows.some((r) => r.cells.some((c) => c.cropUrl !== null))).toBe(true);
  }, 180_000);

  it('packs the sheets of a database migrated from before the packs exactly as the results spine does', async () => {
    const repacked = await rolledBack(db, async (trx) => {
      // Migration 0024 packed existing sheets with question ids; 0025 packs them anew without.
      await trx.updateTable('sheets').set({ answers_packed: null }).execute();
      await packExisting(trx);
      await repackExisting(trx);
      return packs(trx);
    });
    expect(repacked.length).toBeGreaterThan(0);
    for (const p of repacked) expect(p.stored).toEqual(p.rows);
  });

  it("packs sheets a bulk writer filled around the spine as the spine's own writes do", async () => {
    const repacked = await rolledBack(db, async (trx) => {
      await trx.updateTable('sheets').set({ answers_packed: null }).execute();
      const ids = (
        await trx.selectFrom('sheets').select('id').where('homework_id', '=', hw.id).execute()
      ).map((s) => s.id);
      await new ResultsService(trx, CLOCK).repack(ids);
      return packs(trx);
    });
    expect(repacked.length).toBeGreaterThan(0);
    for (const p of repacked) expect(p.stored).toEqual(p.rows);
  });
});
