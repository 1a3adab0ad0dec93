import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeworkDetail } from '@zhzy/contracts';
import { analysisWorld } from './analysis-fixtures.js';
import { DIALECTS } from './helpers/index.js';
import { Q, type World } from './homework-fixtures.js';

// The printable analysis files over the analysis tests' class set (analysis-fixtures.ts):
// paper 3+3+4+2+3+3+12 = 30 points (single3, single4, multi5, truefalse, blank3, blank0, written);
// class 1: totals 30, 18, 18, 0; class 2: totals 27, 14, and one sheet still being marked; everyone else absent.

const SHOTS = path.resolve(import.meta.dirname, '../../../test-artifacts/analysis-pdf');

/** The PDF's page count and text, read by poppler (what a teacher's viewer would see). */
function readPdf(bytes: Buffer, name: string): { pages: number; text: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analysis-pdf-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { pages, text, file };
}

function snapshot(file: string, name: string, page = 1): void {
  fs.mkdirSync(SHOTS, { recursive: true });
  const base = path.join(SHOTS, name);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '70',
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    base,
  ]);
}

/** How many pixels of page `page`, drawn at 50 dpi, are within a small distance of the colour `hex`. */
async function pixelsOf(file: string, page: number, hex: string): Promise<number> {
  const base = path.join(path.dirname(file), `colour-${page}`);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '50',
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    base,
  ]);
  const { data, info } = await sharp(`${base}.png`).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 24) count += 1;
  return count;
}

/** Pixels of a colour over every page of a PDF. */
async function pixelsInPdf(pdf: { file: string; pages: number }, hex: string): Promise<number> {
  let total = 0;
  for (let page = 1; page <= pdf.pages; page += 1) total += await pixelsOf(pdf.file, page, hex);
  return total;
}

describe.each(DIALECTS)('analysis PDFs on %s', (dialect) => {
  let w: World;
  let hw: HomeworkDetail;
  let c1: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    ({ w, hw, c1, ids } = await analysisWorld(dialect));
  });
  afterAll(() => w.close());

  const post = (url: string, body: unknown, who: 'me' | 'stranger' = 'me') =>
    w.call('POST', url, w[who], body as Record<string, unknown>);
  const names = async (classId: string) =>
    w.t.testDb.db.kysely
      .selectFrom('students')
      .select(['id', 'name'])
      .where('class_id', '=', classId)
      .orderBy('student_no')
      .execute();

  it('prints the homework report of the grade as an A4 PDF with its tables', async () => {
    const res = await post(`/teacher/analysis/report/${hw.id}/pdf`, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('第一单元测验-全年级-作业报告.pdf')}`,
    );
    const pdf = readPdf(res.rawPayload, 'report.pdf');
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    const info = execFileSync('pdfinfo', [pdf.file], { encoding: 'utf8' });
    expect(info).toMatch(/Page size:\s+595\.2\d* x 841\.8\d* pts \(A4\)/);
    for (const heading of ['第一单元测验 作业报告', '成绩概况', '分数段分布', '班级对比', '小题分析']) {
      expect(pdf.text).toContain(heading);
    }
    expect(pdf.text).toMatch(/第\s*1\s*页/);
    for (const label of ['平均分', '得分率', '难度', '区分度', '超均率']) expect(pdf.text).toContain(label);
    // The figures are the analysis call's (worked out by hand in analysis.test.ts).
    const analysis = (await w.call('GET', `/teacher/analysis/homework/${hw.id}`, w.me)).json<{
      data: { summary: { average: number; scoredCount: number }; classes: { className: string }[] };
    }>().data;
    expect(pdf.text).toContain(String(Math.round(analysis.summary.average * 100) / 100));
    for (const c of analysis.classes) expect(pdf.text).toContain(c.className);
    if (dialect === DIALECTS[0]) snapshot(pdf.file, 'report');
  });

  it('draws the report’s charts: score bands, class averages against the grade’s, question rates by 难度', async () => {
    const res = await post(`/teacher/analysis/report/${hw.id}/pdf`, {});
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload, 'report-charts.pdf');
    // The guide lines' labels: the grade average on the class chart, the 难度 lines on the question chart.
    expect(pdf.text).toMatch(/年级平均\s*\d/);
    expect(pdf.text).toContain('容易 ≥70%');
    expect(pdf.text).toContain('较难 <40%');
    for (const caption of ['各分数段人数', '各班平均分', '各题得分率']) expect(pdf.text).toContain(caption);
    // Bars in the web report's colours: blue (bands, averages, medium questions) and green (easy questions); red is
    // the grade average's and the 较难 line's (this paper has no hard question).
    expect(await pixelsInPdf(pdf, '#2563eb')).toBeGreaterThan(300);
    expect(await pixelsInPdf(pdf, '#10b981')).toBeGreaterThan(40);
    expect(await pixelsInPdf(pdf, '#f43f5e')).toBeGreaterThan(40);
    if (dialect === DIALECTS[0]) snapshot(pdf.file, 'report-charts', 2);
  });

  it('draws no chart for a homework nobody has been marked in: no collapse to 0', async () => {
    const paper = await w.createPaper(w.me, '未批改的测验');
    const unmarked = await w.publish(w.me, {
      paperId: paper.id,
      type: 'homework',
      title: '还没有批改的作业',
      classIds: [c1],
      startDate: '2026-11-06',
      dueDate: '2026-11-07',
    });
    const res = await post(`/teacher/analysis/report/${unmarked.id}/pdf`, {});
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload, 'report-unmarked.pdf');
    expect(pdf.text).toContain('分数段分布');
    expect(pdf.text).not.toContain('年级平均');
    expect(await pixelsInPdf(pdf, '#2563eb')).toBe(0);
  });

  it('prints the report of one class, and refuses a class outside the homework', async () => {
    const res = await post(`/teacher/analysis/report/${hw.id}/pdf`, { classId: c1 });
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload, 'report-class.pdf');
    const className = w.classesA[0]!.name;
    expect(pdf.text).toContain(className);
    expect(pdf.text).toContain('年级人数');
    const other = await post(`/teacher/analysis/report/${hw.id}/pdf`, { classId: w.classesA[2]!.id });
    expect(other.statusCode).toBe(404);
    expect(other.json<{ message: string }>().message).toBe('所选班级不属于这次作业');
  });

  it("gives another school's teacher 404 and bad input a Chinese 400", async () => {
    const foreign = await post(`/teacher/analysis/report/${hw.id}/pdf`, {}, 'stranger');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toBe('作业不存在或已删除');
    const foreignBook = await post(
      '/teacher/analysis/mistake-book/pdf',
      { studentIds: [ids.a3] },
      'stranger',
    );
    expect(foreignBook.statusCode).toBe(404);
    expect(foreignBook.json<{ message: string }>().message).toBe('学生不存在或不属于您的学校');
    const foreignClass = await post('/teacher/analysis/mistake-book/pdf', { classId: c1 }, 'stranger');
    expect(foreignClass.statusCode).toBe(404);

    const empty = await post('/teacher/analysis/mistake-book/pdf', { studentIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toContain('请选择学生或班级');
    const badSimilar = await post('/teacher/analysis/mistake-book/pdf', { classId: c1, similar: 9 });
    expect(badSimilar.statusCode).toBe(400);
    expect(badSimilar.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
    const badClass = await post(`/teacher/analysis/report/${hw.id}/pdf`, { classId: 42 });
    expect(badClass.statusCode).toBe(400);
    expect(badClass.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('prints the 错题本 of chosen students, one student per page run, with answers and similar questions', async () => {
    const students = await names(c1);
    const res = await post('/teacher/analysis/mistake-book/pdf', {
      studentIds: [ids.a3, ids.a1],
      similar: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
    const pdf = readPdf(res.rawPayload, 'mistakes.pdf');
    const a3 = students.find((s) => s.id === ids.a3)!.name;
    const a1 = students.find((s) => s.id === ids.a1)!.name;
    expect(pdf.text).toContain(`${a3} 的错题本`);
    expect(pdf.text).toContain(`${a1} 的错题本`);
    for (const heading of ['错题一览', '错题详解', '正确答案：', '第一单元测验 第 1 题']) {
      expect(pdf.text).toContain(heading);
    }
    // a3 got q1, q3, q4 and q7 wrong; a1 got full marks: a page of their own saying so.
    expect(pdf.text).toContain('共 4 道错题');
    expect(pdf.text).toContain('所选范围内没有错题');
    // Each book names the homework its wrong questions came from.
    expect(pdf.text).toContain('来源作业：第一单元测验（2026-11-02）');
    const pages = pdf.text.split('\f');
    const a1Page = pages.findIndex((p) => p.includes(`${a1} 的错题本`));
    expect(a1Page).toBeGreaterThan(0);
    expect(pages[a1Page]).not.toContain(`${a3} 的错题本`);
    expect(pdf.pages).toBe(a1Page + 1);
    if (dialect === DIALECTS[0]) snapshot(pdf.file, 'mistake-book');
  });

  it('prints the 错题本 of a whole class, every student starting a new page', async () => {
    const students = await names(c1);
    const res = await post('/teacher/analysis/mistake-book/pdf', { classId: c1, similar: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      encodeURIComponent(`错题本-${w.classesA[0]!.name}.pdf`).replace(/\(/g, '%28').replace(/\)/g, '%29'),
    );
    const pdf = readPdf(res.rawPayload, 'class-mistakes.pdf');
    expect(pdf.pages).toBeGreaterThanOrEqual(students.length);
    const starts = pdf.text
      .split('\f')
      .map((p, i) => [i, students.findIndex((s) => p.includes(`${s.name} 的错题本`))] as const)
      .filter(([, s]) => s >= 0);
    expect(starts.map(([, s]) => s)).toEqual(students.map((_, i) => i));
    expect(pdf.text).not.toContain('举一反三');
  });

  it('names the chosen homework on every 错题本, even a book without wrong questions', async () => {
    const res = await post('/teacher/analysis/mistake-book/pdf', {
      studentIds: [ids.a1],
      homeworkId: hw.id,
      similar: 0,
    });
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload, 'one-homework.pdf');
    expect(pdf.text).toContain('来源作业：第一单元测验');
    expect(pdf.text).toContain('所选范围内没有错题');
  });

  // ───────────── 错题重练 「发布为作业」 ─────────────

  const REHEARSE = '/teacher/analysis/rehearse/publish';
  interface Published {
    homeworkId: string;
    title: string;
    className: string;
    questions: { questionId: string; missedBy: number; similarOf: string | null }[];
  }
  const publishRehearsal = async (body: Record<string, unknown>) => {
    const res = await post(REHEARSE, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Published }>().data;
  };
  const detailOf = async (id: string) =>
    (await w.call('GET', `/teacher/homework/detail/${id}`, w.me)).json<{ data: HomeworkDetail }>().data;

  it('publishes the class’s most-missed questions, ranked by how many missed them, as homework of the class', async () => {
    const out = await publishRehearsal({ classId: c1, homeworkId: hw.id });
    // class 1 missed: the written question 3 times; q1–q4 and blank0 twice; blank3 once.
    expect(out.questions.map((q) => [q.questionId, q.missedBy])).toEqual([
      [Q.written, 3],
      [Q.single3, 2],
      [Q.single4, 2],
      [Q.multi5, 2],
      [Q.truefalse, 2],
      [Q.blank0, 2],
      [Q.blank3, 1],
    ]);
    expect(out.className).toBe(w.classesA[0]!.name);
    expect(out.title.startsWith(`错题重练 · ${w.classesA[0]!.name} · `)).toBe(true);
    expect(out.title).toMatch(/ · \d{4}-\d{2}-\d{2}$/);
    const detail = await detailOf(out.homeworkId);
    expect(detail.title).toBe(out.title);
    expect(detail.classes.map((c) => c.id)).toEqual([c1]);
    expect(detail.questionCount).toBe(7);
    expect(detail.card.pageCount).toBeGreaterThanOrEqual(1);
    const inPaper = detail.paper.sections.flatMap((s) => s.items.map((i) => i.questionId));
    expect(new Set(inPaper)).toEqual(new Set(out.questions.map((q) => q.questionId)));
    // It is a homework like any: its answer card prints.
    const card = await post(`/teacher/homework/card/${out.homeworkId}/pdf`, { kind: 'students' });
    expect(card.statusCode, card.body).toBe(200);
    expect(card.headers['content-type']).toBe('application/pdf');

    const top = await publishRehearsal({ classId: c1, homeworkId: hw.id, count: 3 });
    expect(top.questions.map((q) => q.questionId)).toEqual([Q.written, Q.single3, Q.single4]);
    expect((await detailOf(top.homeworkId)).questionCount).toBe(3);
  });

  it('publishes the union of picked students’ wrong questions, with similar questions when asked', async () => {
    const out = await publishRehearsal({ classId: c1, homeworkId: hw.id, studentIds: [ids.a2, ids.a3] });
    // a2 missed q2, blank0 and the written one; a3 missed q1, q3, q4 and the written one.
    expect(out.questions.map((q) => [q.questionId, q.missedBy])).toEqual([
      [Q.written, 2],
      [Q.single3, 1],
      [Q.single4, 1],
      [Q.multi5, 1],
      [Q.truefalse, 1],
      [Q.blank0, 1],
    ]);
    const withSimilar = await publishRehearsal({ classId: c1, homeworkId: hw.id, similar: true, count: 2 });
    const wrong = withSimilar.questions.filter((q) => q.similarOf === null).map((q) => q.questionId);
    expect(wrong).toEqual([Q.written, Q.single3]);
    // Each similar question follows the wrong question it is like.
    let lastWrong = '';
    for (const q of withSimilar.questions) {
      if (q.similarOf === null) {
        lastWrong = q.questionId;
        continue;
      }
      expect(q.similarOf).toBe(lastWrong);
      expect(q.missedBy).toBe(0);
      expect(wrong).not.toContain(q.questionId);
    }
    expect((await detailOf(withSimilar.homeworkId)).questionCount).toBe(withSimilar.questions.length);
  });

  it('refuses another school, students of another class, no scope and no mistakes in Chinese', async () => {
    const foreign = await post(REHEARSE, { classId: c1, homeworkId: hw.id }, 'stranger');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toBe('作业不存在或已删除');
    const foreignRange = await post(
      REHEARSE,
      { classId: c1, from: '2026-11-01', to: '2026-11-30' },
      'stranger',
    );
    expect(foreignRange.statusCode).toBe(404);
    expect(foreignRange.json<{ message: string }>().message).toBe('班级不存在或不属于您的学校');
    const otherClass = await post(REHEARSE, { classId: c1, homeworkId: hw.id, studentIds: [ids.b1] });
    expect(otherClass.statusCode).toBe(400);
    expect(otherClass.json<{ message: string }>().message).toBe('所选学生不在这个班级');
    const noScope = await post(REHEARSE, { classId: c1 });
    expect(noScope.statusCode).toBe(400);
    expect(noScope.json<{ message: string }>().message).toContain('请选择一次作业或一个时间段');
    const perfect = await post(REHEARSE, { classId: c1, homeworkId: hw.id, studentIds: [ids.a1] });
    expect(perfect.statusCode).toBe(400);
    expect(perfect.json<{ message: string }>().message).toBe('所选范围内没有错题，无需发布重练作业');
  });
});
