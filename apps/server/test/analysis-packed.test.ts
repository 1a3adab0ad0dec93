import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { HomeworkDetail, HomeworkPaper } from '@zhzy/contracts';
import type { Database } from '../src/db/schema.js';
import { packExisting } from '../src/db/migrations/0024-sheet-answers-packed.js';
import type { AuthContext } from '../src/lib/call.js';
import { cardQuestionOf } from '../src/modules/homework/card-paper.js';
import { AnalysisRepository } from '../src/modules/analysis/repository.js';
import { AnalysisService } from '../src/modules/analysis/service.js';
import {
  ResultsRepository,
  isObjective,
  packAnswers,
  resultsProgress,
} from '../src/modules/results/repository.js';
import { DIALECTS } from './helpers/index.js';
import { homeworkWorld, type World } from './homework-fixtures.js';

// The first read of an analysis decodes each sheet's packed answers (`sheets.answers_packed`, ADR 0033) instead of
// one row per answer. The results spine writes the pack with the answers, so after any sequence of writes —
// scores up and down, answers unmarked again, responses, crops and blanks changed, absent students handing in a
// sheet — every pack must hold exactly the sheet's answer rows, and the analysis, 讲评 and details computed from the
// packs must equal those computed from the answer rows alone (packs cleared: the reader's fallback, as for sheets
// written before migration 0024). The migration's own packing of existing sheets must agree with the spine's.

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

/** A pack as a comparable value: its entries by question id. */
const entries = (packed: string | null) =>
  packed === null
    ? null
    : (JSON.parse(packed) as unknown[][])
        .map((e) => [e[0], e[1], e[2], Number(e[3]), Number(e[4])])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe.each(DIALECTS)('packed answers on %s', (dialect) => {
  let w: World;
  let db: Kysely<Database>;
  let hw: HomeworkDetail;
  let results: ResultsRepository;
  let auth: AuthContext;
  let students: { id: string; classId: string }[];
  let questions: { questionId: string; kind: ReturnType<typeof cardQuestionOf>['kind']; full: number }[];
  let card: { orgId: string; cardId: string; cardVersion: number; pages: number };
  const sheetOf = new Map<string, string>();

  /** The three views of the homework computed by a service that keeps nothing, reading through `on`. */
  const views = async (on: Kysely<Database>) => {
    const service = new AnalysisService(
      new AnalysisRepository(on),
      resultsProgress(on),
      CLOCK,
      () => Promise.resolve([]),
      () => Promise.reject(new Error('no crops here')),
      on,
    );
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
    const spine = new ResultsRepository(on, CLOCK);
    return Promise.all(
      sheets.map(async (s) => ({
        stored: entries(s.answers_packed),
        rows: entries(packAnswers(await spine.listAnswers(s.id))),
      })),
    );
  };

  const open = async (student: { id: string; classId: string }) => {
    const sheet = await results.transaction((r) =>
      r.openSheet({
        orgId: card.orgId,
        homeworkId: hw.id,
        studentId: student.id,
        classId: student.classId,
        cardId: card.cardId,
        cardVersion: card.cardVersion,
        pagesExpected: card.pages,
        questions: questions.map((q) => ({
          questionId: q.questionId,
          kind: q.kind,
          fullScoreTenths: q.full,
        })),
      }),
    );
    sheetOf.set(student.id, sheet.id);
    return sheet.id;
  };

  beforeAll(async () => {
    w = await homeworkWorld(dialect, CLOCK);
    db = w.t.testDb.db.kysely;
    results = new ResultsRepository(db, CLOCK);
    const teacher = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo-teacher')
      .executeTakeFirstOrThrow();
    auth = {
      userId: teacher.id,
      username: 'demo-teacher',
      sessionId: '',
      orgId: w.orgA,
      isCreator: false,
      isAdministrator: false,
      isGradeDirector: false,
      basketVersion: 0,
    };
    const paper = await w.createPaper(w.me, '打包答案');
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title: '打包答案',
      classIds: [w.classesA[0]!.id, w.classesA[1]!.id],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    const row = await db
      .selectFrom('homework as h')
      .innerJoin('card_versions as v', (j) =>
        j.onRef('v.card_id', '=', 'h.card_id').onRef('v.version', '=', 'h.card_version'),
      )
      .select(['h.org_id', 'h.paper_snapshot', 'h.card_id', 'h.card_version', 'v.page_count'])
      .where('h.id', '=', hw.id)
      .executeTakeFirstOrThrow();
    card = { orgId: row.org_id, cardId: row.card_id, cardVersion: row.card_version, pages: row.page_count };
    questions = (JSON.parse(row.paper_snapshot) as HomeworkPaper).sections.flatMap((s) =>
      s.items.map((item) => ({
        questionId: item.questionId,
        kind: cardQuestionOf(item).kind,
        full: Math.round(item.score * 10),
      })),
    );
    students = await db
      .selectFrom('students')
      .select(['id', 'class_id as classId'])
      .where('class_id', 'in', [w.classesA[0]!.id, w.classesA[1]!.id])
      .orderBy('class_id')
      .orderBy('student_no')
      .execute();
    // One student in three hands in a sheet, fully marked; the rest are absent for now.
    for (const [i, s] of students.entries()) {
      if (i % 3 !== 0) continue;
      const sheetId = await open(s);
      await results.transaction((r) =>
        r.writeAnswers(
          sheetId,
          questions.map((q, k) => ({
            questionId: q.questionId,
            scoreTenths: (i * 7 + k * 3) % (q.full + 1),
            source: 'marker' as const,
            ...(isObjective(q.kind)
              ? { response: 'ABCD'[(i + k) % 4]! }
              : { cropPath: `crops/${sheetId}/${q.questionId}.png` }),
          })),
          { userId: null, reason: 'seed' },
        ),
      );
    }
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
      }),
      { numRuns: 8 },
    );
    // Some figures really come from answers: scored students, questions answered, crops to show.
    const now = (await views(db)) as { details: { rows: { cells: { cropUrl: string | null }[] }[] } };
    expect(now.details.rows.some((r) => r.cells.some((c) => c.cropUrl !== null))).toBe(true);
  }, 180_000);

  it('packs the sheets of a database migrated from before the packs exactly as the results spine does', async () => {
    const repacked = await rolledBack(db, async (trx) => {
      await trx.updateTable('sheets').set({ answers_packed: null }).execute();
      await packExisting(trx);
      return packs(trx);
    });
    expect(repacked.length).toBeGreaterThan(0);
    for (const p of repacked) expect(p.stored).toEqual(p.rows);
  });
});
