import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserInfoSchema, type Basket, type Question } from '@zhzy/contracts';
import { SUBJECT_IDS, typeId } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// Two schools side by side: nothing of one may be seen or changed from the other.
describe.each(DIALECTS)('school isolation on %s', (dialect) => {
  let t: TestApp;
  let a: { authorization: string };
  let b: { authorization: string };
  let orgA: string;
  let yearA: string;
  let schoolQuestionA: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const other = await createSchool(t.testDb.db.kysely, {
      name: '第二中学',
      years: [
        {
          name: '2026-2027学年',
          isDefault: true,
          classes: [
            { name: '七年级(1)班', students: [{ name: '周一鸣', studentNo: 'B0001', gender: '男' }] },
          ],
        },
      ],
      users: [{ username: 'b-teacher', password: 'Other@2026', nickname: '赵老师' }],
    });
    a = bearer((await signIn(t.app, 'demo-teacher')).access_token);
    b = bearer((await signIn(t.app, 'b-teacher', 'Other@2026')).access_token);
    const infoA = (await t.app.inject({ method: 'GET', url: '/system/user/info', headers: a })).json().data;
    orgA = infoA.gradeInfo.orgDefaultId as string;
    const years = (
      await t.app.inject({ method: 'GET', url: `/system/class?orgId=${orgA}&type=1`, headers: a })
    ).json().data as { id: string }[];
    yearA = years[0]!.id;
    expect(other.orgId).not.toBe(orgA);

    // A question owned by school A only.
    schoolQuestionA = 'school-a-question';
    const now = new Date().toISOString();
    await t.testDb.db.kysely
      .insertInto('questions')
      .values({
        id: schoolQuestionA,
        subject_id: SUBJECT_IDS.数学,
        type_id: typeId('数学', '单选题'),
        owner: 'school',
        org_id: orgA,
        owner_user_id: null,
        difficulty: 3,
        stem: '<p>甲校校本题：\\(1+1=\\)＿＿</p>',
        options: JSON.stringify([
          { label: 'A', content: '1' },
          { label: 'B', content: '2' },
        ]),
        answer: 'B',
        analysis: '',
        year: 2026,
        source: '校本',
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
  });
  afterAll(() => t.close());

  it('refuses to list the school years or classes of another school (403)', async () => {
    const years = await t.app.inject({
      method: 'GET',
      url: `/system/class?orgId=${orgA}&type=1`,
      headers: b,
    });
    expect(years.statusCode).toBe(403);
    expect(years.json().message).toBe('很抱歉，您暂无该操作权限');
    const classes = await t.app.inject({
      method: 'GET',
      url: `/system/class?orgId=${orgA}&type=2&pid=${yearA}`,
      headers: b,
    });
    expect(classes.statusCode).toBe(403);
  });

  it('refuses to set a default school year in another school', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/system/class/updateClassDefault',
      headers: { ...b, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ orgId: orgA, classId: yearA }).toString(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('shows a school’s own questions only to that school', async () => {
    const query = `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&size=100&keyword=${encodeURIComponent('甲校校本题')}`;
    const seenByA = (await t.app.inject({ method: 'GET', url: query, headers: a })).json().data
      .records as Question[];
    const seenByB = (await t.app.inject({ method: 'GET', url: query, headers: b })).json().data
      .records as Question[];
    expect(seenByA.map((q) => q.id)).toEqual([schoolQuestionA]);
    expect(seenByB).toEqual([]);
    const add = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/addBasket',
      headers: b,
      payload: { questionIds: [schoolQuestionA] },
    });
    expect(add.statusCode).toBe(404);
  });

  it('never lets one school clear or change another school’s basket', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/addBasket',
      headers: a,
      payload: { questionIds: [schoolQuestionA] },
    });
    const basketA = (
      await t.app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: a })
    ).json().data as Basket;
    const paper = basketA.paperInfo[0]!;
    const row = basketA.type[paper.id]![0]!;
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/teacher/paper/info/${paper.id}/clearBasket`,
          headers: b,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/teacher/paper/question/type/delQuestion/${row.id}`,
          headers: b,
        })
      ).statusCode,
    ).toBe(404);
    await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/removeBasket',
      headers: b,
      payload: { questionIds: [schoolQuestionA] },
    });
    const after = (
      await t.app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: a })
    ).json().data as Basket;
    expect(after).toEqual(basketA);
    const basketB = (
      await t.app.inject({ method: 'GET', url: '/teacher/paper/info/getQuestionBasket', headers: b })
    ).json().data as Basket;
    expect(basketB.sumCount).toBe(0);
  });

  it('answers each user with their own school in user info', async () => {
    const infoB = UserInfoSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/system/user/info', headers: b })).json().data,
    );
    expect(infoB.user.orgName).toBe('第二中学');
    expect(infoB.orgs.map((o) => o.name)).toEqual(['第二中学']);
  });
});
