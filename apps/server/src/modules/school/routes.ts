import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  IMAGE_MAX_BYTES,
  SCHOOL_MESSAGES,
  STUDENT_IMPORT_LIMITS,
  XLSX_MIME,
  calls,
} from '@zhzy/contracts';
import type { Db } from '../../db/connect.js';
import { ok, registerCall, registerUploadCall, type CallGuards } from '../../lib/call.js';
import type { DocumentSandbox } from '../../lib/sandbox/pool.js';
import type { FileStore } from '../../plugins/files.js';
import type { SignupLimit } from '../../plugins/rate-limit.js';
import { cropOf } from '../account/images.js';
import { InviteService, type CaptchaCheck } from './invites.js';
import { SchoolRepository } from './repository.js';
import { AuditLog, SchoolService } from './service.js';
import { StudentsService } from './students.js';
import { TeamService } from './team.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

const bytes = (file: Blob | Uint8Array): Uint8Array => (file instanceof Uint8Array ? file : new Uint8Array());

/** Sends a file answer (SPEC §7 downloads: the blob itself, not the envelope). */
function sendFile(reply: FastifyReply, data: Buffer, filename: string, type: string) {
  void reply
    .header('content-type', type)
    .header(
      'content-disposition',
      `attachment; filename="download.xlsx"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    )
    .header('cache-control', 'no-store')
    .send(data);
  return reply as unknown as Blob;
}

export interface SchoolModuleOptions {
  db: Db;
  files: FileStore;
  clock: () => number;
  /** The image-captcha check of the auth module (registration through an invitation). */
  verifyCaptcha: CaptchaCheck;
  /** Where workbooks are read (child processes with limits). */
  documents: DocumentSandbox;
  /** The configured public address of the web app (invitation links); never taken from a request. */
  publicUrl: string | undefined;
  /** Registrations overall (an invitation's own limit is its number of uses). */
  signups: SignupLimit;
}

export interface SchoolModule {
  school: SchoolService;
  students: StudentsService;
  team: TeamService;
  invites: InviteService;
  repository: SchoolRepository;
}

/** Who may sign up through an invitation, and the address its links point at. */
export interface InvitationAccess {
  publicUrl: string | undefined;
  signups: SignupLimit;
}

/** The school itself, its school years and classes, its subjects and grade directors, and its audit log. */
function schoolCalls(app: FastifyInstance, guards: CallGuards, school: SchoolService): void {
  registerCall(app, guards, calls.createSchool, async ({ auth, body }) =>
    ok(await school.createSchool(auth, body)),
  );
  registerCall(app, guards, calls.schoolDetail, async ({ auth, query }) =>
    // isCreator / isAdministrator of the route are hints for the screen: roles come from the membership rows.
    ok(await school.detail(auth, query.orgId)),
  );
  registerCall(app, guards, calls.updateSchool, async ({ auth, body }) =>
    ok(await school.update(auth, body)),
  );

  // ── school years and classes
  registerCall(app, guards, calls.schoolYears, async ({ auth, query }) =>
    ok(await school.years(auth, query.orgId, query.includeArchived ?? false)),
  );
  registerCall(app, guards, calls.createSchoolYear, async ({ auth, body }) =>
    ok(await school.createYear(auth, body)),
  );
  registerCall(app, guards, calls.renameSchoolYear, async ({ auth, params, body }) =>
    ok(await school.renameYear(auth, params.id, body.name)),
  );
  registerCall(app, guards, calls.setDefaultSchoolYear, async ({ auth, params }) =>
    ok(await school.setDefaultYear(auth, params.id)),
  );
  registerCall(app, guards, calls.archiveSchoolYear, async ({ auth, params, body }) =>
    ok(await school.archiveYear(auth, params.id, body.archived)),
  );
  registerCall(app, guards, calls.graduateSchoolYear, async ({ auth, params }) =>
    ok(await school.graduateYear(auth, params.id)),
  );
  registerCall(app, guards, calls.schoolClasses, async ({ auth, query }) =>
    ok(await school.classes(auth, query.yearId)),
  );
  registerCall(app, guards, calls.createClass, async ({ auth, body }) =>
    ok(await school.createClass(auth, body)),
  );
  registerCall(app, guards, calls.updateClass, async ({ auth, params, body }) =>
    ok(await school.updateClass(auth, params.id, body)),
  );
  registerCall(app, guards, calls.deleteClass, async ({ auth, params }) => {
    await school.deleteClass(auth, params.id);
    return ok(null);
  });

  // ── subjects and grade directors
  registerCall(app, guards, calls.schoolSubjects, async ({ auth, query }) =>
    ok(await school.subjects(auth, query.orgId)),
  );
  registerCall(app, guards, calls.setSchoolSubjects, async ({ auth, body }) =>
    ok(await school.setSubjects(auth, body.orgId, body.subjectIds)),
  );
  registerCall(app, guards, calls.gradeDirectors, async ({ auth, query }) =>
    ok(await school.gradeDirectors(auth, query.orgId)),
  );
  registerCall(app, guards, calls.setGradeDirectors, async ({ auth, body }) =>
    ok(await school.setGradeDirectors(auth, body)),
  );

  // ── audit log
  registerCall(app, guards, calls.auditLog, async ({ auth, query }) =>
    ok(await school.auditLog(auth, query)),
  );
}

function studentCalls(app: FastifyInstance, guards: CallGuards, students: StudentsService): void {
  registerCall(app, guards, calls.students, async ({ auth, query }) => ok(await students.list(auth, query)));
  registerCall(app, guards, calls.createStudent, async ({ auth, body }) =>
    ok(await students.create(auth, body)),
  );
  registerCall(app, guards, calls.updateStudent, async ({ auth, params, body }) =>
    ok(await students.update(auth, params.id, body)),
  );
  registerCall(app, guards, calls.moveStudents, async ({ auth, body }) =>
    ok(await students.move(auth, body)),
  );
  registerCall(app, guards, calls.studentTemplate, async ({ reply }) =>
    sendFile(reply, await students.template(), SCHOOL_TEXT.studentTemplateFile, XLSX_MIME),
  );
  registerCall(app, guards, calls.exportStudents, async ({ auth, body, reply }) => {
    const { data, filename } = await students.export(auth, body.classId);
    return sendFile(reply, data, filename, XLSX_MIME);
  });
}

/** Members, their roles and teaching, and teaching groups. */
function teamCalls(app: FastifyInstance, guards: CallGuards, team: TeamService): void {
  registerCall(app, guards, calls.teamMembers, async ({ auth, query }) =>
    ok(await team.members(auth, query)),
  );
  registerCall(app, guards, calls.setMemberRoles, async ({ auth, params, body }) =>
    ok(await team.setRoles(auth, params.id, body)),
  );
  registerCall(app, guards, calls.setMemberTeaching, async ({ auth, params, body }) =>
    ok(await team.setTeaching(auth, params.id, body.teaching)),
  );
  registerCall(app, guards, calls.removeMember, async ({ auth, params }) => {
    await team.remove(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.teamGroups, async ({ auth, query }) => ok(await team.groups(auth, query)));
  registerCall(app, guards, calls.teamGroup, async ({ auth, params }) =>
    ok(await team.group(auth, params.id)),
  );
  registerCall(app, guards, calls.createGroup, async ({ auth, body }) =>
    ok(await team.createGroup(auth, body)),
  );
  registerCall(app, guards, calls.updateGroup, async ({ auth, params, body }) =>
    ok(await team.updateGroup(auth, params.id, body)),
  );
  registerCall(app, guards, calls.deleteGroup, async ({ auth, params }) => {
    await team.deleteGroup(auth, params.id);
    return ok(null);
  });
  registerCall(app, guards, calls.setGroupMembers, async ({ auth, params, body }) =>
    ok(await team.setGroupMembers(auth, params.id, body.members)),
  );
}

function invitationCalls(
  app: FastifyInstance,
  guards: CallGuards,
  invites: InviteService,
  access: InvitationAccess,
): void {
  registerCall(app, guards, calls.createInvitation, async ({ auth, body }) =>
    ok(await invites.create(auth, body, access.publicUrl)),
  );
  registerCall(app, guards, calls.invitations, async ({ auth, query }) =>
    ok(await invites.list(auth, query)),
  );
  registerCall(app, guards, calls.revokeInvitation, async ({ auth, params }) =>
    ok(await invites.revoke(auth, params.id)),
  );
  registerCall(app, guards, calls.invitePreview, async ({ body }) => ok(await invites.preview(body.token)));
  registerCall(app, guards, calls.acceptInvitation, async ({ auth, body }) => {
    const joined = await invites.accept(auth, body.token);
    return ok(joined, SCHOOL_MESSAGES.joined(joined.orgName));
  });
  registerCall(app, guards, calls.inviteRegister, async ({ body, request }) => {
    access.signups.take(request.ip ?? null, { invited: true });
    const joined = await invites.register(body);
    return ok(joined, SCHOOL_MESSAGES.registeredAndJoined(joined.orgName));
  });
}

export function schoolRoutes(
  app: FastifyInstance,
  guards: CallGuards,
  services: SchoolModule,
  access: InvitationAccess,
): void {
  schoolCalls(app, guards, services.school);
  studentCalls(app, guards, services.students);
  teamCalls(app, guards, services.team);
  invitationCalls(app, guards, services.invites, access);
}

/** Uploads: their own scope with multipart; the bearer is checked before the body is read. */
async function uploadRoutes(app: FastifyInstance, guards: CallGuards, services: SchoolModule): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart);
    registerUploadCall(
      scope,
      guards,
      calls.uploadSchoolLogo,
      {
        maxBytes: IMAGE_MAX_BYTES,
        tooLarge: ACCOUNT_MESSAGES.imageTooLarge,
        noFile: ACCOUNT_MESSAGES.noFile,
      },
      async ({ auth, body }) =>
        ok(await services.school.uploadLogo(auth, body.orgId, Buffer.from(bytes(body.file)), cropOf(body))),
    );
    registerUploadCall(
      scope,
      guards,
      calls.importStudents,
      {
        maxBytes: STUDENT_IMPORT_LIMITS.maxBytes,
        tooLarge: SCHOOL_MESSAGES.importTooLarge,
        noFile: SCHOOL_MESSAGES.importFile,
      },
      async ({ auth, body }) => {
        const result = await services.students.import(auth, bytes(body.file), body);
        return ok(result, SCHOOL_MESSAGES.importDone(result.imported));
      },
    );
  });
}

/** Wires the school module: school, years, classes, subjects, grade directors, students, team, invitations, audit. */
export async function registerSchool(
  app: FastifyInstance,
  guards: CallGuards,
  options: SchoolModuleOptions,
): Promise<SchoolModule> {
  const repository = new SchoolRepository(options.db.kysely, options.db.dialect);
  const log = new AuditLog(options.clock);
  const school = new SchoolService(repository, options.files, options.clock, log);
  const students = new StudentsService(repository, school, log, options.clock, options.documents);
  const team = new TeamService(repository, school, log, options.clock);
  const invites = new InviteService(repository, school, log, options.clock, options.verifyCaptcha);
  const wired: SchoolModule = { school, students, team, invites, repository };
  schoolRoutes(app, guards, wired, options);
  await uploadRoutes(app, guards, wired);
  return wired;
}
