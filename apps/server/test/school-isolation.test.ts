import sharp from 'sharp';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calls,
  type CreatedInvitation,
  type Feedback,
  type Group,
  type Invitation,
  type Member,
  type SchoolYearInfo,
  type Student,
} from '@zhzy/contracts';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import {
  FORBIDDEN,
  call,
  dataOf,
  demoSchool,
  excelWorkbook,
  fileForm,
  secondSchool,
  type DemoSchool,
  type SecondSchool,
} from './school-fixtures.js';

/** Calls of the school and account contracts that act on no school: they are about the caller's own account. */
const PERSONAL = new Set([
  'sendSms',
  'registerByPhone',
  'smsToken',
  'resetPassword',
  'smsInbox',
  'profile',
  'updateNickname',
  'uploadAvatar',
  'deleteAvatar',
  'sendBindSms',
  'bindPhone',
  'changePassword',
  'uploadFeedbackImage',
  'createFeedback',
  'myFeedback',
  'createSchool',
  'studentTemplate',
  'invitePreview',
  'inviteRegister',
  'acceptInvitation',
]);

interface Case {
  call: keyof typeof calls;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: object;
  /** A multipart body, built when the call is made. */
  form?: () => Promise<FormData>;
  /** 403 for a school named by id (not a member), 404 for a row of another school. */
  status: 403 | 404 | 400;
}

// Two schools side by side: every school-scoped call of one, made by the other's administrator, is refused and
// changes nothing; lists never show the other school's rows.
describe.each(DIALECTS)(
  'two-school isolation of schools, teams, invitations and feedback on %s',
  (dialect) => {
    let t: TestApp;
    let a: DemoSchool;
    let b: SecondSchool;
    let studentA: Student;
    let groupA: Group;
    let invitationA: CreatedInvitation;
    let feedbackA: Feedback;
    let cases: Case[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-isolation-files-'));

    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { DATA_DIR: dataDir } });
      a = await demoSchool(t);
      b = await secondSchool(t);
      const classA = a.classIds['七年级(1)班']!;
      studentA = dataOf<{ records: Student[] }>(
        await call(t, 'GET', `/school/students?classId=${classA}&size=1`, a.admin),
      ).records[0]!;
      groupA = dataOf<Group[]>(await call(t, 'GET', '/school/team/groups', a.admin))[0]!;
      invitationA = dataOf<CreatedInvitation>(await call(t, 'POST', '/school/invite', a.admin, {}));
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .png()
        .toBuffer();
      const shot = dataOf<{ id: string }>(
        await call(t, 'POST', '/system/account/feedback/image', a.teacher, fileForm(png, 's.png')),
      );
      feedbackA = dataOf<Feedback>(
        await call(t, 'POST', '/system/account/feedback', a.teacher, {
          type: '其他',
          content: '甲校反馈',
          imageIds: [shot.id],
        }),
      );
      const memberA = a.memberIds['demo-teacher']!;
      const orgA = a.orgId;
      const logo = async () => fileForm(png, 'logo.png', { orgId: orgA });
      const workbook = async () =>
        fileForm(
          await excelWorkbook([
            ['姓名', '学号', '班级'],
            ['乙校学生', 'BX-1', '七年级(1)班'],
          ]),
          'a.xlsx',
          { yearId: a.yearId },
        );
      cases = [
        {
          call: 'schoolDetail',
          method: 'GET',
          url: `/school/team/details?orgId=${orgA}&isCreator=true&isAdministrator=true`,
          status: 403,
        },
        {
          call: 'updateSchool',
          method: 'PUT',
          url: '/school/org',
          body: { orgId: orgA, name: '乙改甲' },
          status: 403,
        },
        { call: 'uploadSchoolLogo', method: 'POST', url: '/school/org/logo', form: logo, status: 403 },
        { call: 'schoolYears', method: 'GET', url: `/school/years?orgId=${orgA}`, status: 403 },
        {
          call: 'createSchoolYear',
          method: 'POST',
          url: '/school/year',
          body: { orgId: orgA, name: '乙建甲年' },
          status: 403,
        },
        {
          call: 'renameSchoolYear',
          method: 'PUT',
          url: `/school/year/${a.yearId}`,
          body: { name: 'x' },
          status: 404,
        },
        { call: 'setDefaultSchoolYear', method: 'PUT', url: `/school/year/${a.yearId}/default`, status: 404 },
        {
          call: 'archiveSchoolYear',
          method: 'PUT',
          url: `/school/year/${a.yearId}/archive`,
          body: { archived: true },
          status: 404,
        },
        { call: 'graduateSchoolYear', method: 'POST', url: `/school/year/${a.yearId}/graduate`, status: 404 },
        { call: 'schoolClasses', method: 'GET', url: `/school/classes?yearId=${a.yearId}`, status: 404 },
        {
          call: 'createClass',
          method: 'POST',
          url: '/school/class',
          body: { yearId: a.yearId, name: '乙建班' },
          status: 404,
        },
        {
          call: 'updateClass',
          method: 'PUT',
          url: `/school/class/${classA}`,
          body: { name: 'x' },
          status: 404,
        },
        { call: 'deleteClass', method: 'DELETE', url: `/school/class/${classA}`, status: 404 },
        { call: 'schoolSubjects', method: 'GET', url: `/school/subjects?orgId=${orgA}`, status: 403 },
        {
          call: 'setSchoolSubjects',
          method: 'PUT',
          url: '/school/subjects',
          body: { orgId: orgA, subjectIds: [] },
          status: 403,
        },
        { call: 'gradeDirectors', method: 'GET', url: `/school/grade-directors?orgId=${orgA}`, status: 403 },
        {
          call: 'setGradeDirectors',
          method: 'PUT',
          url: '/school/grade-directors',
          body: { orgId: orgA, grade: '七年级', memberIds: [] },
          status: 403,
        },
        { call: 'students', method: 'GET', url: `/school/students?classId=${classA}`, status: 404 },
        {
          call: 'createStudent',
          method: 'POST',
          url: '/school/student',
          body: { classId: classA, name: 'x', studentNo: 'BX-2' },
          status: 404,
        },
        {
          call: 'updateStudent',
          method: 'PUT',
          url: `/school/student/${studentA.id}`,
          body: { name: '乙改名' },
          status: 404,
        },
        {
          call: 'moveStudents',
          method: 'PUT',
          url: '/school/students/move',
          body: { studentIds: [studentA.id], classId: classA },
          status: 404,
        },
        {
          call: 'importStudents',
          method: 'POST',
          url: '/school/students/import',
          form: workbook,
          status: 404,
        },
        {
          call: 'exportStudents',
          method: 'POST',
          url: '/school/students/export',
          body: { classId: classA },
          status: 404,
        },
        { call: 'teamMembers', method: 'GET', url: `/school/team/members?orgId=${orgA}`, status: 403 },
        {
          call: 'setMemberRoles',
          method: 'PUT',
          url: `/school/team/member/${memberA}/roles`,
          body: { isAdministrator: true, grades: [] },
          status: 404,
        },
        {
          call: 'setMemberTeaching',
          method: 'PUT',
          url: `/school/team/member/${memberA}/teaching`,
          body: { teaching: [] },
          status: 404,
        },
        { call: 'removeMember', method: 'DELETE', url: `/school/team/member/${memberA}`, status: 404 },
        { call: 'teamGroups', method: 'GET', url: `/school/team/groups?orgId=${orgA}`, status: 403 },
        { call: 'teamGroup', method: 'GET', url: `/school/team/group/${groupA.id}`, status: 404 },
        {
          call: 'createGroup',
          method: 'POST',
          url: '/school/team/group',
          body: { orgId: orgA, name: '乙建组', kind: 'research' },
          status: 403,
        },
        {
          call: 'updateGroup',
          method: 'PUT',
          url: `/school/team/group/${groupA.id}`,
          body: { name: 'x' },
          status: 404,
        },
        { call: 'deleteGroup', method: 'DELETE', url: `/school/team/group/${groupA.id}`, status: 404 },
        {
          call: 'setGroupMembers',
          method: 'PUT',
          url: `/school/team/group/${groupA.id}/members`,
          body: { members: [] },
          status: 404,
        },
        {
          call: 'createInvitation',
          method: 'POST',
          url: '/school/invite',
          body: { orgId: orgA },
          status: 403,
        },
        { call: 'invitations', method: 'GET', url: `/school/invites?orgId=${orgA}`, status: 403 },
        {
          call: 'revokeInvitation',
          method: 'DELETE',
          url: `/school/invite/${invitationA.invitation.id}`,
          status: 404,
        },
        { call: 'auditLog', method: 'GET', url: `/school/audit?orgId=${orgA}`, status: 403 },
        { call: 'schoolFeedback', method: 'GET', url: `/school/feedback?orgId=${orgA}`, status: 403 },
        {
          call: 'replyFeedback',
          method: 'PUT',
          url: `/school/feedback/${feedbackA.id}/reply`,
          body: { reply: '乙校回复' },
          status: 404,
        },
        { call: 'myTeaching', method: 'GET', url: `/system/account/teaching?orgId=${orgA}`, status: 403 },
        {
          call: 'setDefaultSchool',
          method: 'PUT',
          url: '/system/account/default-school',
          body: { orgId: orgA },
          status: 403,
        },
      ];
    });
    afterAll(async () => {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('covers every school-scoped call of the school and account contracts', () => {
      const ours = Object.entries(calls)
        .filter(([, c]) =>
          // The school question bank (/school/question/…) and school materials (/school/materials…,
          // /school/material-file/…, /school/binding/…) have their own isolation tests (materials.test.ts).
          [
            /^\/school\/(?!question\/|materials|material-file\/|binding\/)/,
            /^\/system\/account\//,
            /^\/system\/dev\//,
            /^\/oauth\/(sms|register\/|password)/,
          ].some((p) => p.test(c.path)),
        )
        .map(([name]) => name);
      const covered = new Set([...cases.map((c) => c.call), ...PERSONAL]);
      expect(ours.filter((name) => !covered.has(name as keyof typeof calls))).toEqual([]);
    });

    it('refuses every call on the other school: 403 when it names the school, 404 for its rows', async () => {
      for (const c of cases) {
        const body = c.form ? await c.form() : c.body;
        const res = await call(t, c.method, c.url, b.admin, body);
        expect([c.call, res.status]).toEqual([c.call, c.status]);
        if (c.status === 403) expect(res.body.message).toBe(FORBIDDEN);
      }
    });

    it('left school A exactly as it was', async () => {
      const detail = dataOf<{ name: string; counts: { groups: number } }>(
        await call(t, 'GET', '/school/team/details', a.admin),
      );
      expect(detail.name).toBe('演示学校');
      expect(detail.counts.groups).toBe(2);
      const years = dataOf<SchoolYearInfo[]>(await call(t, 'GET', '/school/years', a.admin));
      expect(years.find((y) => y.id === a.yearId)).toMatchObject({
        name: '2026-2027学年',
        isDefault: true,
        archived: false,
      });
      const student = dataOf<{ records: Student[] }>(
        await call(t, 'GET', `/school/students?keyword=${studentA.studentNo}`, a.admin),
      ).records[0];
      expect(student).toMatchObject({ name: studentA.name, classId: studentA.classId });
      const members = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', a.admin));
      expect(members.map((m) => m.username)).toEqual(['demo-teacher', 'demo-director', 'demo-admin']);
      expect(members[0]!.isAdministrator).toBe(false);
      const invites = dataOf<Invitation[]>(await call(t, 'GET', '/school/invites', a.admin));
      expect(invites[0]?.status).toBe('active');
      const feedback = dataOf<{ records: Feedback[] }>(await call(t, 'GET', '/school/feedback', a.admin));
      expect(feedback.records[0]?.reply).toBeNull();
    });

    it('never lists school A’s rows to school B, nor lets B use A’s members, classes or screenshots', async () => {
      expect(
        dataOf<{ records: Student[] }>(
          await call(t, 'GET', '/school/students?size=200', b.admin),
        ).records.map((s) => s.name),
      ).toEqual(['周一鸣']);
      expect(dataOf<Group[]>(await call(t, 'GET', '/school/team/groups', b.admin))).toEqual([]);
      expect(dataOf<Invitation[]>(await call(t, 'GET', '/school/invites', b.admin))).toEqual([]);
      expect(
        dataOf<{ records: Feedback[] }>(await call(t, 'GET', '/school/feedback', b.admin)).records,
      ).toEqual([]);
      expect(dataOf<{ records: unknown[] }>(await call(t, 'GET', '/school/audit', b.admin)).records).toEqual(
        [],
      );
      const members = dataOf<Member[]>(await call(t, 'GET', '/school/team/members', b.admin));
      expect(members.map((m) => m.username)).toEqual(['b-admin', 'b-teacher']);

      const teachA = await call(t, 'PUT', `/school/team/member/${b.teacherMemberId}/teaching`, b.admin, {
        teaching: [{ subjectId: SUBJECT_IDS.数学, classIds: [a.classIds['七年级(1)班']] }],
      });
      expect(teachA.status).toBe(400);
      const directA = await call(t, 'PUT', '/school/grade-directors', b.admin, {
        grade: '七年级',
        memberIds: [a.memberIds['demo-teacher']],
      });
      expect(directA.status).toBe(400);
      const group = dataOf<Group>(
        await call(t, 'POST', '/school/team/group', b.admin, { name: '乙校教研组', kind: 'research' }),
      );
      const groupA = await call(t, 'PUT', `/school/team/group/${group.id}/members`, b.admin, {
        members: [{ memberId: a.memberIds['demo-teacher'] }],
      });
      expect(groupA.status).toBe(400);
      // B's class cannot receive A's students either.
      const moved = dataOf<{ moved: string[]; failed: { id: string }[] }>(
        await call(t, 'PUT', '/school/students/move', b.admin, {
          studentIds: [studentA.id],
          classId: b.classId,
        }),
      );
      expect(moved).toEqual({ moved: [], failed: [{ id: studentA.id, message: '学生不存在' }] });
      expect((await call(t, 'GET', feedbackA.images[0]!.url, b.admin)).status).toBe(404);
      // B's teacher sees nothing of A's invitation beyond what the link holder sees, and A's feedback is not theirs.
      expect(
        dataOf<{ records: Feedback[] }>(await call(t, 'GET', '/system/account/feedback', b.teacher)).records,
      ).toEqual([]);
    });
  },
);
