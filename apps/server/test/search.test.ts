import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionSchema, page, type Question } from '@zhzy/contracts';
import { parseKeyword, questionSearchTokens, tokenize } from '../src/modules/questions/search-text.js';
import { SUBJECT_IDS, knowledgeId, questionId, typeId } from '../src/seed/catalog.js';
import { KNOWLEDGE_TREES } from '../src/seed/data/knowledge.js';
import { MATH_7_CHECKED } from '../src/seed/data/generated/math-7-checked.js';
import { QUESTION_SEEDS } from '../src/seed/data/questions.js';
import type { KnowledgeSeed, SubjectName } from '../src/seed/data/types.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };
const QuestionPage = page(QuestionSchema);

async function search(
  t: TestApp,
  who: Headers,
  subject: SubjectName,
  keyword: string,
  extra = '',
): Promise<Question[]> {
  const out: Question[] = [];
  for (let n = 1; ; n++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/page?subjectId=${SUBJECT_IDS[subject]}&keyword=${encodeURIComponent(keyword)}&size=100&page=${n}${extra}`,
      headers: who,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = QuestionPage.parse(res.json().data);
    out.push(...data.records);
    if (data.records.length < 100) return out;
  }
}

describe('Chinese segmentation for the index and the query', () => {
  it('cuts Chinese text into words with Intl.Segmenter and drops punctuation', () => {
    expect(tokenize('解一元一次方程：')).toEqual(['解', '一元', '一次', '方程']);
    expect(tokenize('凸透镜成像的规律')).toEqual(['凸透镜', '成像', '规律']);
  });

  it('normalises width, case and accents so both databases read the same tokens', () => {
    expect(tokenize('Ｘ＋１＝Ｙ')).toEqual(['x', '1', 'y']);
    expect(tokenize('There IS a Book')).toEqual(['there', 'is', 'a', 'book']);
    expect(tokenize('yùn niàng')).toEqual(['yun', 'niang']);
  });

  it('indexes what a reader sees: no tags, no entities, no LaTeX command names', () => {
    const tokens = questionSearchTokens({
      stem: '<p>比较 \\(-\\frac{2}{3}\\) 与 \\(a&lt;b\\)</p>',
      options: [{ content: '<b>甲</b>' }],
      answer: '\\(\\gt\\)',
      analysis: '<p>绝对值</p>',
      knowledgePoints: ['有理数的大小比较'],
    }).split(' ');
    expect(tokens).not.toContain('frac');
    expect(tokens).not.toContain('p');
    expect(tokens).not.toContain('lt');
    expect(tokens).toEqual(
      expect.arrayContaining(['比较', '2', '3', 'a', 'b', '甲', '绝对', '值', '有理数', '大小']),
    );
  });

  it('reads a keyword as phrases that must all occur, ignoring what cannot be searched', () => {
    expect(parseKeyword('一元一次方程 应用')).toEqual([['一元', '一次', '方程'], ['应用']]);
    expect(parseKeyword('，。！')).toBeNull();
    expect(parseKeyword('的')).toBeNull();
    expect(parseKeyword(undefined)).toBeNull();
  });
});

describe('full-text search answers the same on SQLite and PostgreSQL', () => {
  let sqlite: TestApp;
  let postgres: TestApp;
  let onSqlite: Headers;
  let onPostgres: Headers;

  beforeAll(async () => {
    [sqlite, postgres] = await Promise.all([
      startTestApp({ dialect: 'sqlite' }),
      startTestApp({ dialect: 'postgres' }),
    ]);
    onSqlite = bearer((await signIn(sqlite.app, 'demo-teacher')).access_token);
    onPostgres = bearer((await signIn(postgres.app, 'demo-teacher')).access_token);
  });
  afterAll(async () => {
    await Promise.all([sqlite.close(), postgres.close()]);
  });

  const QUERIES: [SubjectName, string][] = [
    ['数学', '方程'],
    ['数学', '一元一次方程'],
    ['数学', '解方程组'],
    ['数学', '绝对值'],
    ['数学', '相反数 倒数'],
    ['数学', '有理数的加法'],
    ['数学', '平方根'],
    ['数学', '坐标'],
    ['数学', '平行线的性质'],
    ['数学', '科学记数法'],
    ['数学', '不等式组 整数解'],
    ['数学', '螺栓'],
    ['数学', 'x'],
    ['数学', '2'],
    ['数学', 'xy'],
    ['数学', '没有这样的词语'],
    ['英语', 'There'],
    ['英语', 'desk'],
    ['英语', 'play basketball'],
    ['英语', '一般现在时'],
    ['物理', '凸透镜'],
    ['物理', '密度'],
    ['物理', '回声'],
    ['物理', '340'],
    ['语文', '朱自清'],
    ['语文', '比喻'],
    ['语文', '论语'],
  ];

  it.each(QUERIES)(
    '%s “%s”: the same questions in the same order on both databases',
    async (subject, keyword) => {
      for (const sort of ['', '&sort=newest', '&sort=mostUsed']) {
        const [a, b] = await Promise.all([
          search(sqlite, onSqlite, subject, keyword, sort),
          search(postgres, onPostgres, subject, keyword, sort),
        ]);
        expect(a.map((q) => q.id)).toEqual(b.map((q) => q.id));
      }
    },
  );

  it('finds something for nearly every query of the mix', async () => {
    const empty: string[] = [];
    for (const [subject, keyword] of QUERIES)
      if ((await search(sqlite, onSqlite, subject, keyword)).length === 0) empty.push(keyword);
    expect(empty).toEqual(['没有这样的词语']);
  });
});

function flatten(nodes: KnowledgeSeed[]): KnowledgeSeed[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

describe.each(DIALECTS)('full-text search on %s', (dialect) => {
  let t: TestApp;
  let teacher: Headers;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
  });
  afterAll(() => t.close());

  it('finds every question tagged with a knowledge point by the point’s name', async () => {
    const points = flatten(KNOWLEDGE_TREES.数学).filter((k) => !k.children);
    // Test hosts seed the bank without the checked families (SEED_CHECKED_BANK=false): every question they hold.
    const checked = new Set(MATH_7_CHECKED.map((q) => q.key));
    for (const point of points.filter((_, i) => i % 4 === 0)) {
      const tagged = QUESTION_SEEDS.filter(
        (q) => q.subject === '数学' && !checked.has(q.key) && q.knowledgeKeys.includes(point.key),
      ).map((q) => questionId(q.key));
      const found = new Set((await search(t, teacher, '数学', point.name)).map((q) => q.id));
      for (const id of tagged) expect(found.has(id), `${point.name} → ${id}`).toBe(true);
    }
  });

  it('needs every term and keeps the words of one term together', async () => {
    const both = await search(t, teacher, '数学', '螺栓 螺母');
    expect(both.length).toBeGreaterThan(0);
    for (const q of both) expect(q.stem).toMatch(/螺栓[\s\S]*螺母|螺母[\s\S]*螺栓/);
    expect(await search(t, teacher, '数学', '螺栓 凸透镜')).toEqual([]);
    // "有理数的加法" is a phrase: it must not match texts that only have 有理数 and 加法 far apart.
    for (const q of await search(t, teacher, '数学', '有理数的加法')) {
      const text = [q.stem, q.answer, q.analysis, ...q.knowledgePoints.map((k) => k.name)].join(' ');
      expect(text).toMatch(/有理数的加法/);
    }
  });

  it('combines the keyword with the other filters', async () => {
    const blanks = await search(
      t,
      teacher,
      '数学',
      '方程',
      `&typeId=${typeId('数学', '填空题')}&difficulty=2`,
    );
    expect(blanks.length).toBeGreaterThan(0);
    expect(blanks.every((q) => q.typeName === '填空题' && q.difficulty === 2)).toBe(true);
  });

  it('keeps the index in step when a question is written, edited and deleted', async () => {
    const post = await t.app.inject({
      method: 'POST',
      url: '/teacher/question/personal',
      headers: teacher,
      payload: {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '解答题'),
        difficulty: 3,
        stem: '<p>蜂巢里的六边形有几条对角线？</p>',
        answer: '<p>9 条</p>',
        knowledgePointIds: [knowledgeId('k-m-tri-polygon')],
      },
    });
    const q = QuestionSchema.parse(post.json().data);
    expect((await search(t, teacher, '数学', '蜂巢')).map((x) => x.id)).toEqual([q.id]);

    await t.app.inject({
      method: 'PUT',
      url: `/teacher/question/personal/${q.id}`,
      headers: teacher,
      payload: {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '解答题'),
        difficulty: 3,
        stem: '<p>足球表面的五边形有几条对角线？</p>',
        answer: '<p>5 条</p>',
        knowledgePointIds: [knowledgeId('k-m-tri-polygon')],
      },
    });
    expect(await search(t, teacher, '数学', '蜂巢')).toEqual([]);
    expect((await search(t, teacher, '数学', '足球 五边形')).map((x) => x.id)).toEqual([q.id]);

    await t.app.inject({ method: 'DELETE', url: `/teacher/question/personal/${q.id}`, headers: teacher });
    expect(await search(t, teacher, '数学', '足球 五边形')).toEqual([]);
    await t.app.inject({
      method: 'POST',
      url: '/teacher/question/recycle/restore',
      headers: teacher,
      payload: { ids: [q.id] },
    });
    expect((await search(t, teacher, '数学', '足球 五边形')).map((x) => x.id)).toEqual([q.id]);
    await t.app.inject({ method: 'DELETE', url: `/teacher/question/personal/${q.id}`, headers: teacher });
    await t.app.inject({
      method: 'POST',
      url: '/teacher/question/recycle/delete',
      headers: teacher,
      payload: { ids: [q.id] },
    });
    expect(await search(t, teacher, '数学', '足球 五边形')).toEqual([]);
  });

  it('follows what it filters and sorts on: owner, review, use and deletion', async () => {
    const colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
    const admin = bearer((await signIn(t.app, 'demo-admin')).access_token);
    const post = await t.app.inject({
      method: 'POST',
      url: '/teacher/question/personal',
      headers: teacher,
      payload: {
        subjectId: SUBJECT_IDS.数学,
        typeId: typeId('数学', '解答题'),
        difficulty: 2,
        stem: '<p>灯塔每隔 8 秒闪一次，一分钟闪几次？</p>',
        answer: '<p>7 次</p>',
      },
    });
    const own = QuestionSchema.parse(post.json().data);
    const ids = async (who: Headers, extra = '') =>
      (await search(t, who, '数学', '灯塔', extra)).map((x) => x.id);
    expect(await ids(teacher)).toEqual([own.id]);
    expect(await ids(colleague)).toEqual([]);

    const share = await t.app.inject({
      method: 'POST',
      url: `/teacher/question/personal/${own.id}/share`,
      headers: teacher,
    });
    expect(share.statusCode, share.body).toBe(200);
    const schoolId = share.json<{ data: { question: { id: string } } }>().data.question.id;
    expect(await ids(colleague)).toEqual([]);
    const review = await t.app.inject({
      method: 'POST',
      url: `/school/question/review/${schoolId}`,
      headers: admin,
      payload: { action: 'approve', note: '' },
    });
    expect(review.statusCode, review.body).toBe(200);
    expect(await ids(colleague, '&scope=school')).toEqual([schoolId]);
    expect(new Set(await ids(teacher))).toEqual(new Set([own.id, schoolId]));

    // Most used first, whichever way the counts go.
    const used = (id: string, n: number) =>
      t.testDb.db.kysely.updateTable('questions').set({ usage_count: n }).where('id', '=', id).execute();
    await used(schoolId, 5);
    expect(await ids(teacher, '&sort=mostUsed')).toEqual([schoolId, own.id]);
    await used(own.id, 9);
    expect(await ids(teacher, '&sort=mostUsed')).toEqual([own.id, schoolId]);

    await t.app.inject({ method: 'DELETE', url: `/teacher/question/personal/${own.id}`, headers: teacher });
    expect(await ids(teacher)).toEqual([schoolId]);
  });

  it('indexes questions written by other paths before it searches', async () => {
    const now = new Date().toISOString();
    await t.testDb.db.kysely
      .insertInto('questions')
      .values({
        id: 'imported-question',
        subject_id: SUBJECT_IDS.物理,
        type_id: typeId('物理', '单选题'),
        owner: 'system',
        org_id: null,
        owner_user_id: null,
        difficulty: 2,
        stem: '<p>潜水艇靠改变自身重力实现上浮和下沉。</p>',
        options: '[]',
        answer: 'A',
        analysis: '',
        year: 2026,
        source: '导入',
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    expect((await search(t, teacher, '物理', '潜水艇')).map((q) => q.id)).toEqual(['imported-question']);
  });
});
