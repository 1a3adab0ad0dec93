import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HomeworkAnalysisSchema,
  MarkHomeworkSchema,
  SubmitMarkResultSchema,
  type HomeworkAnalysis,
  type HomeworkDetail,
  type MarkBlock,
} from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { writeSampleSheets } from '../src/modules/marking/sample-scans.js';
import { AnalysisRepository } from '../src/modules/analysis/repository.js';
import { AnalysisService } from '../src/modules/analysis/service.js';
import { resultsProgress } from '../src/modules/results/progress.js';
import { PageStorage } from '../src/modules/scan/storage.js';
import { DIALECTS, type TestApp } from './helpers/index.js';
import { Q, data, homeworkWorld, type Headers, type World } from './homework-fixtures.js';

// Analysis keeps computed figures in memory and checks them against versions in the database on every read
// (ADR 0021). Here one host (A) reads while writes arrive through marking, re-scoring, arbitration, settings and a
// plain SQL update — some through a second host (B) on the same database, whose writes A's memory never saw. After
// every write A's answer must equal what a service without any memory computes from the database at that moment,
// and a read with nothing written in between must come from memory. A write of results only brings the kept
// figures up to date from the sheets written since (update, ADR 0030); a change beside them computes anew (miss).

const CLOCK = () => Date.parse('2026-11-02T08:00:00.000Z');

describe.each(DIALECTS)('analysis cache on %s', (dialect) => {
  let w: World;
  let b: FastifyInstance;
  let hw: HomeworkDetail;
  let sheets: string[];
  let users: { teacher: string; director: string; admin: string };
  let uncached: () => AnalysisService;

  const analysisUrl = () => `/teacher/analysis/homework/${hw.id}`;
  const callOn = (
    app: FastifyInstance,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    who: Headers,
    payload?: object,
  ) => app.inject({ method, url, headers: who, ...(payload ? { payload } : {}) });

  /** Cache lookups of host A so far, by result. */
  const lookups = async (cache: 'model' | 'point') => {
    const metric = await w.t.app.metrics.analysisCache.get();
    const of = (result: string) =>
      metric.values.find((v) => v.labels.cache === cache && v.labels.result === result)?.value ?? 0;
    return { hit: of('hit'), update: of('update'), miss: of('miss') };
  };

  /** Host A's analysis of the homework, with the lookups it caused. */
  const readA = async () => {
    const before = await lookups('model');
    const analysis = HomeworkAnalysisSchema.parse(data(await w.call('GET', analysisUrl(), w.me)));
    const after = await lookups('model');
    return {
      analysis,
      hit: after.hit - before.hit,
      update: after.update - before.update,
      miss: after.miss - before.miss,
    };
  };

  /** What the database says now, computed without any memory, as it would travel over HTTP. */
  const truth = async (): Promise<HomeworkAnalysis> => {
    const auth = {
      userId: users.teacher,
      username: 'demo-teacher',
      sessionId: '',
      orgId: w.orgA,
      isCreator: false,
      isAdministrator: false,
      isGradeDirector: false,
    };
    return JSON.parse(JSON.stringify(await uncached().homeworkAnalysis(auth, hw.id))) as HomeworkAnalysis;
  };

  const studentOf = (a: HomeworkAnalysis, index: number) =>
    a.students.find((s) => s.studentId === ids[index])!;
  let ids: string[] = [];

  const blocks = async () =>
    MarkHomeworkSchema.parse(data(await w.call('GET', `/teacher/mark/homework/${hw.id}`, w.me))).blocks;
  const submit = (app: FastifyInstance, block: MarkBlock, who: Headers, sheetId: string, score: number) =>
    callOn(app, 'POST', `/teacher/mark/block/${block.id}/mark`, who, {
      sheetId,
      scores: block.questions.map((q) => ({ questionId: q.questionId, score: Math.min(score, q.fullScore) })),
    });

  beforeAll(async () => {
    w = await homeworkWorld(dialect, CLOCK);
    const t: TestApp = w.t;
    const db = t.testDb.db.kysely;
    const rows = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', 'in', ['demo-teacher', 'demo-director', 'demo-admin'])
      .execute();
    const id = (u: string) => rows.find((r) => r.username === u)!.id;
    users = { teacher: id('demo-teacher'), director: id('demo-director'), admin: id('demo-admin') };
    uncached = () =>
      new AnalysisService(
        new AnalysisRepository(db),
        resultsProgress(db),
        CLOCK,
        () => Promise.resolve([]),
        () => Promise.reject(new Error('no crops here')),
        db,
      );

    const class1 = w.classesA[0]!.id;
    const paper = await w.createPaper(w.me, '缓存测试');
    hw = await w.publish(w.me, {
      paperId: paper.id,
      type: 'test',
      title: '缓存测试',
      classIds: [class1],
      startDate: '2026-11-02',
      dueDate: '2026-11-09',
    });
    const students = await db
      .selectFrom('students')
      .select(['id', 'class_id as classId'])
      .where('class_id', '=', class1)
      .orderBy('student_no')
      .limit(4)
      .execute();
    ids = students.map((s) => s.id);
    sheets = await writeSampleSheets(db, new PageStorage(t.config.DATA_DIR), {
      homeworkId: hw.id,
      students,
      answer: (i) => ({ text: `答案 ${i + 1}` }),
    });

    // The written question is double-marked by the teacher and the director, the administrator arbitrates.
    const list = await blocks();
    const settings = list.map((blk) => ({
      id: blk.id,
      questionIds: blk.questions.map((q) => q.questionId),
      title: blk.title,
      mode: blk.questions[0]!.questionId === Q.written ? 'double' : blk.mode,
      threshold: blk.questions[0]!.questionId === Q.written ? 2 : blk.threshold,
      averageRule: 'mean',
      halfPoints: blk.halfPoints,
      assignBy: blk.assignBy,
      markers:
        blk.questions[0]!.questionId === Q.written
          ? [
              { userId: users.teacher, classIds: [] },
              { userId: users.director, classIds: [] },
            ]
          : blk.markers.map((m) => ({ userId: m.userId, classIds: m.classIds })),
      arbiterId: blk.questions[0]!.questionId === Q.written ? users.admin : blk.arbiterId,
      rubric: blk.rubric,
      comments: blk.comments,
    }));
    const res = await w.call('PUT', `/teacher/mark/homework/${hw.id}`, w.me, { blocks: settings });
    expect(res.statusCode, res.body).toBe(200);

    // Host B: its own connection to the same database and its own memory.
    b = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        WEB_DIST: '',
        DATA_DIR: t.config.DATA_DIR,
        SEED_DEMO_SCANS: 'false',
        SEED_DEMO_RESULTS: 'false',
        ...(dialect === 'postgres' ? { DATABASE_URL: t.testDb.location, DATABASE_POOL_SIZE: '2' } : {}),
      }),
      clock: CLOCK,
    });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  it('serves a read with nothing written since from memory, equal to a computation from the database', async () => {
    const first = await readA();
    expect(first.miss).toBe(1);
    expect(first.analysis).toEqual(await truth());
    // Written answers are not marked yet: every student with a sheet waits.
    expect(first.analysis.summary).toMatchObject({ scoredCount: 0, pendingCount: 4, absentCount: 36 });
    const second = await readA();
    expect(second).toMatchObject({ hit: 1, miss: 0 });
    expect(second.analysis).toEqual(first.analysis);
  });

  it('shows a mark given on another host at the next read (single marking, then double marking)', async () => {
    const before = (await readA()).analysis;
    expect(studentOf(before, 0).status).toBe('pending');
    const list = await blocks();
    const written = list.find((blk) => blk.questions.some((q) => q.questionId === Q.written))!;
    // Every single-marked block of student 0, full marks, through host B.
    for (const blk of list.filter((x) => x.id !== written.id)) {
      const res = await submit(b, blk, w.me, sheets[0]!, 99);
      expect(res.statusCode, res.body).toBe(200);
    }
    // Still pending: the written question waits for its second marker.
    expect((await submit(b, written, w.me, sheets[0]!, 8)).statusCode).toBe(200);
    const waiting = await readA();
    expect(waiting).toMatchObject({ update: 1, miss: 0 });
    expect(studentOf(waiting.analysis, 0).status).toBe('pending');
    expect(waiting.analysis).toEqual(await truth());
    const second = SubmitMarkResultSchema.parse(data(await submit(b, written, w.colleague, sheets[0]!, 9)));
    expect(second.outcome).toBe('final');
    const after = await readA();
    expect(after).toMatchObject({ update: 1, miss: 0 });
    expect(after.analysis).toEqual(await truth());
    const s0 = studentOf(after.analysis, 0);
    expect(s0.status).toBe('scored');
    // (8 + 9) / 2 on the written question.
    expect(after.analysis.questions.find((q) => q.questionId === Q.written)!.average).toBe(8.5);
    expect(after.analysis.summary.scoredCount).toBe(1);
    expect(after.analysis.summary.average).toBe(s0.total);
  });

  it('shows the arbiter’s score when the two markers disagree beyond the threshold', async () => {
    const list = await blocks();
    const written = list.find((blk) => blk.questions.some((q) => q.questionId === Q.written))!;
    for (const blk of list.filter((x) => x.id !== written.id))
      expect((await submit(w.t.app, blk, w.me, sheets[1]!, 0)).statusCode).toBe(200);
    await submit(w.t.app, written, w.me, sheets[1]!, 2);
    const beyond = SubmitMarkResultSchema.parse(data(await submit(b, written, w.colleague, sheets[1]!, 10)));
    expect(beyond.outcome).toBe('arbitration');
    const undecided = await readA();
    expect(studentOf(undecided.analysis, 1).status).toBe('pending');
    const decided = SubmitMarkResultSchema.parse(data(await submit(b, written, w.admin, sheets[1]!, 6)));
    expect(decided.outcome).toBe('final');
    const after = await readA();
    expect(after).toMatchObject({ update: 1, miss: 0 });
    expect(after.analysis).toEqual(await truth());
    expect(studentOf(after.analysis, 1).status).toBe('scored');
    // Written scores of the two scored students: 8.5 and the arbiter's 6.
    expect(after.analysis.questions.find((q) => q.questionId === Q.written)!.average).toBe(7.25);
  });

  it('shows the new objective scores after an answer-key change re-scores everyone', async () => {
    const before = (await readA()).analysis;
    const q = before.questions.find((x) => x.questionId === Q.single3)!;
    const res = data<{ changed: number }>(
      await callOn(b, 'PUT', `/teacher/recognition/homework/${hw.id}/key`, w.me, {
        questions: [{ questionId: Q.single3, answer: q.correctAnswer === 'C' ? 'D' : 'C' }],
      }),
    );
    expect(res.changed).toBeGreaterThan(0);
    const after = await readA();
    expect(after).toMatchObject({ update: 1, miss: 0 });
    expect(after.analysis).toEqual(await truth());
    expect(after.analysis.questions.find((x) => x.questionId === Q.single3)!.scoreRate).not.toBe(q.scoreRate);
  });

  it('shows changes beside the results too: settings, and a student renamed by any writer', async () => {
    const before = (await readA()).analysis;
    expect(studentOf(before, 0).gradeRank).toBeNull();
    data(await callOn(b, 'PUT', '/teacher/analysis/settings', w.admin, { showRank: true }));
    const ranked = await readA();
    expect(ranked.miss).toBe(1);
    expect(studentOf(ranked.analysis, 0).gradeRank).not.toBeNull();
    await w.t.testDb.db.kysely
      .updateTable('students')
      .set({ name: '改名同学' })
      .where('id', '=', ids[0]!)
      .execute();
    const renamed = await readA();
    expect(renamed.miss).toBe(1);
    expect(studentOf(renamed.analysis, 0).name).toBe('改名同学');
    expect(renamed.analysis).toEqual(await truth());
  });

  it('keeps trend points per homework and recomputes only the one whose results changed', async () => {
    const url = `/teacher/analysis/grade/trend?subjectId=${hw.subjectId}`;
    const first = data<{ points: { homeworkId: string; average: number }[] }>(await w.call('GET', url, w.me));
    const mid = await lookups('point');
    const again = data<typeof first>(await w.call('GET', url, w.me));
    expect(again).toEqual(first);
    const hits = await lookups('point');
    expect(hits.miss).toBe(mid.miss);
    expect(hits.hit).toBeGreaterThan(mid.hit);
    const list = await blocks();
    const written = list.find((blk) => blk.questions.some((q) => q.questionId === Q.written))!;
    for (const blk of list.filter((x) => x.id !== written.id))
      expect((await submit(b, blk, w.me, sheets[2]!, 99)).statusCode).toBe(200);
    await submit(b, written, w.me, sheets[2]!, 12);
    await submit(b, written, w.colleague, sheets[2]!, 12);
    const after = data<typeof first>(await w.call('GET', url, w.me));
    const end = await lookups('point');
    expect(end.miss - hits.miss).toBe(1);
    const point = after.points.find((p) => p.homeworkId === hw.id)!;
    const model = (await readA()).analysis;
    expect(point.average).toBe(model.summary.average);
    expect(model.summary.scoredCount).toBe(3);
  });
});
