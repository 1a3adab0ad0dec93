import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserInfoSchema } from '@zhzy/contracts';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

describe.each(DIALECTS)('school years, classes and user info on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    for (const u of ['demo-teacher', 'demo-director', 'demo-admin'])
      tokens[u] = (await signIn(t.app, u)).access_token;
  });
  afterAll(() => t.close());

  const get = (url: string, user = 'demo-teacher') =>
    t.app.inject({ method: 'GET', url, headers: bearer(tokens[user]!) });
  const info = async (user: string) =>
    UserInfoSchema.parse((await get('/system/user/info', user)).json().data);

  it('answers the user record and grade info of each demo role', async () => {
    const teacher = await info('demo-teacher');
    expect(teacher.user).toMatchObject({ username: 'demo-teacher', nickname: '王老师', orgName: '演示学校' });
    expect(teacher.gradeInfo).toMatchObject({
      gradeDirector: false,
      isCreator: false,
      isAdministrator: false,
    });
    expect(teacher.gradeInfo.orgDefaultId).toBe(teacher.orgs[0]!.id);
    expect((await info('demo-director')).gradeInfo.gradeDirector).toBe(true);
    expect((await info('demo-admin')).gradeInfo).toMatchObject({ isCreator: true, isAdministrator: true });
  });

  it('lists the two school years with 2026-2027学年 as the default, and six classes of 40 students', async () => {
    const orgId = (await info('demo-teacher')).gradeInfo.orgDefaultId!;
    const years = (await get(`/system/class?orgId=${orgId}&type=1&pid=`)).json().data as {
      id: string;
      name: string;
      isDefault: boolean;
    }[];
    expect(years.map((y) => y.name)).toEqual(['2026-2027学年', '2025-2026学年']);
    expect(years.find((y) => y.isDefault)?.name).toBe('2026-2027学年');

    const classes = (await get(`/system/class?orgId=${orgId}&type=2&pid=${years[0]!.id}`)).json().data as {
      name: string;
    }[];
    expect(classes.map((c) => c.name)).toEqual([
      '七年级(1)班',
      '七年级(2)班',
      '七年级(3)班',
      '八年级(1)班',
      '八年级(2)班',
      '八年级(3)班',
    ]);
    const students = await t.testDb.db.kysely
      .selectFrom('students')
      .select(['name', 'student_no'])
      .where('org_id', '=', orgId)
      .execute();
    expect(students).toHaveLength(240);
    expect(new Set(students.map((s) => s.student_no)).size).toBe(240);
    expect(students.every((s) => /^[\u4e00-\u9fa5]{2,4}$/.test(s.name))).toBe(true);
  });

  it('saves the default school year per user (form-encoded PUT) without changing other teachers', async () => {
    const orgId = (await info('demo-teacher')).gradeInfo.orgDefaultId!;
    const years = (await get(`/system/class?orgId=${orgId}&type=1`)).json().data as {
      id: string;
      name: string;
    }[];
    const older = years.find((y) => y.name === '2025-2026学年')!;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/system/class/updateClassDefault',
      headers: { ...bearer(tokens['demo-teacher']!), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ orgId, classId: older.id }).toString(),
    });
    expect(res.statusCode).toBe(200);
    const mine = (await get(`/system/class?orgId=${orgId}&type=1`)).json().data as {
      name: string;
      isDefault: boolean;
    }[];
    expect(mine.find((y) => y.isDefault)?.name).toBe('2025-2026学年');
    const theirs = (await get(`/system/class?orgId=${orgId}&type=1`, 'demo-director')).json().data as {
      name: string;
      isDefault: boolean;
    }[];
    expect(theirs.find((y) => y.isDefault)?.name).toBe('2026-2027学年');
  });

  it('answers 404 for a school year that does not exist and 400 naming a missing field', async () => {
    const orgId = (await info('demo-teacher')).gradeInfo.orgDefaultId!;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/system/class/updateClassDefault',
      headers: { ...bearer(tokens['demo-teacher']!), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ orgId, classId: 'nope' }).toString(),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/学年不存在/);
    const missing = await get('/system/class?type=1');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('orgId');
  });

  it('lists stages with subjects and the 人教版 mathematics textbooks with their chapter trees', async () => {
    const stages = (await get('/system/stage/list')).json().data as {
      name: string;
      subjects: { id: string; name: string }[];
    }[];
    expect(stages.map((s) => s.name)).toEqual(['初中']);
    expect(stages[0]!.subjects.map((s) => s.name)).toEqual(['语文', '数学', '英语', '物理']);
    const math = stages[0]!.subjects.find((s) => s.name === '数学')!;
    const books = (await get(`/teacher/textbook/list?subjectId=${math.id}`)).json().data as {
      id: string;
      name: string;
      publisher: string;
    }[];
    expect(books.map((b) => b.name)).toEqual(expect.arrayContaining(['七年级上册', '七年级下册']));
    expect(books.every((b) => b.publisher === '人教版')).toBe(true);
    const tree = (await get(`/teacher/textbook/booknode?textbookId=${books[0]!.id}`)).json().data as {
      name: string;
      children: unknown[];
    }[];
    expect(tree[0]!.name).toMatch(/^第一章/);
    expect(tree[0]!.children.length).toBeGreaterThan(1);
  });
});
