import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommentarySchema,
  HomeworkAnalysisSchema,
  HomeworkDetailsSchema,
  type HomeworkDetail,
} from '@zhzy/contracts';
import type { AuthContext } from '../src/lib/call.js';
import type { AnalysisService } from '../src/modules/analysis/service.js';
import { isObjective } from '../src/modules/results/scoring.js';
import { type ResultsService } from '../src/modules/results/service.js';
import { DIALECTS } from './helpers/index.js';
import {
  markedHomework,
  type MarkedHomework,
  type MarkedQuestion,
  type MarkedStudent,
} from './helpers/marked-homework.js';
import { data, homeworkWorld, type World } from './homework-fixtures.js';

// A kept analysis is brought up to date from the sheets written since it was computed (ADR 0030) instead of being
// computed anew. Marks arrive in random order — scores up and down, answers unmarked again, responses changed,
// students without a sheet handing one in — and after each chosen moment the host's answer (analysis, commentary,
// details) must equal a computation from the database by a service without any memory, while every such read is
// an update, never a full computation. The context is per school: a change in one school leaves another's figures
// kept.

const CLOCK = () => Date.parse('2026-11-02T08:00:00.000Z');

describe.each(DIALECTS)('analysis brought up to date on %s', (dialect) => {
  let w: World;
  let hw: HomeworkDetail;
  let results: ResultsService;
  /** A new service each time: nothing kept. */
  let uncached: () => AnalysisService;
  let auth: AuthContext;
  let students: MarkedStudent[];
  let questions: MarkedQuestion[];
  let sheetOf: Map<string, string>;
  let open: MarkedHomework['open'];

  const lookups = async () => {
    const metric = await w.t.app.metrics.analysisCache.get();
    const of = (result: string) =>
      metric.values.find((v) => v.labels.cache === 'model' && v.labels.result === result)?.value ?? 0;
    return { hit: of('hit'), update: of('update'), miss: of('miss') };
  };

  /** The host's three views of the homework now, as a caller gets them. */
  const host = async () => ({
    analysis: HomeworkAnalysisSchema.parse(
      data(await w.call('GET', `/teacher/analysis/homework/${hw.id}`, w.me)),
    ),
    commentary: CommentarySchema.parse(
      data(await w.call('GET', `/teacher/analysis/commentary/${hw.id}`, w.me)),
    ),
    details: HomeworkDetailsSchema.parse(
      data(await w.call('GET', `/teacher/analysis/details/${hw.id}`, w.me)),
    ),
  });

  /** The same views computed from the database by a service that keeps nothing. */
  const truth = async () =>
    JSON.parse(
      JSON.stringify({
        analysis: await uncached().homeworkAnalysis(auth, hw.id),
        commentary: await uncached().commentary(auth, hw.id),
        details: await uncached().details(auth, hw.id),
      }),
    ) as Awaited<ReturnType<typeof host>>;

  beforeAll(async () => {
    w = await homeworkWorld(dialect, CLOCK);
    const marked = await markedHomework(w, CLOCK, '逐份更新');
    ({ hw, results, auth, students, questions, sheetOf, open } = marked);
    uncached = () => marked.uncachedService();
    // Half the students hand in a sheet, fully marked; the rest are absent for now.
    for (const [i, s] of students.entries()) if (i % 2 === 0) await marked.markAll(i, await open(s));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('equals a fresh computation after every mark, in any order, and never computes everything anew', async () => {
    const first = await host();
    expect(first).toEqual(await truth());
    expect(first.analysis.summary.scoredCount).toBeGreaterThan(0);
    const mark = fc.record({
      student: fc.nat({ max: 1000 }),
      question: fc.nat({ max: 1000 }),
      /** A fraction of the full score, or null: the answer is unmarked again. */
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 5 }),
      response: fc.constantFrom('A', 'B', 'AC', 'D', null),
      /** Read (and compare) right after this mark. */
      read: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(mark, { minLength: 1, maxLength: 8 }), async (marks) => {
        const before = await lookups();
        for (const m of marks) {
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
                  ...(isObjective(q.kind) ? { response: m.response } : {}),
                },
              ],
              { userId: null, reason: 'random' },
            ),
          );
          if (m.read) expect(await host()).toEqual(await truth());
        }
        expect(await host()).toEqual(await truth());
        const after = await lookups();
        expect(after.miss).toBe(before.miss);
        expect(after.update).toBeGreaterThan(before.update);
      }),
      { numRuns: 15 },
    );
  });

  it('keeps one school’s figures when another school changes, and recomputes them when their own school does', async () => {
    const db = w.t.testDb.db.kysely;
    await host();
    const before = await lookups();
    // 第二中学 renames a class and a student: nothing 演示学校 shows.
    await db.updateTable('classes').set({ name: '改名班' }).where('id', '=', w.classB).execute();
    await db.updateTable('students').set({ name: '别校同学' }).where('class_id', '=', w.classB).execute();
    const kept = await host();
    const mid = await lookups();
    expect(mid.miss).toBe(before.miss);
    expect(mid.update).toBe(before.update);
    expect(mid.hit - before.hit).toBe(3);
    expect(kept).toEqual(await truth());
    // 演示学校 renames one of the homework's students: its figures are computed anew.
    await db.updateTable('students').set({ name: '本校改名' }).where('id', '=', students[0]!.id).execute();
    const renamed = await host();
    const end = await lookups();
    expect(end.miss - mid.miss).toBe(1);
    expect(renamed.details.rows.some((r) => r.name === '本校改名')).toBe(true);
    expect(renamed).toEqual(await truth());
  });
});
