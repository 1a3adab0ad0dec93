import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentarySchema, GradeTrendSchema, PaperSummarySchema } from '@zhzy/contracts';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// Issue #22 point 10: the demo homework mean what their titles say. Each draws its questions from the chapter of
// 人教版 七年级上册 its title names, every question's knowledge points lie in that chapter's knowledge subtree, and the
// written answers were scanned: their crops are images, so 典型错误 shows them (ADR 0049).

/** The chapters a demo title names, and the knowledge-tree nodes those chapters teach (by name). */
function chaptersOf(title: string): { chapters: string[]; knowledge: string[] } {
  if (title.includes('期中'))
    return {
      chapters: ['第一章 有理数', '第二章 有理数的运算', '第三章 代数式', '第四章 整式的加减'],
      knowledge: ['有理数', '代数式', '整式'],
    };
  if (title.includes('有理数的运算')) return { chapters: ['第二章 有理数的运算'], knowledge: ['有理数'] };
  if (title.includes('有理数') || title.includes('第一单元'))
    return { chapters: ['第一章 有理数'], knowledge: ['有理数'] };
  if (title.includes('整式的加减')) return { chapters: ['第四章 整式的加减'], knowledge: ['整式'] };
  if (title.includes('一元一次方程'))
    return { chapters: ['第五章 一元一次方程'], knowledge: ['一元一次方程'] };
  throw new Error(`no chapter named by ${title}`);
}

describe.each(DIALECTS)('the demo homework match their titles on %s', (dialect) => {
  let t: TestApp;
  let teacher: { authorization: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { SEED_DEMO_RESULTS: 'true', SEED_DEMO_SCANS: 'true' } });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
  }, 240_000);
  afterAll(() => t?.close());

  const demoHomework = async () => {
    const db = t.testDb.db.kysely;
    return db
      .selectFrom('homework as h')
      .innerJoin('orgs as o', 'o.id', 'h.org_id')
      .select(['h.id', 'h.title'])
      .where('o.name', '=', '演示学校')
      .execute();
  };

  it('draws every question from the chapter its title names, with that chapter’s knowledge points', async () => {
    const db = t.testDb.db.kysely;
    const homework = await demoHomework();
    expect(homework.length).toBeGreaterThanOrEqual(8);
    const points = await db.selectFrom('knowledge_points').select(['id', 'parent_id', 'name']).execute();
    const byId = new Map(points.map((p) => [p.id, p]));
    const ancestors = (id: string) => {
      const names: string[] = [];
      for (let p = byId.get(id); p; p = p.parent_id ? byId.get(p.parent_id) : undefined) names.push(p.name);
      return names;
    };
    for (const hw of homework) {
      const { chapters, knowledge } = chaptersOf(hw.title);
      const snapshot = await db
        .selectFrom('homework')
        .select('paper_snapshot')
        .where('id', '=', hw.id)
        .executeTakeFirstOrThrow();
      const paper = JSON.parse(snapshot.paper_snapshot) as {
        sections: { items: { questionId: string }[] }[];
      };
      const ids = paper.sections.flatMap((s) => s.items.map((i) => i.questionId));
      expect(ids.length, hw.title).toBeGreaterThan(0);
      const placed = await db
        .selectFrom('question_booknodes as qb')
        .innerJoin('booknodes as section', 'section.id', 'qb.booknode_id')
        .innerJoin('booknodes as chapter', 'chapter.id', 'section.parent_id')
        .innerJoin('textbooks as tb', 'tb.id', 'chapter.textbook_id')
        .select(['qb.question_id', 'chapter.name as chapter', 'tb.name as book'])
        .where('qb.question_id', 'in', ids)
        .execute();
      for (const id of ids) {
        const where = placed.filter((p) => p.question_id === id);
        expect(where.length, `${hw.title}: ${id} has a section`).toBeGreaterThan(0);
        for (const p of where) {
          expect(p.book, `${hw.title}: ${id}`).toBe('七年级上册');
          expect(chapters, `${hw.title}: ${id} in ${p.chapter}`).toContain(p.chapter);
        }
      }
      const kps = await db
        .selectFrom('question_knowledge_points')
        .select(['question_id', 'knowledge_point_id'])
        .where('question_id', 'in', ids)
        .execute();
      for (const id of ids)
        expect(
          kps.some((k) => k.question_id === id),
          `${hw.title}: ${id}`,
        ).toBe(true);
      for (const k of kps) {
        const chain = ancestors(k.knowledge_point_id);
        expect(
          chain.some((n) => knowledge.includes(n)),
          `${hw.title}: ${k.question_id} under ${chain.join(' < ')}`,
        ).toBe(true);
      }
    }
  });

  it('shows a new teacher the teaching group’s shared papers in 校本资源, final and ready to copy', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/teacher/paper/school?page=1&size=20',
      headers: teacher,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: { records: unknown[]; total: number } }>().data;
    const papers = page.records.map((r) => PaperSummarySchema.parse(r));
    expect(papers.map((p) => p.title).sort()).toEqual([
      '七年级上册 期中测试卷（教研组审定）',
      '七年级上册 第一、二章 有理数 单元测试卷（教研组审定）',
    ]);
    for (const p of papers) {
      expect(p.ownerName, p.title).toBe('李主任');
      expect(p.status, p.title).toBe('final');
      expect(p.questionCount, p.title).toBeGreaterThanOrEqual(15);
      expect(p.totalScore, p.title).toBeGreaterThan(0);
    }
    const copy = await t.app.inject({
      method: 'POST',
      url: `/teacher/paper/copy/${papers[0]!.id}`,
      headers: teacher,
    });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(PaperSummarySchema.parse(copy.json<{ data: unknown }>().data).title).toBe(
      `${papers[0]!.title}（副本）`,
    );
  });

  it('serves the typical-error crops of the demo homework as images', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/teacher/analysis/homeworks?page=1&size=50&withResults=true',
      headers: teacher,
    });
    expect(list.statusCode, list.body).toBe(200);
    const records = list.json<{ data: { records: { id: string; title: string }[] } }>().data.records;
    const hw = records.find((r) => r.title === '一元一次方程 课后作业');
    expect(hw, records.map((r) => r.title).join(', ')).toBeDefined();
    for (const target of [hw!, records.find((r) => r.title === '整式的加减 课后作业')!]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/teacher/analysis/commentary/${target.id}`,
        headers: teacher,
      });
      expect(res.statusCode, res.body).toBe(200);
      const commentary = CommentarySchema.parse(res.json<{ data: unknown }>().data);
      const written = commentary.questions.filter((q) => !q.objective && q.typicalAnswers.length > 0);
      expect(written.length, target.title).toBeGreaterThan(0);
      for (const q of written) {
        for (const sample of q.typicalAnswers) {
          expect(sample.cropUrl, `${target.title} 第${q.no}题 ${sample.name}`).not.toBeNull();
          const img = await t.app.inject({ method: 'GET', url: sample.cropUrl!, headers: teacher });
          expect(img.statusCode).toBe(200);
          expect(img.headers['content-type']).toMatch(/^image\/png/);
          expect(img.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
        }
      }
    }
  });

  it('says which trend points are still being marked (阅卷中), never a collapse to 0', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/teacher/analysis/grade/trend?subjectId=subj-junior-math&limit=20',
      headers: teacher,
    });
    expect(res.statusCode, res.body).toBe(200);
    const trend = GradeTrendSchema.parse(res.json<{ data: unknown }>().data);
    const marking = trend.points.find((p) => p.title === '一元一次方程 课后作业');
    expect(marking, trend.points.map((p) => p.title).join(', ')).toBeDefined();
    expect(marking!.markingComplete).toBe(false);
    const byClass = new Map(marking!.classes.map((c) => [c.className, c]));
    expect(byClass.get('七年级(1)班')!.markingComplete).toBe(true);
    expect(byClass.get('七年级(3)班')!.markingComplete).toBe(false);
    expect(byClass.get('七年级(3)班')!.scoredCount).toBe(0);
    for (const p of trend.points.filter(
      (x) => x.title !== '一元一次方程 课后作业' && x.title.includes('课后作业'),
    ))
      expect(p.markingComplete, p.title).toBe(true);
    // The class still being marked keeps the homework in its own trend, flagged.
    const klass = await t.app.inject({
      method: 'GET',
      url: `/teacher/analysis/class?homeworkId=${marking!.homeworkId}&classId=${byClass.get('七年级(3)班')!.classId}`,
      headers: teacher,
    });
    expect(klass.statusCode, klass.body).toBe(200);
    const points = klass.json<{ data: { trend: { title: string; markingComplete: boolean }[] } }>().data
      .trend;
    expect(points.at(-1)).toMatchObject({ title: '一元一次方程 课后作业', markingComplete: false });
    expect(points.slice(0, -1).every((p) => p.markingComplete)).toBe(true);
  });

  it('gives the homework still being marked an item per scanned student in each block (3 classes × 40)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/teacher/mark/tasks', headers: teacher });
    expect(res.statusCode, res.body).toBe(200);
    const tasks = res.json<{
      data: {
        homeworkTitle: string;
        blocks: { title: string; progress: { items: number; done: number } }[];
      }[];
    }>().data;
    const task = tasks.find((x) => x.homeworkTitle === '一元一次方程 课后作业');
    expect(task, tasks.map((x) => x.homeworkTitle).join(', ')).toBeDefined();
    expect(task!.blocks.length).toBeGreaterThan(0);
    for (const b of task!.blocks) {
      expect(b.progress.items, b.title).toBe(120);
      expect(b.progress.done, b.title).toBe(80);
    }
  });
});
