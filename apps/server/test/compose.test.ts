import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmartResultSchema, type SmartResult } from '@zhzy/contracts';
import { SUBJECT_IDS, booknodeId, knowledgeId, typeId } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };

// Smart composition (intellectTestPaper) through HTTP: the optimiser's own properties are in papers-optimiser.test.ts.
describe.each(DIALECTS)('smart composition on %s', (dialect) => {
  let t: TestApp;
  let me: Headers;
  let stranger: Headers;
  let strangerClass: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const other = await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [{ name: '2026-2027学年', isDefault: true, classes: [{ name: '七年级(1)班', students: [] }] }],
      users: [{ username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' }],
    });
    strangerClass = other.classIds[0]!;
    me = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    stranger = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
  });
  afterAll(() => t.close());

  const TWENTY_FIVE = {
    subjectId: SUBJECT_IDS.数学,
    types: [
      { typeId: typeId('数学', '单选题'), count: 10, score: 3 },
      { typeId: typeId('数学', '填空题'), count: 8, score: 3 },
      { typeId: typeId('数学', '解答题'), count: 7, score: 8 },
    ],
    difficulty: 0.4,
    seed: 42,
  };
  const compose = async (headers: Headers, body: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/teacher/paper/smart', headers, payload: body });
    return res;
  };
  const result = async (headers: Headers, body: object): Promise<SmartResult> => {
    const res = await compose(headers, body);
    expect(res.statusCode, res.body).toBe(200);
    return SmartResultSchema.parse(res.json().data);
  };

  it('composes a 25-question mathematics paper with exact counts, near the target difficulty, as a draft', async () => {
    const r = await result(me, { ...TWENTY_FIVE, createPaper: true, title: '七年级数学 智能组卷' });
    expect(r.selections.map((s) => [s.typeName, s.questions.length])).toEqual([
      ['单选题', 10],
      ['填空题', 8],
      ['解答题', 7],
    ]);
    const ids = r.selections.flatMap((s) => s.questions.map((q) => q.id));
    expect(new Set(ids).size).toBe(25);
    expect(r.withinTolerance).toBe(true);
    expect(Math.abs(r.achievedDifficulty! - 0.4)).toBeLessThanOrEqual(0.05);
    expect(r.totalScore).toBe(10 * 3 + 8 * 3 + 7 * 8);
    expect(r.explanations).toEqual(expect.not.arrayContaining([expect.stringContaining('少于要求')]));
    expect(r.coverage.covered.length).toBeGreaterThan(10);
    expect(r.paper).toMatchObject({
      title: '七年级数学 智能组卷',
      source: 'smart',
      status: 'draft',
      questionCount: 25,
      totalScore: 110,
    });
    expect(r.paper!.sections.map((s) => s.heading)).toEqual([
      '一、单选题（本大题共 10 小题，每小题 3 分，共 30 分）',
      '二、填空题（本大题共 8 小题，每小题 3 分，共 24 分）',
      '三、解答题（本大题共 7 小题，每小题 8 分，共 56 分）',
    ]);
    const mine = (await t.app.inject({ method: 'GET', url: '/teacher/paper/mine', headers: me })).json()
      .data as {
      records: { id: string }[];
    };
    expect(mine.records.map((p) => p.id)).toContain(r.paper!.id);
  });

  it('gives the same paper for the same seed and another for another seed', async () => {
    const ids = (r: SmartResult) => r.selections.map((s) => s.questions.map((q) => q.id));
    const a = await result(me, TWENTY_FIVE);
    const b = await result(me, TWENTY_FIVE);
    const c = await result(me, { ...TWENTY_FIVE, seed: 43 });
    expect(ids(b)).toEqual(ids(a));
    expect(ids(c)).not.toEqual(ids(a));
    expect(a.paper).toBeNull();
  });

  it('keeps to the chosen chapters and says plainly what it could not satisfy', async () => {
    const r = await result(me, {
      subjectId: SUBJECT_IDS.数学,
      booknodeIds: [booknodeId('m7a-1')],
      types: [{ typeId: typeId('数学', '单选题'), count: 40, score: 3 }],
      // All 困难 (难度系数 0, ADR 0045; was 1 on the old low-is-easy scale): out of reach of the chapter's bank.
      difficulty: 0,
    });
    const found = r.selections[0]!.questions.length;
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(40);
    expect(r.explanations).toContain(`单选题只有 ${found} 道符合条件，少于要求的 40 道`);
    expect(r.explanations.some((e) => e.startsWith('所选范围内的试题达不到目标难度系数 0.00'))).toBe(true);
    expect(r.withinTolerance).toBe(false);
    const inChapter = await t.testDb.db.kysely
      .selectFrom('question_booknodes')
      .select('question_id')
      .where('booknode_id', 'in', [booknodeId('m7a-1'), booknodeId('m7a-1-1'), booknodeId('m7a-1-2')])
      .execute();
    const allowed = new Set(inChapter.map((r) => r.question_id));
    expect(r.selections[0]!.questions.every((q) => allowed.has(q.id))).toBe(true);
  });

  it('covers the chosen knowledge points and names those without questions', async () => {
    const r = await result(me, {
      subjectId: SUBJECT_IDS.数学,
      knowledgePointIds: [knowledgeId('k-m-rational-abs'), knowledgeId('k-m-rational-add')],
      types: [
        { typeId: typeId('数学', '单选题'), count: 2, score: 3 },
        { typeId: typeId('数学', '判断题'), count: 1, score: 2 },
      ],
      difficulty: 0.3,
    });
    for (const q of r.selections.flatMap((s) => s.questions)) {
      expect(
        q.knowledgePoints.some((k) => ['kp-k-m-rational-abs', 'kp-k-m-rational-add'].includes(k.id)),
      ).toBe(true);
    }
    expect(r.coverage.covered.map((k) => k.name).some((n) => ['绝对值', '有理数的加法'].includes(n))).toBe(
      true,
    );
  });

  it('refuses classes of another school, types of another subject and unknown chapters', async () => {
    const classes = await compose(me, { ...TWENTY_FIVE, classIds: [strangerClass] });
    expect(classes.statusCode).toBe(403);
    expect(classes.json().message).toBe('只能选择本校的班级');
    const ok = await compose(stranger, { ...TWENTY_FIVE, classIds: [strangerClass] });
    expect(ok.statusCode).toBe(200);
    const types = await compose(me, {
      ...TWENTY_FIVE,
      types: [{ typeId: typeId('物理', '单选题'), count: 1, score: 3 }],
    });
    expect(types.statusCode).toBe(400);
    expect(types.json().message).toBe('所选题型不属于该学科');
    const chapter = await compose(me, { ...TWENTY_FIVE, booknodeIds: ['bn-nope'] });
    expect(chapter.statusCode).toBe(404);
    expect(chapter.json().message).toBe('章节不存在');
    const twice = await compose(me, { ...TWENTY_FIVE, types: [TWENTY_FIVE.types[0], TWENTY_FIVE.types[0]] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('同一题型不能重复选择');
    const difficulty = await compose(me, { ...TWENTY_FIVE, difficulty: 3 });
    expect(difficulty.json().message).toContain('难度应在0到1之间');
  });
});
