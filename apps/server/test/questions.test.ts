import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkResultSchema,
  QuestionSchema,
  RecycledQuestionSchema,
  SchoolQuestionSchema,
  page,
  type Question,
  type QuestionInput,
} from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { SUBJECT_IDS, booknodeId, knowledgeId, typeId } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

type Headers = { authorization: string };
const DAY = 24 * 60 * 60 * 1000;
const SchoolPage = page(SchoolQuestionSchema);
const RecyclePage = page(RecycledQuestionSchema);

/** A personal 单选题 of 七年级上册 1.1 as a teacher writes it. */
function draft(over: Partial<QuestionInput> = {}): QuestionInput {
  return {
    subjectId: SUBJECT_IDS.数学,
    typeId: typeId('数学', '单选题'),
    difficulty: 2,
    stem: '<p>自编题：气温从 \\(-3\\)℃ 上升 5℃ 后是多少？</p>',
    options: [
      { content: '\\(2\\)℃' },
      { content: '\\(-8\\)℃' },
      { content: '\\(8\\)℃' },
      { content: '\\(-2\\)℃' },
    ],
    answer: 'A',
    analysis: '<p>\\(-3+5=2\\)</p>',
    knowledgePointIds: [knowledgeId('k-m-rational-add')],
    booknodeIds: [booknodeId('m7a-2-1')],
    year: 2026,
    source: '校本作业',
    region: '江苏',
    ...over,
  };
}

describe.each(DIALECTS)('own and school questions on %s', (dialect) => {
  let t: TestApp;
  let now = Date.parse('2026-11-02T08:00:00.000Z');
  let teacher: Headers; // demo-teacher, 演示学校
  let colleague: Headers; // demo-director, same school, not an administrator
  let admin: Headers; // demo-admin, administrator of 演示学校
  let strangerTeacher: Headers; // 第二中学
  let strangerAdmin: Headers; // administrator of 第二中学

  const signAll = async () => {
    teacher = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    colleague = bearer((await signIn(t.app, 'demo-director')).access_token);
    admin = bearer((await signIn(t.app, 'demo-admin')).access_token);
    strangerTeacher = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
    strangerAdmin = bearer((await signIn(t.app, 'b-admin', 'Other@2026')).access_token);
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect, clock: () => now });
    await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [{ name: '2026-2027学年', isDefault: true, classes: [] }],
      users: [
        { username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' },
        { username: 'b-admin', password: 'Other@2026', nickname: '钱校长', isAdministrator: true },
      ],
    });
    await signAll();
  });
  afterAll(() => t.close());

  /** Moves the clock; access tokens live 2 hours, so everyone signs in again. */
  const advance = async (ms: number) => {
    now += ms;
    await signAll();
  };

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (who: Headers, over: Partial<QuestionInput> = {}) => {
    const res = await call('POST', '/teacher/question/personal', who, draft(over));
    expect(res.statusCode, res.body).toBe(200);
    return QuestionSchema.parse(res.json().data);
  };
  const detail = (who: Headers, id: string) => call('GET', `/teacher/question/info/${id}`, who);
  const pageIds = async (who: Headers, query: string) => {
    const res = await call(
      'GET',
      `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&size=100&${query}`,
      who,
    );
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.records as Question[]).map((q) => q.id);
  };

  describe('sanitising rich content', () => {
    it.each([
      ['a script element', '<p>题干<script>alert(1)</script></p>', '<p>题干</p>'],
      ['an onerror handler', '<p>看图<img src="x" onerror="alert(1)"></p>', '<p>看图</p>'],
      ['a javascript: link', '<p><a href="javascript:alert(1)">点我</a>作答</p>', '<p>点我作答</p>'],
      ['an svg with onload', '<p>图形<svg onload="alert(1)"><circle r="5"/></svg></p>', '<p>图形</p>'],
      ['a style expression', '<p style="width: expression(alert(1))">样式</p>', '<p>样式</p>'],
      ['an iframe', '<p>框架<iframe src="https://evil.example/"></iframe></p>', '<p>框架</p>'],
      [
        'an event handler on an allowed tag',
        '<p onclick="alert(1)"><b onmouseover="x()">粗体</b></p>',
        '<p><b>粗体</b></p>',
      ],
      ['a foreign image', '<p>远程图<img src="https://evil.example/a.png"></p>', '<p>远程图</p>'],
      ['an SVG data image', '<p><img src="data:image/svg+xml;base64,PHN2Zz4="></p>', '<p></p>'],
      [
        'a formula that looks like a tag',
        '<p>比较 \\(a<b\\) 与 \\(c>d\\)</p>',
        '<p>比较 \\(a&lt;b\\) 与 \\(c&gt;d\\)</p>',
      ],
      [
        'a script hidden in a formula',
        '<p>\\(<script>alert(1)</script>\\)</p>',
        '<p>\\(&lt;script&gt;alert(1)&lt;/script&gt;\\)</p>',
      ],
    ])('makes %s inert before it is stored', async (_what, stem, stored) => {
      const q = await create(teacher, { stem: `<p>安全测试</p>${stem}` });
      expect(q.stem).toBe(`<p>安全测试</p>${stored}`);
      const again = QuestionSchema.parse((await detail(teacher, q.id)).json().data);
      expect(again.stem).toBe(q.stem);
    });

    it('keeps the allowed subset: tables, lists, sub/sup, own files and inline raster images', async () => {
      const html =
        '<p>表格<sub>1</sub><sup>2</sup><u>下划线</u><em>强调</em></p><table><tbody><tr><td colspan="2">甲</td></tr></tbody></table><ul><li>一</li></ul><img src="/files/q/ab12.png" alt="图" width="120" /><img src="data:image/png;base64,iVBORw0KGgo=" />';
      const q = await create(teacher, { stem: html });
      expect(q.stem).toBe(html);
    });

    it('sanitises options, answers and analyses as well', async () => {
      const q = await create(teacher, {
        typeId: typeId('数学', '解答题'),
        options: [],
        answer: '<p onclick="x()">答案<script>1</script></p>',
        analysis: '<p>解析<img src=x onerror=alert(1)></p>',
      });
      expect(q.answer).toBe('<p>答案</p>');
      expect(q.analysis).toBe('<p>解析</p>');
      const choice = await create(teacher, {
        options: [{ content: '<b onclick="x()">甲</b>' }, { content: '乙<script>1</script>' }],
      });
      expect(choice.options).toEqual([
        { label: 'A', content: '<b>甲</b>' },
        { label: 'B', content: '乙' },
      ]);
    });

    it('refuses a stem that is empty once sanitised', async () => {
      const res = await call(
        'POST',
        '/teacher/question/personal',
        teacher,
        draft({ stem: '<script>alert(1)</script>' }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('题干不能为空');
    });
  });

  describe('own questions', () => {
    it('creates a personal question with everything a teacher gives it', async () => {
      const q = await create(teacher);
      expect(q).toMatchObject({
        owner: 'personal',
        typeName: '单选题',
        difficulty: 2,
        year: 2026,
        source: '校本作业',
        region: '江苏',
        usageCount: 0,
        blankCount: null,
        originId: null,
        knowledgePoints: [{ id: knowledgeId('k-m-rational-add'), name: '有理数的加法' }],
        chapters: [{ id: booknodeId('m7a-2-1'), name: '2.1 有理数的加法与减法' }],
        options: [
          { label: 'A', content: '\\(2\\)℃' },
          { label: 'B', content: '\\(-8\\)℃' },
          { label: 'C', content: '\\(8\\)℃' },
          { label: 'D', content: '\\(-2\\)℃' },
        ],
      });
      expect(await pageIds(teacher, 'scope=mine')).toContain(q.id);
    });

    it('counts the blanks of a 填空题 from its stem unless given', async () => {
      const counted = await create(teacher, {
        typeId: typeId('数学', '填空题'),
        options: [],
        stem: '<p>\\(-2\\) 的相反数是＿＿＿＿，绝对值是＿＿＿＿，倒数是＿＿＿＿。</p>',
        answer: '2；2；\\(-\\frac{1}{2}\\)',
      });
      expect(counted.blankCount).toBe(3);
      const given = await create(teacher, {
        typeId: typeId('数学', '填空题'),
        options: [],
        blankCount: 2,
        answer: '1；2',
      });
      expect(given.blankCount).toBe(2);
    });

    it('checks answers against the type: option letters, one for 单选题, 正确/错误 for 判断题', async () => {
      const bad = async (over: Partial<QuestionInput>, message: string) => {
        const res = await call('POST', '/teacher/question/personal', teacher, draft(over));
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(message);
      };
      await bad({ answer: 'E' }, '答案应为选项字母（A–D）');
      await bad({ answer: 'AB' }, '单选题只能有一个正确答案');
      await bad({ options: [{ content: '只有一个' }] }, '选择题至少需要两个选项');
      await bad({ typeId: typeId('数学', '多选题'), answer: 'B' }, '多选题至少需要两个正确答案');
      await bad(
        { typeId: typeId('数学', '判断题'), options: [], answer: '也许' },
        '判断题的答案应为“正确”或“错误”',
      );
      await bad({ typeId: typeId('物理', '单选题') }, '题型不属于该学科');
      await bad({ knowledgePointIds: [knowledgeId('k-p-sound-use')] }, '知识点不属于该学科');
      await bad({ booknodeIds: [booknodeId('p8a-1-1')] }, '章节不属于该学科的教材');
      const multi = await create(teacher, { typeId: typeId('数学', '多选题'), answer: 'c, a' });
      expect(multi.answer).toBe('AC');
      const judge = await create(teacher, { typeId: typeId('数学', '判断题'), options: [], answer: '对' });
      expect(judge.answer).toBe('正确');
    });

    it('refuses a body the contract does not allow, naming the field', async () => {
      const res = await call('POST', '/teacher/question/personal', teacher, { ...draft(), difficulty: 9 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/difficulty/);
      const region = await call('POST', '/teacher/question/personal', teacher, {
        ...draft(),
        region: '火星',
      });
      expect(region.statusCode).toBe(400);
      expect(region.json().message).toMatch(/region/);
    });

    it('edits the own question in place', async () => {
      const q = await create(teacher);
      const res = await call(
        'PUT',
        `/teacher/question/personal/${q.id}`,
        teacher,
        draft({ difficulty: 4, stem: '<p>改过的题干</p>' }),
      );
      expect(res.statusCode).toBe(200);
      const edited = QuestionSchema.parse(res.json().data);
      expect(edited).toMatchObject({ id: q.id, difficulty: 4, stem: '<p>改过的题干</p>', originId: null });
      expect(edited.updatedAt >= q.updatedAt).toBe(true);
    });

    it('answers a personal copy when a system question is edited, leaving the original as it was', async () => {
      const original = QuestionSchema.parse((await detail(teacher, 'q-m7a-1-1-01')).json().data);
      const res = await call(
        'PUT',
        '/teacher/question/personal/q-m7a-1-1-01',
        teacher,
        draft({ stem: '<p>我的改编</p>' }),
      );
      expect(res.statusCode).toBe(200);
      const copy = QuestionSchema.parse(res.json().data);
      expect(copy.id).not.toBe('q-m7a-1-1-01');
      expect(copy).toMatchObject({ owner: 'personal', originId: 'q-m7a-1-1-01', stem: '<p>我的改编</p>' });
      expect(QuestionSchema.parse((await detail(teacher, 'q-m7a-1-1-01')).json().data)).toEqual(original);
      // The copy is the editor's alone.
      expect((await detail(colleague, copy.id)).statusCode).toBe(404);
    });

    it('shows a personal question to its owner only: colleagues and other schools get 404', async () => {
      const q = await create(teacher);
      for (const who of [colleague, strangerTeacher, strangerAdmin, admin]) {
        expect((await detail(who, q.id)).statusCode).toBe(404);
        expect((await call('PUT', `/teacher/question/personal/${q.id}`, who, draft())).statusCode).toBe(404);
        expect((await call('DELETE', `/teacher/question/personal/${q.id}`, who)).statusCode).toBe(404);
        expect((await call('POST', `/teacher/question/personal/${q.id}/share`, who)).statusCode).toBe(404);
        expect(await pageIds(who, 'scope=mine')).not.toContain(q.id);
        expect(await pageIds(who, '')).not.toContain(q.id);
      }
    });

    it('refuses to delete or share a system question (403)', async () => {
      const del = await call('DELETE', '/teacher/question/personal/q-m7a-1-1-01', teacher);
      expect(del.statusCode).toBe(403);
      expect(del.json().message).toBe('只能修改或删除自己的试题');
      expect((await call('POST', '/teacher/question/personal/q-m7a-1-1-01/share', teacher)).statusCode).toBe(
        403,
      );
    });
  });

  describe('sharing to the school and review', () => {
    let shared: Question;
    let pendingId: string;

    beforeAll(async () => {
      shared = await create(teacher, { stem: '<p>共享候选：\\(1+2=\\)？</p>' });
      const res = await call('POST', `/teacher/question/personal/${shared.id}/share`, teacher);
      expect(res.statusCode, res.body).toBe(200);
      const record = SchoolQuestionSchema.parse(res.json().data);
      expect(record).toMatchObject({
        reviewStatus: 'pending',
        sharedBy: { nickname: '王老师' },
        reviewedBy: null,
        question: { owner: 'school', originId: shared.id, stem: shared.stem },
      });
      pendingId = record.question.id;
    });

    it('does not offer a pending question in the bank, not even to its school', async () => {
      for (const who of [teacher, colleague, admin])
        expect(await pageIds(who, 'scope=school')).not.toContain(pendingId);
    });

    it('refuses to share the same question again while it waits (409)', async () => {
      const again = await call('POST', `/teacher/question/personal/${shared.id}/share`, teacher);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('该试题已提交学校审核，请等待管理员处理');
    });

    it('lists the teacher’s own shares with their state', async () => {
      const res = await call('GET', '/teacher/question/shares?status=pending', teacher);
      const data = SchoolPage.parse(res.json().data);
      expect(data.records.map((r) => r.question.id)).toContain(pendingId);
      const colleagues = SchoolPage.parse(
        (await call('GET', '/teacher/question/shares', colleague)).json().data,
      );
      expect(colleagues.records.map((r) => r.question.id)).not.toContain(pendingId);
    });

    it('lets only administrators list what waits for review (403 for teachers)', async () => {
      for (const who of [teacher, colleague]) {
        const res = await call('GET', '/school/question/page?status=pending', who);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('只有学校管理员可以审核校本试题');
      }
      const list = SchoolPage.parse(
        (await call('GET', '/school/question/page?status=pending', admin)).json().data,
      );
      expect(list.records.map((r) => r.question.id)).toContain(pendingId);
      const other = SchoolPage.parse(
        (await call('GET', '/school/question/page?status=pending', strangerAdmin)).json().data,
      );
      expect(other.records.map((r) => r.question.id)).not.toContain(pendingId);
    });

    it('lets only the school’s administrators review: 403 for teachers, 404 for another school', async () => {
      expect(
        (await call('POST', `/school/question/review/${pendingId}`, teacher, { action: 'approve' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call('POST', `/school/question/review/${pendingId}`, colleague, { action: 'approve' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call('POST', `/school/question/review/${pendingId}`, strangerAdmin, { action: 'approve' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await call('POST', `/school/question/review/${pendingId}`, strangerTeacher, { action: 'approve' }))
          .statusCode,
      ).toBe(403);
    });

    it('puts an approved question in the school’s bank for every colleague, never for another school', async () => {
      const res = await call('POST', `/school/question/review/${pendingId}`, admin, {
        action: 'approve',
        note: '很好',
      });
      expect(res.statusCode).toBe(200);
      expect(SchoolQuestionSchema.parse(res.json().data)).toMatchObject({
        reviewStatus: 'approved',
        reviewedBy: { nickname: '张校长' },
        reviewNote: '很好',
      });
      expect(await pageIds(colleague, 'scope=school')).toContain(pendingId);
      expect(await pageIds(colleague, '')).toContain(pendingId);
      expect(await pageIds(strangerTeacher, '')).not.toContain(pendingId);
      expect((await detail(strangerTeacher, pendingId)).statusCode).toBe(404);
      const schoolBank = SchoolPage.parse(
        (await call('GET', '/school/question/page', colleague)).json().data,
      );
      expect(schoolBank.records.map((r) => r.question.id)).toContain(pendingId);
      const otherBank = SchoolPage.parse(
        (await call('GET', '/school/question/page', strangerTeacher)).json().data,
      );
      expect(otherBank.records.map((r) => r.question.id)).not.toContain(pendingId);
      // A colleague can put it in their basket; another school cannot.
      const add = (who: Headers) =>
        call('POST', '/teacher/paper/info/addBasket', who, { questionIds: [pendingId] });
      expect((await add(colleague)).statusCode).toBe(200);
      expect((await add(strangerTeacher)).statusCode).toBe(404);
    });

    it('refuses to review a question twice (409)', async () => {
      const res = await call('POST', `/school/question/review/${pendingId}`, admin, { action: 'reject' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('该试题已审核，无需重复操作');
    });

    it('keeps a turned-down question out of the bank and tells the teacher why', async () => {
      const q = await create(teacher, { stem: '<p>不合格的共享题</p>' });
      const share = SchoolQuestionSchema.parse(
        (await call('POST', `/teacher/question/personal/${q.id}/share`, teacher)).json().data,
      );
      const res = await call('POST', `/school/question/review/${share.question.id}`, admin, {
        action: 'reject',
        note: '答案有误',
      });
      expect(SchoolQuestionSchema.parse(res.json().data).reviewStatus).toBe('rejected');
      expect(await pageIds(colleague, 'scope=school')).not.toContain(share.question.id);
      const mine = SchoolPage.parse(
        (await call('GET', '/teacher/question/shares?status=rejected', teacher)).json().data,
      );
      expect(mine.records.find((r) => r.question.id === share.question.id)?.reviewNote).toBe('答案有误');
      const rejected = SchoolPage.parse(
        (await call('GET', '/school/question/page?status=rejected', admin)).json().data,
      );
      expect(rejected.records.map((r) => r.question.id)).toContain(share.question.id);
    });

    it('lets an editing colleague copy a school question into their own, leaving the school’s as it is', async () => {
      const res = await call(
        'PUT',
        `/teacher/question/personal/${pendingId}`,
        colleague,
        draft({ stem: '<p>同事的改编</p>' }),
      );
      expect(res.statusCode).toBe(200);
      const copy = QuestionSchema.parse(res.json().data);
      expect(copy).toMatchObject({ owner: 'personal', originId: pendingId });
      const school = QuestionSchema.parse((await detail(colleague, pendingId)).json().data);
      expect(school.stem).toBe(shared.stem);
    });

    it('lets administrators withdraw a school question (403 for teachers, 404 for another school)', async () => {
      expect((await call('DELETE', `/school/question/${pendingId}`, colleague)).statusCode).toBe(403);
      expect((await call('DELETE', `/school/question/${pendingId}`, strangerAdmin)).statusCode).toBe(404);
      expect((await call('DELETE', `/school/question/${pendingId}`, admin)).statusCode).toBe(200);
      expect(await pageIds(colleague, 'scope=school')).not.toContain(pendingId);
      expect((await call('DELETE', `/school/question/${pendingId}`, admin)).statusCode).toBe(404);
    });
  });

  describe('the recycle bin', () => {
    const bin = async (who: Headers) =>
      RecyclePage.parse((await call('GET', '/teacher/question/recycle?size=100', who)).json().data);

    it('moves a deleted question to its owner’s recycle bin and out of the bank', async () => {
      const q = await create(teacher, { stem: '<p>要删除的题</p>' });
      expect((await call('DELETE', `/teacher/question/personal/${q.id}`, teacher)).statusCode).toBe(200);
      expect(await pageIds(teacher, 'scope=mine')).not.toContain(q.id);
      expect((await detail(teacher, q.id)).statusCode).toBe(404);
      const mine = await bin(teacher);
      const entry = mine.records.find((r) => r.question.id === q.id)!;
      expect(entry.deletedAt).toBe(new Date(now).toISOString());
      expect(entry.purgeAt).toBe(new Date(now + 30 * DAY).toISOString());
      for (const who of [colleague, strangerTeacher])
        expect((await bin(who)).records.map((r) => r.question.id)).not.toContain(q.id);
    });

    it('restores from the recycle bin, answering per item', async () => {
      const q = await create(teacher, { stem: '<p>要还原的题</p>' });
      await call('DELETE', `/teacher/question/personal/${q.id}`, teacher);
      const res = await call('POST', '/teacher/question/recycle/restore', teacher, {
        ids: [q.id, 'q-m7a-1-1-01', 'no-such-id'],
      });
      expect(BulkResultSchema.parse(res.json().data).results).toEqual([
        { id: q.id, ok: true, message: null },
        { id: 'q-m7a-1-1-01', ok: false, message: '试题不在回收站中' },
        { id: 'no-such-id', ok: false, message: '试题不在回收站中' },
      ]);
      expect(await pageIds(teacher, 'scope=mine')).toContain(q.id);
    });

    it('never lets another teacher restore or delete what is in my recycle bin', async () => {
      const q = await create(teacher, { stem: '<p>别人的回收站</p>' });
      await call('DELETE', `/teacher/question/personal/${q.id}`, teacher);
      for (const who of [colleague, strangerTeacher]) {
        for (const path of ['/teacher/question/recycle/restore', '/teacher/question/recycle/delete']) {
          const res = await call('POST', path, who, { ids: [q.id] });
          expect(BulkResultSchema.parse(res.json().data).results[0]).toMatchObject({ ok: false });
        }
      }
      expect((await bin(teacher)).records.map((r) => r.question.id)).toContain(q.id);
    });

    it('deletes for ever from the recycle bin', async () => {
      const q = await create(teacher, { stem: '<p>彻底删除</p>' });
      await call('DELETE', `/teacher/question/personal/${q.id}`, teacher);
      const res = await call('POST', '/teacher/question/recycle/delete', teacher, { ids: [q.id] });
      expect(BulkResultSchema.parse(res.json().data).results).toEqual([
        { id: q.id, ok: true, message: null },
      ]);
      expect((await bin(teacher)).records.map((r) => r.question.id)).not.toContain(q.id);
      const row = await t.testDb.db.kysely
        .selectFrom('questions')
        .select('id')
        .where('id', '=', q.id)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('purges after 30 days: still restorable on day 29, gone on day 31, also at the next boot', async () => {
      const kept = await create(teacher, { stem: '<p>29 天内还原</p>' });
      const purged = await create(teacher, { stem: '<p>31 天后清除</p>' });
      // In a basket too: purging must not trip over it.
      await call('POST', '/teacher/paper/info/addBasket', teacher, { questionIds: [purged.id] });
      for (const q of [kept, purged]) await call('DELETE', `/teacher/question/personal/${q.id}`, teacher);

      await advance(29 * DAY);
      expect((await bin(teacher)).records.map((r) => r.question.id)).toEqual(
        expect.arrayContaining([kept.id, purged.id]),
      );
      const restored = await call('POST', '/teacher/question/recycle/restore', teacher, { ids: [kept.id] });
      expect(BulkResultSchema.parse(restored.json().data).results[0]!.ok).toBe(true);

      await advance(2 * DAY);
      // Past 30 days it is no longer offered, even before the purge has run.
      expect((await bin(teacher)).records.map((r) => r.question.id)).not.toContain(purged.id);
      const late = await call('POST', '/teacher/question/recycle/restore', teacher, { ids: [purged.id] });
      expect(BulkResultSchema.parse(late.json().data).results[0]).toEqual({
        id: purged.id,
        ok: false,
        message: '试题不在回收站中',
      });

      const row = () =>
        t.testDb.db.kysely
          .selectFrom('questions')
          .select('id')
          .where('id', '=', purged.id)
          .executeTakeFirst();
      expect(await row()).toBeDefined();
      // A host booted now (the purge runs at boot and daily) deletes it for ever.
      const second = await buildApp({ config: t.config, db: t.testDb.db, clock: () => now });
      await second.ready();
      await second.close();
      expect(await row()).toBeUndefined();
      expect(await pageIds(teacher, 'scope=mine')).toContain(kept.id);
    });
  });

  describe('two schools', () => {
    it('answers every question call of one school’s items from another school with 404 or 403, and lists nothing of it', async () => {
      const q = await create(teacher, { stem: '<p>甲校老师的题</p>' });
      const share = SchoolQuestionSchema.parse(
        (await call('POST', `/teacher/question/personal/${q.id}/share`, teacher)).json().data,
      );
      const schoolId = share.question.id;
      await call('POST', `/school/question/review/${schoolId}`, admin, { action: 'approve' });
      const deleted = await create(teacher, { stem: '<p>甲校回收站的题</p>' });
      await call('DELETE', `/teacher/question/personal/${deleted.id}`, teacher);

      for (const who of [strangerTeacher, strangerAdmin]) {
        for (const id of [q.id, schoolId, deleted.id]) {
          expect((await detail(who, id)).statusCode).toBe(404);
          expect((await call('GET', `/teacher/question/similar/${id}`, who)).statusCode).toBe(404);
          expect((await call('PUT', `/teacher/question/personal/${id}`, who, draft())).statusCode).toBe(404);
          expect((await call('DELETE', `/teacher/question/personal/${id}`, who)).statusCode).toBe(404);
          expect((await call('POST', `/teacher/question/personal/${id}/share`, who)).statusCode).toBe(404);
          expect([403, 404]).toContain(
            (await call('POST', `/school/question/review/${id}`, who, { action: 'approve' })).statusCode,
          );
          expect([403, 404]).toContain((await call('DELETE', `/school/question/${id}`, who)).statusCode);
        }
        const all = [q.id, schoolId, deleted.id];
        for (const scope of ['all', 'system', 'school', 'mine']) {
          const ids = await pageIds(who, `scope=${scope}&keyword=${encodeURIComponent('甲校')}`);
          expect(ids.filter((id) => all.includes(id))).toEqual([]);
        }
        for (const path of [
          '/school/question/page',
          '/teacher/question/shares',
          '/teacher/question/recycle',
        ]) {
          const res = await call('GET', `${path}?size=100`, who);
          const ids = (res.json().data.records as { question: { id: string } }[]).map((r) => r.question.id);
          expect(
            ids.filter((id) => all.includes(id)),
            path,
          ).toEqual([]);
        }
        for (const path of ['/teacher/question/recycle/restore', '/teacher/question/recycle/delete']) {
          const res = await call('POST', path, who, { ids: all });
          expect(BulkResultSchema.parse(res.json().data).results.every((r) => !r.ok)).toBe(true);
        }
      }
      // Nothing above changed school A's items.
      expect((await detail(teacher, q.id)).statusCode).toBe(200);
      expect(await pageIds(colleague, 'scope=school')).toContain(schoolId);
      expect((await bin(teacher)).records.map((r) => r.question.id)).toContain(deleted.id);
    });

    const bin = async (who: Headers) =>
      RecyclePage.parse((await call('GET', '/teacher/question/recycle?size=100', who)).json().data);
  });
});
