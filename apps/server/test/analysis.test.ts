import fs from 'node:fs';
import ExcelJS from 'exceljs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AverageScoreSchema,
  BigDataSchema,
  ClassAnalysisSchema,
  CommentarySchema,
  GradeTrendSchema,
  HomeworkAnalysisSchema,
  HomeworkDetailsSchema,
  MarkingReportSchema,
  MistakeBookSchema,
  PrintGradeSchema,
  StudentAnalysisSchema,
  SubjectStatsSchema,
  AnalysisFiltersSchema,
  AnalysisHomeworkItemSchema,
  page,
  type HomeworkDetail,
} from '@zhzy/contracts';
import { analysisWorld } from './analysis-fixtures.js';
import { DIALECTS } from './helpers/index.js';
import { Q, data, type World } from './homework-fixtures.js';

// Learning analysis over a small class set whose every figure is worked out by hand (analysis-fixtures.ts):
// paper 3+3+4+2+3+3+12 = 30 points (single3, single4, multi5, truefalse, blank3, blank0, written);
// class 1: totals 30, 18, 18, 0; class 2: totals 27, 14, and one sheet still being marked; everyone else absent.

describe.each(DIALECTS)('learning analysis on %s', (dialect) => {
  let w: World;
  let hw: HomeworkDetail;
  let c1: string;
  let c2: string;
  let ids: Record<string, string>;
  const get = async <T>(url: string, who: 'me' | 'colleague' | 'admin' | 'stranger' = 'me') =>
    data<T>(await w.call('GET', url, w[who]));

  beforeAll(async () => {
    ({ w, hw, c1, c2, ids } = await analysisWorld(dialect));
  });
  afterAll(() => w.close());

  it('summarises the grade: mean, median, population SD, rates against 60/70/85 % lines', async () => {
    const a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${hw.id}`));
    // totals 30, 18, 18, 0, 27, 14: mean 107/6, median 18; pass ≥ 18 (4), good ≥ 21 (2), excellent ≥ 25.5 (2)
    expect(a.summary).toMatchObject({
      studentCount: 80,
      scoredCount: 6,
      pendingCount: 1,
      absentCount: 73,
      fullScore: 30,
      average: 17.83,
      max: 30,
      min: 0,
      median: 18,
      passCount: 4,
      passRate: 0.6667,
      goodCount: 2,
      excellentCount: 2,
      failCount: 2,
    });
    // σ² = Σ(x − 17.833)² / 6 = 564.83 / 6 = 94.14 → σ ≈ 9.70
    expect(a.summary.standardDeviation).toBe(9.7);
    expect(a.scope).toEqual({ classId: null, name: '全年级' });
    expect(a.cronbachAlpha).not.toBeNull();
  });

  it('compares classes with the grade: 超均率 and class ranks', async () => {
    const a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${hw.id}`));
    // class 2: (20.5 − 17.833)/17.833 = 0.1495; class 1: (16.5 − 17.833)/17.833 = −0.0748
    expect(a.classes.map((c) => [c.classId, c.rank, c.stats.average, c.overAverageRate])).toEqual([
      [c2, 1, 20.5, 0.1495],
      [c1, 2, 16.5, -0.0748],
    ]);
  });

  it('gives per-question score rate, discrimination, options and typical wrong answers', async () => {
    const a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${hw.id}`));
    const q1 = a.questions[0]!;
    // single3 scores 3,3,0,0,3,3 (+3 from the pending sheet) → 7 answers, mean 15/7 of 3
    expect(q1).toMatchObject({ no: '1', objective: true, correctAnswer: 'B', answerCount: 7 });
    expect(q1.scoreRate).toBeCloseTo(15 / 21, 4);
    // upper 2 by total (30, 27) score 3+3, lower 2 (14, 0) score 3+0 → (6 − 3)/6 = 0.5
    expect(q1.discrimination).toBe(0.5);
    expect(q1.discriminationName).toBe('优秀');
    expect(q1.options.map((o) => [o.option, o.count, o.correct])).toEqual([
      ['A', 2, false],
      ['B', 5, true],
      ['C', 0, false],
    ]);
    expect(q1.typicalWrong).toEqual([{ response: 'A', count: 2, rate: 0.2857 }]);
    const tf = a.questions[3]!;
    expect(tf.correctAnswer).toBe('F');
    expect(tf.typicalWrong.map((x) => x.response)).toEqual(['', 'T']);
  });

  it('hides ranks until the school allows them, and only administrators change that', async () => {
    let a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${hw.id}`));
    expect(a.students[0]).toMatchObject({ total: 30, gradeRank: null, classRank: null });
    const refused = await w.call('PUT', '/teacher/analysis/settings', w.me, { showRank: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('只有学校管理员可以修改分析设置');
    const bad = await w.call('PUT', '/teacher/analysis/settings', w.admin, { passRate: 0.9, goodRate: 0.7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('及格线、良好线、优秀线应依次升高');
    data(await w.call('PUT', '/teacher/analysis/settings', w.admin, { showRank: true }));
    a = HomeworkAnalysisSchema.parse(await get(`/teacher/analysis/homework/${hw.id}`));
    // ranks 30 → 1, 27 → 2, 18 and 18 → 3, 14 → 5, 0 → 6; T = 50 + 10 × (30 − 17.833)/9.7025 = 62.5
    expect(a.students.slice(0, 6).map((s) => [s.total, s.gradeRank])).toEqual([
      [30, 1],
      [27, 2],
      [18, 3],
      [18, 3],
      [14, 5],
      [0, 6],
    ]);
    expect(a.students[0]!.tScore).toBe(62.5);
    expect(a.students[6]).toMatchObject({
      status: 'pending',
      statusName: '阅卷中',
      total: null,
      partialTotal: 18,
    });
    expect(a.students.at(-1)).toMatchObject({ status: 'absent', statusName: '缺考' });
  });

  it('analyses one class against the grade', async () => {
    const a = ClassAnalysisSchema.parse(
      await get(`/teacher/analysis/class?homeworkId=${hw.id}&classId=${c1}`),
    );
    expect(a.summary).toMatchObject({ scoredCount: 4, average: 16.5, median: 18 });
    expect(a).toMatchObject({ classRank: 2, classCount: 2, overAverageRate: -0.0748, averageDiff: -1.33 });
    expect(a.students.map((s) => s.total).slice(0, 4)).toEqual([30, 18, 18, 0]);
    // class 1's written question: 12+6+9+0 = 27 of 48; the grade's 39 of 72
    const written = a.questions[6]!;
    expect(written.scoreRate).toBe(0.5625);
    expect(written.gradeScoreRate).toBeCloseTo(39 / 72, 4);
    expect(a.trend).toHaveLength(1);
    const missing = await w.call('GET', `/teacher/analysis/class?homeworkId=${hw.id}`, w.me);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('classId');
  });

  it('orders the commentary by points lost and lists students to follow up', async () => {
    const c = CommentarySchema.parse(await get(`/teacher/analysis/commentary/${hw.id}?classId=${c1}`));
    // class 1 lost per student: written 12 − 6.75, multi 4 − 2, then the 3-point questions
    expect(c.questions.slice(0, 2).map((q) => [q.no, q.lostScore])).toEqual([
      ['7', 5.25],
      ['3', 2],
    ]);
    expect(c.questions.map((q) => q.priority)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const multi = c.questions[1]!;
    expect(multi.wrongResponses.map((r) => [r.response, r.count])).toEqual([
      ['', 1],
      ['AC', 1],
    ]);
    const written = c.questions[0]!;
    expect(written.exemplaryAnswers[0]).toMatchObject({ score: 12 });
    expect(written.exemplaryAnswers[0]!.cropUrl).toBe(
      `/teacher/analysis/crop/${hw.id}/${ids.a1}/${Q.written}`,
    );
    expect(written.scoreDistribution).toEqual([
      { score: 0, count: 1 },
      { score: 6, count: 1 },
      { score: 9, count: 1 },
      { score: 12, count: 1 },
    ]);
    // only the student with 0 is below the pass line of 18; she also left 3+ answers blank
    expect(c.followUp.map((f) => [f.studentId, f.reasons])).toEqual([[ids.a4, ['low', 'blank']]]);
  });

  it('gives the student × question matrix with crops to open', async () => {
    const d = HomeworkDetailsSchema.parse(await get(`/teacher/analysis/details/${hw.id}?classId=${c1}`));
    expect(d.columns.map((c) => c.no)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(d.rows).toHaveLength(40);
    const first = d.rows[0]!;
    expect(first.studentId).toBe(ids.a1);
    expect(first.cells[0]).toMatchObject({ score: 3, response: 'B', correct: true });
    expect(first.cells[6]!.cropUrl).toContain('/teacher/analysis/crop/');
    expect(d.rows.at(-1)).toMatchObject({ status: 'absent', total: null });
  });

  it('streams an answer crop to the school and nobody else', async () => {
    const url = `/teacher/analysis/crop/${hw.id}/${ids.a1}/${Q.written}`;
    if (w.t.config.DATA_DIR) {
      const file = path.join(w.t.config.DATA_DIR, 'pages', 'analysis-test', `${ids.a1}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
      fs.writeFileSync(file, png);
      const res = await w.call('GET', url, w.me);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(png)).toBe(true);
    }
    expect((await w.call('GET', url, w.stranger)).statusCode).toBe(404);
    const none = await w.call('GET', `/teacher/analysis/crop/${hw.id}/${ids.a2}/${Q.written}`, w.me);
    expect(none.statusCode).toBe(404);
    expect(none.json<{ message: string }>().message).toBe('这道题没有答题图片');
  });

  it('follows one student: trend, wrong questions, knowledge points and a 错题本', async () => {
    const s = StudentAnalysisSchema.parse(await get(`/teacher/analysis/student?studentId=${ids.a3}`));
    expect(s.trend).toHaveLength(1);
    expect(s.trend[0]).toMatchObject({ total: 18, scoreRate: 0.6, classAverage: 16.5, gradeAverage: 17.83 });
    // wrong: q1 (0/3), q3 (0/4), q4 (0/2), q7 (9/12)
    expect(s.wrongQuestions.map((q) => [q.no, q.score, q.response])).toEqual([
      ['1', 0, 'A'],
      ['3', 0, 'AC'],
      ['4', 0, 'T'],
      ['7', 9, null],
    ]);
    const book = MistakeBookSchema.parse(
      await get(`/teacher/analysis/mistake-book?studentId=${ids.a3}&similar=1`),
    );
    expect(book.entries.map((e) => e.no)).toEqual(['1', '3', '4', '7']);
    expect(book.questionIds.slice(0, 4)).toEqual([Q.single3, Q.multi5, Q.truefalse, Q.written]);
    expect(
      (await w.call('GET', `/teacher/analysis/student?studentId=${ids.a3}`, w.stranger)).statusCode,
    ).toBe(404);
  });

  it('lists homework with results and the filters of the school year', async () => {
    const list = page(AnalysisHomeworkItemSchema).parse(await get('/teacher/analysis/homeworks'));
    expect(list.records.map((r) => [r.id, r.scoredCount, r.pendingCount, r.average])).toEqual([
      [hw.id, 6, 1, 17.83],
    ]);
    const f = AnalysisFiltersSchema.parse(await get('/teacher/analysis/filters'));
    expect(f.subjects.map((s) => [s.name, s.homeworkCount])).toEqual([['数学', 1]]);
    expect(f.gradeDirector).toBe(false);
    const trend = GradeTrendSchema.parse(
      await get(`/teacher/analysis/grade/trend?subjectId=${hw.subjectId}`),
    );
    expect(trend.points.map((p) => [p.average, p.classes.length])).toEqual([[17.83, 2]]);
  });

  it('prints score sheets per class', async () => {
    const p = PrintGradeSchema.parse(
      await get(`/teacher/analysis/print-grade/${hw.id}?classId=${c2}&order=number`),
    );
    expect(p.classes).toHaveLength(1);
    expect(p.classes[0]!.rows.slice(0, 3).map((r) => [r.total, r.scores[6]])).toEqual([
      [27, 9],
      [14, 3],
      [null, null],
    ]);
  });

  it('opens the data centre to grade directors only', async () => {
    for (const url of [
      '/teacher/data-center/subject',
      `/teacher/data-center/correct-score?homeworkId=${hw.id}`,
      `/teacher/data-center/average-score?homeworkId=${hw.id}`,
    ]) {
      const res = await w.call('GET', url, w.me);
      expect(res.statusCode).toBe(403);
      expect(res.json<{ message: string }>().message).toBe('只有年级主任可以查看数据中心');
    }
    const subjects = SubjectStatsSchema.parse(await get('/teacher/data-center/subject', 'colleague'));
    expect(subjects.subjects.map((s) => [s.subjectName, s.testCount, s.sheetCount])).toEqual([
      ['数学', 1, 6],
    ]);
    const avg = AverageScoreSchema.parse(
      await get(`/teacher/data-center/average-score?homeworkId=${hw.id}`, 'colleague'),
    );
    expect(avg.questions[0]!.classes.map((c) => c.scoreRate)).toEqual([0.5, 1]);
    const report = MarkingReportSchema.parse(
      await get(`/teacher/data-center/correct-score?homeworkId=${hw.id}`, 'colleague'),
    );
    // written questions 5, 6, 7 on 7 sheets = 21 answers; one still waiting
    expect(report.progress).toMatchObject({ sheets: 7, answers: 21, scored: 20, remaining: 1 });
    expect(report.markers.map((m) => [m.name, m.scoredCount, m.indicatorName])).toEqual([
      ['王老师', 12, '正常'],
      ['李主任', 8, '样本不足'],
    ]);
    expect(report.questions.map((q) => [q.no, q.remaining])).toEqual([
      ['5', 0],
      ['6', 0],
      ['7', 1],
    ]);
  });

  it("shows the school's activity on the large screen", async () => {
    const b = BigDataSchema.parse(await get('/teacher/big-data/overview'));
    expect(b.school.name).toBe('演示学校');
    expect(b.totals.homework).toBe(1);
    expect(b.totals.sheets).toBe(6);
    // 7 of 80 students scanned: still 扫描中
    expect(b.marking[0]).toMatchObject({ homeworkId: hw.id, stateName: '扫描中', scanRate: 0.0875 });
    expect(b.subjects[0]).toMatchObject({ subjectName: '数学', homeworkCount: 1 });
  });

  it('exports the score table to Excel with T and Z scores, and refuses the data centre tables to teachers', async () => {
    const res = await w.call('POST', '/teacher/analysis/export', w.me, {
      table: 'scores',
      homeworkId: hw.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('成绩单')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1, 13);
    expect(header).toEqual([
      '姓名',
      '学号',
      '班级',
      '状态',
      '客观题',
      '主观题',
      '总分',
      '得分率',
      '班级名次',
      '年级名次',
      'Z分数',
      'T分数',
    ]);
    expect(ws.getRow(2).getCell(7).value).toBe(30);
    const refused = await w.call('POST', '/teacher/analysis/export', w.me, {
      table: 'marking',
      homeworkId: hw.id,
    });
    expect(refused.statusCode).toBe(403);
    const bad = await w.call('POST', '/teacher/analysis/export', w.me, { table: 'nothing' });
    expect(bad.statusCode).toBe(400);
  });

  it("keeps another school's homework out of reach", async () => {
    const res = await w.call('GET', `/teacher/analysis/homework/${hw.id}`, w.stranger);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe('作业不存在或已删除');
  });
});
