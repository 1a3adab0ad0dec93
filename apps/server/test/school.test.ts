import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCHOOL_MESSAGES,
  type AuditEntry,
  type ClassInfo,
  type GraduatedYearSchema,
  type OfferedSubjects,
  type SchoolDetail,
  type SchoolYearInfo,
  type UserInfo,
} from '@zhzy/contracts';
import type { z } from 'zod';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import {
  FORBIDDEN,
  as,
  call,
  dataOf,
  demoSchool,
  fileForm,
  type DemoSchool,
  type Headers,
} from './school-fixtures.js';

describe.each(DIALECTS)('school, years, classes, subjects and grade directors on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-school-files-'));

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { DATA_DIR: dataDir } });
    demo = await demoSchool(t);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const userInfo = async (h: Headers) => dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', h));

  it('answers the detail with roles from the host’s records, ignoring the route’s isCreator / isAdministrator', async () => {
    const url = `/school/team/details?orgId=${demo.orgId}&isCreator=true&isAdministrator=true`;
    const asTeacher = dataOf<SchoolDetail>(await call(t, 'GET', url, demo.teacher));
    expect(asTeacher).toMatchObject({
      id: demo.orgId,
      name: '演示学校',
      me: { isCreator: false, isAdministrator: false, canManage: false, isDefault: true },
      creator: { nickname: '张校长' },
      defaultYear: { id: demo.yearId, name: '2026-2027学年' },
    });
    expect(asTeacher.counts).toMatchObject({ members: 3, classes: 6, students: 240, groups: 2 });
    const asAdmin = dataOf<SchoolDetail>(await call(t, 'GET', '/school/team/details', demo.admin));
    expect(asAdmin.me).toMatchObject({ isCreator: true, isAdministrator: true, canManage: true });
    const asDirector = dataOf<SchoolDetail>(await call(t, 'GET', '/school/team/details', demo.director));
    expect(asDirector.me).toMatchObject({ isGradeDirector: true, grades: ['七年级'] });
  });

  it('lets an administrator edit the school; a teacher gets 403 很抱歉，您暂无该操作权限', async () => {
    const refused = await call(t, 'PUT', '/school/org', demo.teacher, { name: '改名学校' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(FORBIDDEN);
    const updated = dataOf<SchoolDetail>(
      await call(t, 'PUT', '/school/org', demo.admin, { region: '江苏', address: '南京市鼓楼区', intro: '' }),
    );
    expect(updated).toMatchObject({ name: '演示学校', region: '江苏', address: '南京市鼓楼区', intro: null });
    const bad = await call(t, 'PUT', '/school/org', demo.admin, { name: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('请输入学校名称');
  });

  it('keeps the school’s time zone: Asia/Shanghai until an administrator sets another, a bad name refused', async () => {
    const before = dataOf<SchoolDetail>(await call(t, 'GET', '/school/team/details', demo.teacher));
    expect(before.timeZone).toBe('Asia/Shanghai');
    const refused = await call(t, 'PUT', '/school/org', demo.teacher, { timeZone: 'Asia/Urumqi' });
    expect(refused.status).toBe(403);
    const bad = await call(t, 'PUT', '/school/org', demo.admin, { timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('请选择有效的时区');
    const set = dataOf<SchoolDetail>(
      await call(t, 'PUT', '/school/org', demo.admin, { timeZone: 'Asia/Urumqi' }),
    );
    expect(set.timeZone).toBe('Asia/Urumqi');
    const after = dataOf<SchoolDetail>(await call(t, 'GET', '/school/team/details', demo.teacher));
    expect(after.timeZone).toBe('Asia/Urumqi');
    const back = dataOf<SchoolDetail>(
      await call(t, 'PUT', '/school/org', demo.admin, { timeZone: 'Asia/Shanghai' }),
    );
    expect(back.timeZone).toBe('Asia/Shanghai');
  });

  it('stores a logo validated by content and shows it in user info (orgLogo, logoPath) and at its URL', async () => {
    const png = await sharp({
      create: { width: 800, height: 400, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const refused = await call(t, 'POST', '/school/org/logo', demo.teacher, fileForm(png, 'logo.png'));
    expect(refused.status).toBe(403);
    const stored = dataOf<{ logoUrl: string; logoPath: string }>(
      await call(t, 'POST', '/school/org/logo', demo.admin, fileForm(png, 'logo.jpg')),
    );
    expect(stored.logoPath).toMatch(/^logos\/[0-9a-f-]{36}\.webp$/);
    expect(stored.logoUrl).toBe(`/files/${stored.logoPath}`);
    const info = await userInfo(demo.teacher);
    expect(info.user.orgLogo).toBe(stored.logoUrl);
    expect(info.user.logoPath).toBe(stored.logoPath);
    const file = await t.app.inject({ method: 'GET', url: stored.logoUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([512, 256]);
    const text = await call(
      t,
      'POST',
      '/school/org/logo',
      demo.admin,
      fileForm(Buffer.from('not an image'), 'a.png'),
    );
    expect(text.status).toBe(415);
    // A replaced logo's file is gone; unknown names are 404.
    const second = dataOf<{ logoUrl: string }>(
      await call(t, 'POST', '/school/org/logo', demo.admin, fileForm(png, 'logo.png')),
    );
    expect((await t.app.inject({ method: 'GET', url: stored.logoUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second.logoUrl })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/files/logos/..%2F..%2Fzhzy.sqlite' })).statusCode,
    ).toBe(404);
  });

  it('creates school years, sets the school default, renames, archives and restores them', async () => {
    const refused = await call(t, 'POST', '/school/year', demo.teacher, { name: '2027-2028学年' });
    expect(refused.status).toBe(403);
    const year = dataOf<SchoolYearInfo>(
      await call(t, 'POST', '/school/year', demo.admin, { name: '2027-2028学年' }),
    );
    expect(year).toMatchObject({ name: '2027-2028学年', isDefault: false, archived: false, classCount: 0 });
    const duplicate = await call(t, 'POST', '/school/year', demo.admin, { name: '2027-2028学年' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toBe(SCHOOL_MESSAGES.yearExists('2027-2028学年'));

    const renamed = dataOf<SchoolYearInfo>(
      await call(t, 'PUT', `/school/year/${year.id}`, demo.admin, { name: '2027-2028 学年' }),
    );
    expect(renamed.name).toBe('2027-2028 学年');
    const made = dataOf<SchoolYearInfo>(await call(t, 'PUT', `/school/year/${year.id}/default`, demo.admin));
    expect(made.isDefault).toBe(true);
    // The school's default shows in /system/class for members who chose none.
    const listed = dataOf<{ id: string; isDefault: boolean }[]>(
      await call(t, 'GET', `/system/class?orgId=${demo.orgId}&type=1`, demo.teacher),
    );
    expect(listed.find((y) => y.isDefault)?.id).toBe(year.id);

    const archived = dataOf<SchoolYearInfo>(
      await call(t, 'PUT', `/school/year/${year.id}/archive`, demo.admin, { archived: true }),
    );
    expect(archived).toMatchObject({ archived: true, isDefault: false });
    const visible = dataOf<SchoolYearInfo[]>(await call(t, 'GET', '/school/years', demo.teacher));
    expect(visible.map((y) => y.id)).not.toContain(year.id);
    const all = dataOf<SchoolYearInfo[]>(
      await call(t, 'GET', '/school/years?includeArchived=true', demo.teacher),
    );
    expect(all.map((y) => y.id)).toContain(year.id);
    expect(
      (await call(t, 'POST', '/school/class', demo.admin, { yearId: year.id, name: '七年级(9)班' })).body
        .message,
    ).toBe(SCHOOL_MESSAGES.yearArchived);
    const restored = dataOf<SchoolYearInfo>(
      await call(t, 'PUT', `/school/year/${year.id}/archive`, demo.admin, { archived: false }),
    );
    expect(restored.archived).toBe(false);
    await call(t, 'PUT', `/school/year/${demo.yearId}/default`, demo.admin);
  });

  it('creates classes with the grade taken from the name, renames them and deletes only empty ones', async () => {
    const year = dataOf<SchoolYearInfo>(
      await call(t, 'POST', '/school/year', demo.admin, { name: '2028-2029学年' }),
    );
    const klass = dataOf<ClassInfo>(
      await call(t, 'POST', '/school/class', demo.admin, { yearId: year.id, name: '八年级(1)班' }),
    );
    expect(klass).toMatchObject({ grade: '八年级', stageName: '初中', studentCount: 0, yearId: year.id });
    expect(
      (await call(t, 'POST', '/school/class', demo.teacher, { yearId: year.id, name: 'x' })).status,
    ).toBe(403);
    const taken = await call(t, 'POST', '/school/class', demo.admin, {
      yearId: year.id,
      name: '八年级(1)班',
    });
    expect(taken.status).toBe(409);
    const renamed = dataOf<ClassInfo>(
      await call(t, 'PUT', `/school/class/${klass.id}`, demo.admin, { name: '八年级(1)班（实验班）' }),
    );
    expect(renamed.name).toBe('八年级(1)班（实验班）');
    const classes = dataOf<ClassInfo[]>(
      await call(t, 'GET', `/school/classes?yearId=${year.id}`, demo.teacher),
    );
    expect(classes.map((c) => c.name)).toEqual(['八年级(1)班（实验班）']);

    // A class with students is not deleted; an empty one is.
    const full = await call(t, 'DELETE', `/school/class/${demo.classIds['七年级(3)班']}`, demo.admin);
    expect(full.status).toBe(409);
    expect(full.body.message).toBe(SCHOOL_MESSAGES.classHasStudents);
    expect((await call(t, 'DELETE', `/school/class/${klass.id}`, demo.teacher)).status).toBe(403);
    expect((await call(t, 'DELETE', `/school/class/${klass.id}`, demo.admin)).status).toBe(200);
    expect(
      dataOf<ClassInfo[]>(await call(t, 'GET', `/school/classes?yearId=${year.id}`, demo.admin)),
    ).toEqual([]);
  });

  it('graduates a year: archived, and every student of its classes marked graduated', async () => {
    const year = dataOf<SchoolYearInfo>(
      await call(t, 'POST', '/school/year', demo.admin, { name: '2020-2021学年' }),
    );
    const klass = dataOf<ClassInfo>(
      await call(t, 'POST', '/school/class', demo.admin, { yearId: year.id, name: '九年级(1)班' }),
    );
    for (const [name, no] of [
      ['毕业生甲', 'G2021-01'],
      ['毕业生乙', 'G2021-02'],
    ] as const) {
      dataOf(
        await call(t, 'POST', '/school/student', demo.admin, { classId: klass.id, name, studentNo: no }),
      );
    }
    expect((await call(t, 'POST', `/school/year/${year.id}/graduate`, demo.teacher)).status).toBe(403);
    const graduated = dataOf<z.infer<typeof GraduatedYearSchema>>(
      await call(t, 'POST', `/school/year/${year.id}/graduate`, demo.admin),
    );
    expect(graduated.graduatedStudents).toBe(2);
    expect(graduated.year).toMatchObject({ archived: true, graduated: true, studentCount: 2 });
    const page = dataOf<{ records: { graduated: boolean }[] }>(
      await call(t, 'GET', `/school/students?classId=${klass.id}`, demo.admin),
    );
    expect(page.records.every((s) => s.graduated)).toBe(true);
    const again = await call(t, 'POST', `/school/year/${year.id}/graduate`, demo.admin);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(SCHOOL_MESSAGES.yearGraduated);
    const restore = await call(t, 'PUT', `/school/year/${year.id}/archive`, demo.admin, { archived: false });
    expect(restore.body.message).toBe(SCHOOL_MESSAGES.yearGraduatedRestore);
  });

  it('lists the subjects per stage and lets an administrator choose the offered ones', async () => {
    const all = dataOf<OfferedSubjects>(await call(t, 'GET', '/school/subjects', demo.teacher));
    expect(all[0]).toMatchObject({ stageName: '初中' });
    expect(all[0]!.subjects.every((s) => s.offered)).toBe(true);
    expect(
      (await call(t, 'PUT', '/school/subjects', demo.teacher, { subjectIds: [SUBJECT_IDS.数学] })).status,
    ).toBe(403);
    const chosen = dataOf<OfferedSubjects>(
      await call(t, 'PUT', '/school/subjects', demo.admin, {
        subjectIds: [SUBJECT_IDS.数学, SUBJECT_IDS.语文, SUBJECT_IDS.英语],
      }),
    );
    expect(chosen[0]!.subjects.filter((s) => s.offered).map((s) => s.name)).toEqual(['语文', '数学', '英语']);
    const unknown = await call(t, 'PUT', '/school/subjects', demo.admin, { subjectIds: ['subj-nope'] });
    expect(unknown.status).toBe(400);
    // 物理 is no longer offered: nobody can be given it to teach.
    const teach = await call(
      t,
      'PUT',
      `/school/team/member/${demo.memberIds['demo-teacher']}/teaching`,
      demo.admin,
      {
        teaching: [{ subjectId: SUBJECT_IDS.物理, classIds: [] }],
      },
    );
    expect(teach.status).toBe(400);
    expect(teach.body.message).toBe(SCHOOL_MESSAGES.subjectNotOffered('物理'));
    await call(t, 'PUT', '/school/subjects', demo.admin, { subjectIds: [] });
  });

  it('assigns and unassigns grade directors per grade, keeping the grade-director flag of user info', async () => {
    const teacherId = demo.memberIds['demo-teacher']!;
    expect(
      (
        await call(t, 'PUT', '/school/grade-directors', demo.teacher, {
          grade: '八年级',
          memberIds: [teacherId],
        })
      ).status,
    ).toBe(403);
    const set = dataOf<{ grade: string; directors: { username: string }[] }[]>(
      await call(t, 'PUT', '/school/grade-directors', demo.admin, {
        grade: '八年级',
        memberIds: [teacherId],
      }),
    );
    expect(set.find((g) => g.grade === '八年级')?.directors.map((d) => d.username)).toEqual(['demo-teacher']);
    expect(set.find((g) => g.grade === '七年级')?.directors.map((d) => d.username)).toEqual([
      'demo-director',
    ]);
    expect((await userInfo(demo.teacher)).gradeInfo.gradeDirector).toBe(true);
    const listed = dataOf<{ grade: string }[]>(await call(t, 'GET', '/school/grade-directors', demo.teacher));
    expect(listed.map((g) => g.grade)).toEqual(['七年级', '八年级']);
    const bad = await call(t, 'PUT', '/school/grade-directors', demo.admin, {
      grade: '十年级',
      memberIds: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(SCHOOL_MESSAGES.gradeInvalid);
    dataOf(await call(t, 'PUT', '/school/grade-directors', demo.admin, { grade: '八年级', memberIds: [] }));
    expect((await userInfo(demo.teacher)).gradeInfo.gradeDirector).toBe(false);
  });

  it('creates a school: its creator becomes creator and administrator, and it becomes their current school', async () => {
    const register = await call(t, 'GET', '/oauth/captcha');
    expect(register.status).toBe(200);
    // A new account without a school (straight into the table: registration has its own tests).
    const { hashPassword } = await import('../src/lib/passwords.js');
    const now = new Date().toISOString();
    await t.testDb.db.kysely
      .insertInto('users')
      .values({
        id: 'user-founder',
        username: 'founder',
        password_hash: await hashPassword('Founder2026'),
        nickname: '孙校长',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const founder = await as(t, 'founder', 'Founder2026');
    expect((await userInfo(founder)).gradeInfo.orgDefaultId).toBeNull();
    const noSchool = await call(t, 'GET', '/school/years', founder);
    expect(noSchool.status).toBe(403);
    expect(noSchool.body.message).toBe(SCHOOL_MESSAGES.noSchool);
    const created = dataOf<SchoolDetail>(
      await call(t, 'POST', '/school/org', founder, { name: '新建实验中学', region: '浙江' }),
    );
    expect(created).toMatchObject({
      name: '新建实验中学',
      region: '浙江',
      me: { isCreator: true, isAdministrator: true, isDefault: true },
      creator: { nickname: '孙校长' },
      counts: { members: 1, years: 0 },
      defaultYear: null,
    });
    const info = await userInfo(founder);
    expect(info.gradeInfo).toMatchObject({
      orgDefaultId: created.id,
      isCreator: true,
      isAdministrator: true,
    });
    // Its first year becomes the school default.
    const year = dataOf<SchoolYearInfo>(
      await call(t, 'POST', '/school/year', founder, { name: '2026-2027学年' }),
    );
    expect(year.isDefault).toBe(true);
    const empty = await call(t, 'POST', '/school/org', founder, { name: '' });
    expect(empty.body.message).toContain(SCHOOL_MESSAGES.schoolNameRequired);
  });

  it('records administrative actions in the audit log, readable by administrators only', async () => {
    expect((await call(t, 'GET', '/school/audit', demo.teacher)).status).toBe(403);
    const log = dataOf<{ records: AuditEntry[]; total: number }>(
      await call(t, 'GET', '/school/audit?size=100', demo.admin),
    );
    const actions = log.records.map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['school.update', 'school.logo', 'year.create', 'year.graduate']),
    );
    expect(log.records[0]?.actor?.nickname).toBe('张校长');
    expect(log.records.find((r) => r.action === 'year.graduate')?.detail).toContain('2名学生毕业');
  });
});
