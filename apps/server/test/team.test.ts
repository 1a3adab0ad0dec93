import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_MESSAGES, type Group, type Member, type UserInfo } from '@zhzy/contracts';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { createSchool } from '../src/seed/school.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { FORBIDDEN, as, call, dataOf, demoSchool, type DemoSchool } from './school-fixtures.js';

describe.each(DIALECTS)('team: members and teaching groups on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    demo = await demoSchool(t);
  });
  afterAll(() => t.close());

  const members = async () => dataOf<Member[]>(await call(t, 'GET', '/school/team/members', demo.admin));

  it('lists members with roles, grades, teaching and groups for administrators; teachers get 403', async () => {
    const refused = await call(t, 'GET', '/school/team/members', demo.teacher);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(FORBIDDEN);
    const all = await members();
    expect(all.map((m) => m.username)).toEqual(['demo-teacher', 'demo-director', 'demo-admin']);
    const teacher = all.find((m) => m.username === 'demo-teacher')!;
    expect(teacher).toMatchObject({
      nickname: '王老师',
      roles: ['teacher'],
      roleNames: ['教师'],
      teaching: [
        {
          subjectId: SUBJECT_IDS.数学,
          subjectName: '数学',
          classes: [{ name: '七年级(1)班' }, { name: '七年级(2)班' }],
        },
      ],
    });
    expect(teacher.groups.map((g) => [g.name, g.isLeader])).toEqual([
      ['七年级数学备课组', true],
      ['数学教研组', false],
    ]);
    expect(all.find((m) => m.username === 'demo-director')).toMatchObject({
      roles: ['gradeDirector', 'teacher'],
      grades: ['七年级'],
    });
    expect(all.find((m) => m.username === 'demo-admin')?.roleNames).toEqual(['创建者', '管理员', '教师']);
    const filtered = dataOf<Member[]>(
      await call(t, 'GET', '/school/team/members?role=gradeDirector', demo.admin),
    );
    expect(filtered.map((m) => m.username)).toEqual(['demo-director']);
    const search = dataOf<Member[]>(
      await call(t, 'GET', `/school/team/members?keyword=${encodeURIComponent('王')}`, demo.admin),
    );
    expect(search.map((m) => m.username)).toEqual(['demo-teacher']);
  });

  it('sets a member’s teaching: subjects and, per subject, classes of the school', async () => {
    const id = demo.memberIds['demo-director']!;
    expect(
      (await call(t, 'PUT', `/school/team/member/${id}/teaching`, demo.teacher, { teaching: [] })).status,
    ).toBe(403);
    const set = dataOf<Member>(
      await call(t, 'PUT', `/school/team/member/${id}/teaching`, demo.admin, {
        teaching: [
          { subjectId: SUBJECT_IDS.语文, classIds: [demo.classIds['八年级(1)班']] },
          { subjectId: SUBJECT_IDS.英语, classIds: [] },
        ],
      }),
    );
    expect(set.teaching).toEqual([
      {
        subjectId: SUBJECT_IDS.语文,
        subjectName: '语文',
        classes: [{ id: demo.classIds['八年级(1)班'], name: '八年级(1)班' }],
      },
      { subjectId: SUBJECT_IDS.英语, subjectName: '英语', classes: [] },
    ]);
    const unknown = await call(t, 'PUT', `/school/team/member/${id}/teaching`, demo.admin, {
      teaching: [{ subjectId: SUBJECT_IDS.语文, classIds: ['no-such-class'] }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(SCHOOL_MESSAGES.classNotFound);
  });

  it('makes a member an administrator and a grade director; the creator stays an administrator', async () => {
    const id = demo.memberIds['demo-teacher']!;
    const promoted = dataOf<Member>(
      await call(t, 'PUT', `/school/team/member/${id}/roles`, demo.admin, {
        isAdministrator: true,
        grades: ['九年级'],
      }),
    );
    expect(promoted.roles).toEqual(['administrator', 'gradeDirector', 'teacher']);
    const info = dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', demo.teacher));
    expect(info.gradeInfo).toMatchObject({ isAdministrator: true, gradeDirector: true });
    // Now an administrator, demo-teacher may list members.
    expect((await call(t, 'GET', '/school/team/members', demo.teacher)).status).toBe(200);
    const back = dataOf<Member>(
      await call(t, 'PUT', `/school/team/member/${id}/roles`, demo.admin, {
        isAdministrator: false,
        grades: [],
      }),
    );
    expect(back.roles).toEqual(['teacher']);
    expect((await call(t, 'GET', '/school/team/members', demo.teacher)).status).toBe(403);
    const creator = await call(
      t,
      'PUT',
      `/school/team/member/${demo.memberIds['demo-admin']}/roles`,
      demo.admin,
      {
        isAdministrator: false,
        grades: [],
      },
    );
    expect(creator.status).toBe(409);
    expect(creator.body.message).toBe(SCHOOL_MESSAGES.creatorIsAdmin);
  });

  it('never removes the creator, nor the last administrator themselves', async () => {
    const creator = await call(
      t,
      'DELETE',
      `/school/team/member/${demo.memberIds['demo-admin']}`,
      demo.admin,
    );
    expect(creator.status).toBe(409);
    expect(creator.body.message).toBe(SCHOOL_MESSAGES.cannotRemoveCreator);

    const school = await createSchool(t.testDb.db.kysely, {
      name: '无创建者学校',
      years: [],
      users: [
        { username: 'c-admin', password: 'Other@2026', nickname: '唯一管理员', isAdministrator: true },
        { username: 'c-teacher', password: 'Other@2026', nickname: '钱老师' },
      ],
    });
    const admin = await as(t, 'c-admin', 'Other@2026');
    const list = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', admin));
    const self = list.find((m) => m.username === 'c-admin')!;
    const other = list.find((m) => m.username === 'c-teacher')!;
    const leave = await call(t, 'DELETE', `/school/team/member/${self.memberId}`, admin);
    expect(leave.status).toBe(409);
    expect(leave.body.message).toBe(SCHOOL_MESSAGES.lastAdministrator);
    const demote = await call(t, 'PUT', `/school/team/member/${self.memberId}/roles`, admin, {
      isAdministrator: false,
      grades: [],
    });
    expect(demote.body.message).toBe(SCHOOL_MESSAGES.lastAdministrator);
    // With a second administrator the first may go; the removed account is left without a school.
    dataOf(
      await call(t, 'PUT', `/school/team/member/${other.memberId}/roles`, admin, {
        isAdministrator: true,
        grades: [],
      }),
    );
    expect((await call(t, 'DELETE', `/school/team/member/${self.memberId}`, admin)).status).toBe(200);
    const info = dataOf<UserInfo>(await call(t, 'GET', '/system/user/info', admin));
    expect(info.gradeInfo.orgDefaultId).toBeNull();
    expect((await call(t, 'GET', `/school/team/details?orgId=${school.orgId}`, admin)).status).toBe(403);
  });

  it('removes a teacher: their teaching and group places go with them', async () => {
    const school = await createSchool(t.testDb.db.kysely, {
      name: '移除测试学校',
      years: [],
      users: [
        {
          username: 'd-admin',
          password: 'Other@2026',
          nickname: '周校长',
          isCreator: true,
          isAdministrator: true,
        },
        { username: 'd-teacher', password: 'Other@2026', nickname: '吴老师' },
      ],
    });
    const admin = await as(t, 'd-admin', 'Other@2026');
    const teacher = await as(t, 'd-teacher', 'Other@2026');
    const list = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', admin));
    const target = list.find((m) => m.username === 'd-teacher')!;
    const group = dataOf<Group>(
      await call(t, 'POST', '/school/team/group', admin, { name: '语文教研组', kind: 'research' }),
    );
    dataOf(
      await call(t, 'PUT', `/school/team/group/${group.id}/members`, admin, {
        members: [{ memberId: target.memberId }],
      }),
    );
    expect((await call(t, 'DELETE', `/school/team/member/${target.memberId}`, teacher)).status).toBe(403);
    expect((await call(t, 'DELETE', `/school/team/member/${target.memberId}`, admin)).status).toBe(200);
    const after = dataOf<Group>(await call(t, 'GET', `/school/team/group/${group.id}`, admin));
    expect(after.members).toEqual([]);
    expect((await call(t, 'GET', `/school/team/details?orgId=${school.orgId}`, teacher)).status).toBe(403);
    const left = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', admin));
    expect(left.map((m) => m.username)).toEqual(['d-admin']);
  });

  it('manages teaching groups: administrators create, edit, fill and delete them; members see their own', async () => {
    const refused = await call(t, 'POST', '/school/team/group', demo.teacher, {
      name: '英语教研组',
      kind: 'research',
    });
    expect(refused.status).toBe(403);
    const group = dataOf<Group>(
      await call(t, 'POST', '/school/team/group', demo.admin, {
        name: '八年级英语备课组',
        kind: 'preparation',
        subjectId: SUBJECT_IDS.英语,
        grade: '八年级',
      }),
    );
    expect(group).toMatchObject({ kindName: '备课组', subjectName: '英语', grade: '八年级', memberCount: 0 });
    const dup = await call(t, 'POST', '/school/team/group', demo.admin, {
      name: '八年级英语备课组',
      kind: 'research',
    });
    expect(dup.status).toBe(409);
    const filled = dataOf<Group>(
      await call(t, 'PUT', `/school/team/group/${group.id}/members`, demo.admin, {
        members: [
          { memberId: demo.memberIds['demo-director'], isLeader: true },
          { memberId: demo.memberIds['demo-admin'] },
        ],
      }),
    );
    expect(filled.leaders.map((l) => l.username)).toEqual(['demo-director']);
    expect(filled.memberCount).toBe(2);
    const outsider = await call(t, 'PUT', `/school/team/group/${group.id}/members`, demo.admin, {
      members: [{ memberId: 'not-a-member' }],
    });
    expect(outsider.body.message).toBe(SCHOOL_MESSAGES.groupMemberNotInSchool);

    // demo-teacher is not in it: sees only their own groups, and 403 on this one.
    const mine = dataOf<Group[]>(await call(t, 'GET', '/school/team/groups', demo.teacher));
    expect(mine.map((g) => g.name)).toEqual(['七年级数学备课组', '数学教研组']);
    expect(mine.every((g) => g.mine)).toBe(true);
    expect(mine.find((g) => g.name === '七年级数学备课组')?.amLeader).toBe(true);
    expect((await call(t, 'GET', `/school/team/group/${group.id}`, demo.teacher)).status).toBe(403);
    const director = dataOf<Group>(await call(t, 'GET', `/school/team/group/${group.id}`, demo.director));
    expect(director.amLeader).toBe(true);
    const all = dataOf<Group[]>(await call(t, 'GET', '/school/team/groups', demo.admin));
    expect(all).toHaveLength(3);
    const onlyMine = dataOf<Group[]>(await call(t, 'GET', '/school/team/groups?mine=true', demo.admin));
    expect(onlyMine.map((g) => g.name)).toEqual(['八年级英语备课组']);

    const renamed = dataOf<Group>(
      await call(t, 'PUT', `/school/team/group/${group.id}`, demo.admin, {
        name: '英语教研组',
        kind: 'research',
        grade: null,
      }),
    );
    expect(renamed).toMatchObject({ name: '英语教研组', kindName: '教研组', grade: null, memberCount: 2 });
    expect((await call(t, 'DELETE', `/school/team/group/${group.id}`, demo.teacher)).status).toBe(403);
    expect((await call(t, 'DELETE', `/school/team/group/${group.id}`, demo.admin)).status).toBe(200);
    expect((await call(t, 'GET', `/school/team/group/${group.id}`, demo.admin)).status).toBe(404);
  });
});
