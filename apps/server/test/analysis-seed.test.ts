import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisHomeworkItemSchema,
  HomeworkAnalysisSchema,
  MarkingReportSchema,
  page,
} from '@zhzy/contracts';
import { bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// The demo results a fresh start shows (SEED_DEMO with SEED_DEMO_RESULTS): finished homework with realistic scores
// for the three 七年级 classes, one still being marked and one waiting for scans.

describe('demo results on a fresh start', () => {
  let t: TestApp;
  let teacher: { authorization: string };
  let director: { authorization: string };
  const get = async <T>(url: string, headers = teacher) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect: 'sqlite', env: { SEED_DEMO_RESULTS: 'true' } });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    director = bearer((await signIn(t.app, 'demo-director')).access_token);
  }, 120_000);
  afterAll(() => t.close());

  it('shows every homework state on the homework list', async () => {
    const list = await get<{ records: { stateName: string }[] }>('/teacher/homework/list?page=1&size=50');
    const states = list.records.map((r) => r.stateName);
    expect(states.filter((s) => s === '已完成')).toHaveLength(5);
    expect(states).toContain('阅卷中');
    expect(states).toContain('待扫描');
  });

  it('gives the analysis screens realistic, differing class results', async () => {
    const list = page(AnalysisHomeworkItemSchema).parse(await get('/teacher/analysis/homeworks?size=50'));
    expect(list.total).toBe(6);
    const done = list.records.find((r) => r.stateName === '已完成')!;
    const a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${done.id}`));
    expect(a.summary.scoredCount).toBe(120);
    expect(a.summary.average).toBeGreaterThan(45);
    expect(a.summary.average).toBeLessThan(90);
    expect(a.summary.standardDeviation).toBeGreaterThan(5);
    const averages = a.classes.map((c) => c.stats.average);
    expect(a.classes).toHaveLength(3);
    expect(Math.max(...averages) - Math.min(...averages)).toBeGreaterThan(2);
    expect(a.questions.some((q) => q.typicalWrong.length > 0)).toBe(true);
    expect(a.questions.some((q) => q.blankCount > 0)).toBe(true);
    const report = MarkingReportSchema.parse(
      await get(`/teacher/data-center/correct-score?homeworkId=${done.id}`, director),
    );
    expect(report.markers.map((m) => m.name).sort()).toEqual(['李主任', '王老师']);
  });
});
