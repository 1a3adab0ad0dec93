import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, type CallDef, type CreatedInvitation, type Feedback, type Group } from '@zhzy/contracts';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { accessOf, type CallName } from './helpers/call-access.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import {
  call,
  dataOf,
  demoSchool,
  excelWorkbook,
  fileForm,
  type Answer,
  type DemoSchool,
  type Headers,
} from './school-fixtures.js';

// Role checks for every call of the contracts (issue #12, ADR 0027): each call is classified in
// helpers/call-access.ts; without a token every signed-in call answers 401; every administrator or grade-director
// call refuses the demo teacher with 403 and a Chinese message, while the role it is meant for, making the very
// same request, is not refused.

const ALL = Object.values(calls as Record<string, CallDef>);
const CHINESE = /[\u4e00-\u9fff]/;

interface RoleRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: object;
  form?: () => Promise<FormData>;
}

/** The path of a call with every parameter filled with an id that exists nowhere. */
const anyPath = (c: CallDef) => c.path.replace(/:(\w+)/g, 'no-such-row');

function expectChineseRefusal(res: Answer, status: number, where: string) {
  expect([where, res.status]).toEqual([where, status]);
  expect(typeof res.body.message, where).toBe('string');
  expect(res.body.message, where).toMatch(CHINESE);
}

describe.each(DIALECTS)('who may make each call on %s', (dialect) => {
  let t: TestApp;
  let a: DemoSchool;
  let requests: Partial<Record<CallName, RoleRequest>> = {};

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    a = await demoSchool(t);
    const db = t.testDb.db.kysely;
    const classA = a.classIds['七年级(1)班']!;
    const student = await db
      .selectFrom('students')
      .select(['id', 'name'])
      .where('class_id', '=', classA)
      .executeTakeFirstOrThrow();
    const question = await db.selectFrom('questions').select('id').executeTakeFirstOrThrow();
    const groups = dataOf<Group[]>(await call(t, 'GET', '/school/team/groups', a.admin));
    // Rows the administrator may change or delete without harming the rest of the run.
    const freshYear = dataOf<{ id: string }>(
      await call(t, 'POST', '/school/year', a.admin, { name: '2030-2031学年' }),
    ).id;
    const freshClass = dataOf<{ id: string }>(
      await call(t, 'POST', '/school/class', a.admin, { yearId: a.yearId, name: '七年级(19)班' }),
    ).id;
    const freshGroup = dataOf<Group>(
      await call(t, 'POST', '/school/team/group', a.admin, { name: '角色测试组', kind: 'research' }),
    ).id;
    const invitation = dataOf<CreatedInvitation>(await call(t, 'POST', '/school/invite', a.admin, {}));
    const feedback = dataOf<Feedback>(
      await call(t, 'POST', '/system/account/feedback', a.teacher, { type: '其他', content: '角色测试' }),
    );
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const teacherMember = a.memberIds['demo-teacher']!;
    const directorMember = a.memberIds['demo-director']!;
    requests = {
      updateSchool: { method: 'PUT', url: '/school/org', body: { name: '演示学校' } },
      uploadSchoolLogo: {
        method: 'POST',
        url: '/school/org/logo',
        form: async () => fileForm(png, 'logo.png'),
      },
      createSchoolYear: { method: 'POST', url: '/school/year', body: { name: '2031-2032学年' } },
      renameSchoolYear: { method: 'PUT', url: `/school/year/${freshYear}`, body: { name: '2032-2033学年' } },
      setDefaultSchoolYear: { method: 'PUT', url: `/school/year/${a.yearId}/default` },
      archiveSchoolYear: {
        method: 'PUT',
        url: `/school/year/${freshYear}/archive`,
        body: { archived: false },
      },
      graduateSchoolYear: { method: 'POST', url: `/school/year/${freshYear}/graduate` },
      createClass: { method: 'POST', url: '/school/class', body: { yearId: a.yearId, name: '七年级(18)班' } },
      updateClass: { method: 'PUT', url: `/school/class/${classA}`, body: { name: '七年级(1)班' } },
      deleteClass: { method: 'DELETE', url: `/school/class/${freshClass}` },
      setSchoolSubjects: {
        method: 'PUT',
        url: '/school/subjects',
        body: { subjectIds: Object.values(SUBJECT_IDS) },
      },
      setGradeDirectors: {
        method: 'PUT',
        url: '/school/grade-directors',
        body: { grade: '九年级', memberIds: [directorMember] },
      },
      auditLog: { method: 'GET', url: '/school/audit' },
      createStudent: {
        method: 'POST',
        url: '/school/student',
        body: { classId: classA, name: '角色测试生', studentNo: 'ROLE-0001' },
      },
      updateStudent: { method: 'PUT', url: `/school/student/${student.id}`, body: { name: student.name } },
      moveStudents: {
        method: 'PUT',
        url: '/school/students/move',
        body: { studentIds: [student.id], classId: classA },
      },
      importStudents: {
        method: 'POST',
        url: '/school/students/import',
        form: async () =>
          fileForm(
            await excelWorkbook([
              ['姓名', '学号', '班级'],
              ['导入测试生', 'ROLE-0002', '七年级(1)班'],
            ]),
            'students.xlsx',
            { yearId: a.yearId },
          ),
      },
      teamMembers: { method: 'GET', url: '/school/team/members' },
      setMemberRoles: {
        method: 'PUT',
        url: `/school/team/member/${teacherMember}/roles`,
        body: { isAdministrator: false, grades: [] },
      },
      setMemberTeaching: {
        method: 'PUT',
        url: `/school/team/member/${teacherMember}/teaching`,
        body: { teaching: [] },
      },
      removeMember: { method: 'DELETE', url: `/school/team/member/${teacherMember}` },
      createGroup: {
        method: 'POST',
        url: '/school/team/group',
        body: { name: '新教研组', kind: 'research' },
      },
      updateGroup: {
        method: 'PUT',
        url: `/school/team/group/${groups[0]!.id}`,
        body: { name: groups[0]!.name },
      },
      deleteGroup: { method: 'DELETE', url: `/school/team/group/${freshGroup}` },
      setGroupMembers: {
        method: 'PUT',
        url: `/school/team/group/${freshGroup}/members`,
        body: { members: [] },
      },
      createInvitation: { method: 'POST', url: '/school/invite', body: {} },
      invitations: { method: 'GET', url: '/school/invites' },
      revokeInvitation: { method: 'DELETE', url: `/school/invite/${invitation.invitation.id}` },
      schoolFeedback: { method: 'GET', url: '/school/feedback' },
      replyFeedback: {
        method: 'PUT',
        url: `/school/feedback/${feedback.id}/reply`,
        body: { reply: '已收到' },
      },
      schoolQuestions: { method: 'GET', url: '/school/question/page?status=pending' },
      reviewQuestion: {
        method: 'POST',
        url: `/school/question/review/${question.id}`,
        body: { action: 'approve' },
      },
      withdrawSchoolQuestion: { method: 'DELETE', url: `/school/question/${question.id}` },
      saveAnalysisSettings: { method: 'PUT', url: '/teacher/analysis/settings', body: {} },
      subjectStats: { method: 'GET', url: '/teacher/data-center/subject' },
      markingReport: { method: 'GET', url: '/teacher/data-center/correct-score?homeworkId=no-such-homework' },
      averageScore: { method: 'GET', url: '/teacher/data-center/average-score?homeworkId=no-such-homework' },
    };
  });
  afterAll(() => t?.close());

  it('classifies every call of the contracts, in agreement with its declared authentication', () => {
    const unclassified = ALL.filter((c) => !accessOf(c.name)).map((c) => c.name);
    expect(unclassified).toEqual([]);
    const disagreeing = ALL.filter((c) => {
      const access = accessOf(c.name);
      if (c.auth === 'none') return access !== 'public';
      if (c.auth === 'client') return access !== 'client';
      return access === 'public' || access === 'client';
    }).map((c) => c.name);
    expect(disagreeing).toEqual([]);
  });

  it.each(ALL.filter((c) => c.auth === 'bearer').map((c) => [c.name, c] as const))(
    'answers 401 in Chinese without a token, and with a forged one: %s',
    async (name, c) => {
      const tries: Headers[] = [
        {},
        { authorization: 'Bearer forged-token' },
        { authorization: 'Basic eDp5' },
      ];
      for (const headers of tries) {
        const res = await call(t, c.method, anyPath(c), headers);
        expectChineseRefusal(res, 401, `${name} ${JSON.stringify(headers)}`);
      }
    },
  );

  it.each(ALL.filter((c) => c.auth === 'client').map((c) => [c.name, c] as const))(
    'refuses a token call from an unknown client: %s',
    async (name, c) => {
      const res = await t.app.inject({
        method: c.method,
        url: c.path,
        headers: {
          authorization: `Basic ${Buffer.from('zhzy-web:wrong').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'grant_type=password&username=demo-teacher&password=Demo%402026',
      });
      expect([name, res.statusCode]).toEqual([name, 401]);
      expect(res.json<{ message: string }>().message).toMatch(CHINESE);
    },
  );

  // Deletions and removing the teacher last, so that the other requests meet the school whole.
  const restricted = ALL.filter((c) => ['admin', 'director'].includes(accessOf(c.name) ?? ''))
    .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'))
    .sort((x, y) => Number(x.name === 'removeMember') - Number(y.name === 'removeMember'));

  it('has a request for every administrator and grade-director call', () => {
    expect(restricted.length).toBeGreaterThan(30);
    expect(restricted.filter((c) => !requests[c.name as CallName]).map((c) => c.name)).toEqual([]);
  });

  it.each(restricted.map((c) => [c.name, accessOf(c.name)!, c] as const))(
    'refuses the teacher with 403 in Chinese, not the role it is meant for: %s (%s)',
    async (name, access, c) => {
      const request = requests[name as CallName]!;
      expect(c.method).toBe(request.method);
      const send = async (headers: Headers) =>
        call(t, request.method, request.url, headers, request.form ? await request.form() : request.body);
      expectChineseRefusal(await send(a.teacher), 403, `${name} as the teacher`);
      const allowed = await send(access === 'admin' ? a.admin : a.director);
      expect(allowed.status, `${name} as the ${access}: ${JSON.stringify(allowed.body)}`).not.toBe(403);
      expect(allowed.status, name).not.toBe(401);
      expect(allowed.status, name).toBeLessThan(500);
    },
  );
});
