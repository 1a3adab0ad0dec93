import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasketSchema, MESSAGES, type Basket, type Question } from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

describe.each(DIALECTS)('question basket on %s', (dialect) => {
  let t: TestApp;
  let auth: { authorization: string };
  let math: Question[];
  let physics: Question[];

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    auth = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    const all = async (subjectId: string) => {
      const out: Question[] = [];
      for (let page = 1; ; page++) {
        const data = (
          await t.app.inject({
            method: 'GET',
            url: `/teacher/question/page?subjectId=${subjectId}&size=100&page=${page}`,
            headers: auth,
          })
        ).json().data as { records: Question[]; total: number };
        out.push(...data.records);
        if (out.length >= data.total || data.records.length === 0) return out;
      }
    };
    math = await all(SUBJECT_IDS.数学);
    physics = await all(SUBJECT_IDS.物理);
  });
  afterAll(() => t.close());

  const getBasket = async (): Promise<Basket> =>
    BasketSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: auth })
      ).json().data,
    );
  const add = (questionIds: string[]) =>
    t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/addBasket',
      headers: auth,
      payload: { questionIds },
    });

  it('offers at least 50 questions to put in the basket', () => {
    expect(math.length + physics.length).toBeGreaterThanOrEqual(50);
  });

  it('starts empty for a new teacher', async () => {
    expect(await getBasket()).toEqual({ sumCount: 0, paperInfo: [], type: {}, questionIds: [] });
  });

  it('adds questions to one paper per stage and subject, grouped by question type', async () => {
    const single = math.filter((q) => q.typeName === '单选题').slice(0, 3);
    const blanks = math.filter((q) => q.typeName === '填空题').slice(0, 2);
    const res = await add([...single, ...blanks, physics[0]!].map((q) => q.id));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(MESSAGES.addSuccess);

    const basket = await getBasket();
    expect(basket.sumCount).toBe(6);
    expect(basket.paperInfo.map((p) => `${p.stageName} - ${p.subjectName}`).sort()).toEqual([
      '初中 - 数学',
      '初中 - 物理',
    ]);
    const mathPaper = basket.paperInfo.find((p) => p.subjectName === '数学')!;
    expect(mathPaper.questionCount).toBe(5);
    expect(basket.type[mathPaper.id]!.map((r) => [r.dataName, r.questionCount])).toEqual([
      ['单选题', 3],
      ['填空题', 2],
    ]);
    expect(basket.questionIds).toEqual(expect.arrayContaining(single.map((q) => q.id)));
  });

  it('does not add the same question twice', async () => {
    const before = await getBasket();
    await add([before.questionIds[0]!]);
    expect((await getBasket()).sumCount).toBe(before.sumCount);
  });

  it('refuses unknown questions with a Chinese 404 and changes nothing', async () => {
    const before = await getBasket();
    const res = await add(['no-such-question']);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('试题不存在或已删除');
    expect(await getBasket()).toEqual(before);
  });

  it('refuses an empty list naming the field', async () => {
    const res = await add([]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('questionIds');
  });

  it('deletes a type row and answers the updated basket in data', async () => {
    const before = await getBasket();
    const mathPaper = before.paperInfo.find((p) => p.subjectName === '数学')!;
    const row = before.type[mathPaper.id]!.find((r) => r.dataName === '填空题')!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/teacher/paper/question/type/delQuestion/${row.id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    const after = BasketSchema.parse(res.json().data);
    expect(after.sumCount).toBe(before.sumCount - 2);
    expect(after.type[mathPaper.id]!.map((r) => r.dataName)).toEqual(['单选题']);
  });

  it('clears one paper and answers the updated basket in message', async () => {
    const before = await getBasket();
    const physicsPaper = before.paperInfo.find((p) => p.subjectName === '物理')!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/teacher/paper/info/${physicsPaper.id}/clearBasket`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toBeNull();
    const after = BasketSchema.parse(body.message);
    expect(after.paperInfo.map((p) => p.subjectName)).toEqual(['数学']);
    expect(after.sumCount).toBe(before.sumCount - 1);
  });

  it('removes single questions and drops a paper once it is empty', async () => {
    const before = await getBasket();
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/removeBasket',
      headers: auth,
      payload: { questionIds: before.questionIds },
    });
    expect(BasketSchema.parse(res.json().data)).toEqual({
      sumCount: 0,
      paperInfo: [],
      type: {},
      questionIds: [],
    });
  });

  it('keeps each teacher’s basket to themselves', async () => {
    await add([math[0]!.id]);
    const other = bearer((await signIn(t.app, 'demo-director')).access_token);
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: other })
    ).json().data as Basket;
    expect(theirs.sumCount).toBe(0);
    const mine = await getBasket();
    const row = mine.type[mine.paperInfo[0]!.id]![0]!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/teacher/paper/question/type/delQuestion/${row.id}`,
      headers: other,
    });
    expect(res.statusCode).toBe(404);
    expect((await getBasket()).sumCount).toBe(1);
  });

  it('never serves a stale basket from another instance’s memory (two hosts on one database)', async () => {
    const other = await buildApp({ config: t.config, db: t.testDb.db });
    try {
      const read = async (app: typeof t.app) =>
        BasketSchema.parse(
          (
            await app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: auth })
          ).json().data,
        );
      const before = await read(other);
      await read(t.app);
      const extra = math.find((q) => !before.questionIds.includes(q.id))!;
      await t.app.inject({
        method: 'POST',
        url: '/teacher/paper/info/addBasket',
        headers: auth,
        payload: { questionIds: [extra.id] },
      });
      expect((await read(other)).questionIds).toContain(extra.id);
      await other.inject({
        method: 'POST',
        url: '/teacher/paper/info/removeBasket',
        headers: auth,
        payload: { questionIds: [extra.id] },
      });
      expect((await read(t.app)).questionIds).not.toContain(extra.id);
      expect(await read(t.app)).toEqual(before);
    } finally {
      await other.close();
    }
  });

  it('filters questions by type, difficulty and chapter (a chapter includes its sections)', async () => {
    const types = (
      await t.app.inject({
        method: 'GET',
        url: `/teacher/question/types?subjectId=${SUBJECT_IDS.数学}`,
        headers: auth,
      })
    ).json().data as { id: string; name: string; objective: boolean }[];
    expect(types.map((x) => x.name)).toEqual(['单选题', '多选题', '判断题', '填空题', '解答题']);
    const single = types.find((x) => x.name === '单选题')!;
    expect(single.objective).toBe(true);
    const page = (
      await t.app.inject({
        method: 'GET',
        url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&typeId=${single.id}&size=100`,
        headers: auth,
      })
    ).json().data as { records: Question[]; total: number };
    expect(page.total).toBeGreaterThan(0);
    expect(page.records.every((q) => q.typeName === '单选题' && q.options.length >= 4)).toBe(true);

    const books = (
      await t.app.inject({
        method: 'GET',
        url: `/teacher/textbook/list?subjectId=${SUBJECT_IDS.数学}`,
        headers: auth,
      })
    ).json().data as { id: string }[];
    const tree = (
      await t.app.inject({
        method: 'GET',
        url: `/teacher/textbook/booknode?textbookId=${books[0]!.id}`,
        headers: auth,
      })
    ).json().data as {
      id: string;
    }[];
    const chapter = (
      await t.app.inject({
        method: 'GET',
        url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&booknodeId=${tree[0]!.id}`,
        headers: auth,
      })
    ).json().data as { total: number };
    expect(chapter.total).toBeGreaterThan(0);
    const hard = await t.app.inject({
      method: 'GET',
      url: `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&difficulty=9`,
      headers: auth,
    });
    expect(hard.statusCode).toBe(400);
    expect(hard.json().message).toContain('difficulty');
  });
});
