import {
  GRADES,
  GRADE_STAGE_NAMES,
  SCHOOL_MESSAGES,
  type AuditEntry,
  type ClassInfo,
  type CreateSchool,
  type Grade,
  type OfferedSubjects,
  type SchoolDetail,
  type SchoolYearInfo,
  type UpdateSchool,
} from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { FileStore } from '../../plugins/files.js';
import { processImage, type SquareCrop } from '../account/images.js';
import { fileUrl } from '../system/service.js';
import { SchoolAccess, type SchoolActor } from './policy.js';
import { presentClass, presentYear } from './presenter.js';
import type { SchoolChange, SchoolRepository } from './repository.js';
import { AuditLog, auditPage } from './audit.js';
import {
  checkSubjects,
  directors,
  offered,
  offeredIds,
  setGradeDirectors,
  setSubjects,
  type OfferingDeps,
} from './offering.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

export { AuditLog } from './audit.js';

const SCHOOL_FIELD_NAMES = SCHOOL_TEXT.fieldNames;

/** Schools a user may create. */
export const MAX_SCHOOLS_CREATED = 10;

/** The grade a class name starts with (七年级(1)班 → 七年级), if any. */
export function gradeFromName(name: string): Grade | null {
  return GRADES.find((g) => name.startsWith(g)) ?? null;
}

/** The school itself: details and logo, school years and classes, subjects, grade directors, the audit log. */
export class SchoolService {
  readonly access: SchoolAccess;

  constructor(
    private readonly repo: SchoolRepository,
    private readonly files: FileStore,
    private readonly clock: () => number,
    private readonly log: AuditLog = new AuditLog(clock),
  ) {
    this.access = new SchoolAccess(repo);
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  // ───────────── the school ─────────────

  /** Creates a school: the caller becomes its creator and an administrator, and it becomes their current school. */
  async createSchool(auth: AuthContext, input: CreateSchool & { name: string }): Promise<SchoolDetail> {
    if ((await this.repo.members.countOrgsCreatedBy(auth.userId)) >= MAX_SCHOOLS_CREATED)
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.tooManySchools);
    const subjectIds = await checkSubjects(this.repo, input.subjectIds ?? []);
    const orgId = newId();
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      await repo.members.insertOrg({
        id: orgId,
        name: input.name,
        logoPath: null,
        region: input.region ?? null,
        address: input.address ?? null,
        phone: input.phone ?? null,
        intro: input.intro ?? null,
        createdBy: auth.userId,
        createdAt: now,
      });
      await repo.members.insertMembership({
        id: newId(),
        orgId,
        userId: auth.userId,
        isCreator: true,
        isAdministrator: true,
        isGradeDirector: false,
        defaultYearId: null,
        createdAt: now,
      });
      await repo.teaching.setOfferedSubjects(orgId, subjectIds);
      await repo.members.setDefaultOrg(auth.userId, orgId, now);
      await this.log.record(repo, { orgId, userId: auth.userId }, 'school.create', orgId, input.name);
    });
    return this.detail(auth, orgId);
  }

  /** /team/details: the school and the caller's roles in it, from the host's own records. */
  async detail(auth: AuthContext, orgId?: string): Promise<SchoolDetail> {
    const actor = await this.access.member(auth, orgId);
    const org = await this.repo.members.findOrg(actor.orgId);
    if (!org) throw notFound();
    const [counts, years, grades, user] = await Promise.all([
      this.repo.members.orgCounts(actor.orgId),
      this.repo.years.listYears(actor.orgId, false),
      this.repo.members.gradeDirectors(actor.orgId, actor.userId),
      this.repo.members.findUser(actor.userId),
    ]);
    const membership = await this.repo.members.findMembership(actor.orgId, actor.userId);
    const chosen =
      years.find((y) => y.id === membership?.defaultYearId) ?? years.find((y) => y.isDefault) ?? null;
    return {
      id: org.id,
      name: org.name,
      logoUrl: fileUrl(org.logoPath),
      logoPath: org.logoPath,
      region: org.region,
      address: org.address,
      phone: org.phone,
      intro: org.intro,
      createdAt: org.createdAt,
      creator:
        org.createdBy && org.creatorNickname
          ? { userId: org.createdBy, nickname: org.creatorNickname }
          : null,
      me: {
        memberId: actor.memberId,
        isCreator: actor.isCreator,
        isAdministrator: actor.canManage,
        isGradeDirector: actor.isGradeDirector,
        canManage: actor.canManage,
        isDefault: user?.defaultOrgId === actor.orgId,
        grades: grades.map((g) => g.grade),
      },
      counts,
      defaultYear: chosen ? { id: chosen.id, name: chosen.name } : null,
      timeZone: org.timeZone,
    };
  }

  async update(auth: AuthContext, input: UpdateSchool): Promise<SchoolDetail> {
    const actor = await this.access.admin(auth, input.orgId);
    const set: SchoolChange = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.region !== undefined) set.region = input.region;
    if (input.address !== undefined) set.address = input.address;
    if (input.phone !== undefined) set.phone = input.phone;
    if (input.intro !== undefined) set.intro = input.intro;
    if (input.timeZone !== undefined) set.timeZone = input.timeZone;
    await this.repo.transaction(async (repo) => {
      await repo.members.updateOrg(actor.orgId, set, this.now());
      await this.log.record(
        repo,
        actor,
        'school.update',
        actor.orgId,
        Object.keys(set)
          .map((k) => SCHOOL_FIELD_NAMES[k as keyof typeof SCHOOL_FIELD_NAMES])
          .join(SCHOOL_TEXT.listSeparator) || SCHOOL_TEXT.unchanged,
      );
    });
    return this.detail(auth, actor.orgId);
  }

  /** Stores a new logo (validated by content, re-encoded); user info's orgLogo / logoPath show it from now on. */
  async uploadLogo(auth: AuthContext, orgId: string | undefined, data: Buffer, crop?: SquareCrop) {
    const actor = await this.access.admin(auth, orgId);
    const image = await processImage(data, 'logo', crop);
    const org = await this.repo.members.findOrg(actor.orgId);
    const relative = this.files.newPath('logos', 'webp');
    await this.files.write(relative, image);
    await this.repo.transaction(async (repo) => {
      await repo.members.updateOrg(actor.orgId, { logoPath: relative }, this.now());
      await this.log.record(repo, actor, 'school.logo', actor.orgId, relative);
    });
    await this.files.remove(org?.logoPath);
    return { logoUrl: fileUrl(relative)!, logoPath: relative };
  }

  // ───────────── school years ─────────────

  async years(
    auth: AuthContext,
    orgId: string | undefined,
    includeArchived: boolean,
  ): Promise<SchoolYearInfo[]> {
    const actor = await this.access.member(auth, orgId);
    return (await this.repo.years.listYears(actor.orgId, includeArchived)).map(presentYear);
  }

  private async yearInfo(yearId: string): Promise<SchoolYearInfo> {
    const year = await this.repo.years.findYear(yearId);
    if (!year) throw notFound(SCHOOL_MESSAGES.yearNotFound);
    const row = (await this.repo.years.listYears(year.orgId, true)).find((y) => y.id === yearId);
    return presentYear(row ?? year);
  }

  async createYear(
    auth: AuthContext,
    input: { orgId?: string | undefined; name: string; isDefault: boolean },
  ): Promise<SchoolYearInfo> {
    const actor = await this.access.admin(auth, input.orgId);
    if (await this.repo.years.yearNameTaken(actor.orgId, input.name))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearExists(input.name));
    const id = newId();
    await this.repo.transaction(async (repo) => {
      const hasDefault = (await repo.years.listYears(actor.orgId, false)).some((y) => y.isDefault);
      await repo.years.insertYear({
        id,
        orgId: actor.orgId,
        name: input.name,
        isDefault: false,
        archived: false,
        graduatedAt: null,
        sort: await repo.years.nextYearSort(actor.orgId),
        createdAt: this.now(),
      });
      // The school's first year is its default, so the top bar never shows 暂无默认学年 for nothing.
      if (input.isDefault || !hasDefault) await repo.years.setSchoolDefaultYear(actor.orgId, id);
      await this.log.record(repo, actor, 'year.create', id, input.name);
    });
    return this.yearInfo(id);
  }

  private async adminYear(auth: AuthContext, yearId: string) {
    const year = await this.repo.years.findYear(yearId);
    const actor = await this.access.adminOfRow(auth, year?.orgId, SCHOOL_MESSAGES.yearNotFound);
    return { year: year!, actor };
  }

  async renameYear(auth: AuthContext, yearId: string, name: string): Promise<SchoolYearInfo> {
    const { year, actor } = await this.adminYear(auth, yearId);
    if (await this.repo.years.yearNameTaken(actor.orgId, name, year.id))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearExists(name));
    await this.repo.transaction(async (repo) => {
      await repo.years.updateYear(year.id, { name });
      await this.log.record(repo, actor, 'year.rename', year.id, `${year.name} → ${name}`);
    });
    return this.yearInfo(year.id);
  }

  async setDefaultYear(auth: AuthContext, yearId: string): Promise<SchoolYearInfo> {
    const { year, actor } = await this.adminYear(auth, yearId);
    if (year.archived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    await this.repo.transaction(async (repo) => {
      await repo.years.setSchoolDefaultYear(actor.orgId, year.id);
      await this.log.record(repo, actor, 'year.default', year.id, year.name);
    });
    return this.yearInfo(year.id);
  }

  /** Archives a year (it leaves the top bar's list; its classes and students stay) or brings it back. */
  async archiveYear(auth: AuthContext, yearId: string, archived: boolean): Promise<SchoolYearInfo> {
    const { year, actor } = await this.adminYear(auth, yearId);
    if (!archived && year.graduatedAt) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearGraduatedRestore);
    await this.repo.transaction(async (repo) => {
      await repo.years.updateYear(year.id, { archived, ...(archived ? { isDefault: false } : {}) });
      await this.log.record(repo, actor, archived ? 'year.archive' : 'year.restore', year.id, year.name);
    });
    return this.yearInfo(year.id);
  }

  /** A year graduates: it is archived and every student of its classes is marked graduated. */
  async graduateYear(auth: AuthContext, yearId: string) {
    const { year, actor } = await this.adminYear(auth, yearId);
    if (year.graduatedAt) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearGraduated);
    const now = this.now();
    const graduatedStudents = await this.repo.transaction(async (repo) => {
      const count = await repo.years.graduateStudentsOfYear(year.id, now);
      await repo.years.updateYear(year.id, { archived: true, isDefault: false, graduatedAt: now });
      await this.log.record(repo, actor, 'year.graduate', year.id, SCHOOL_TEXT.graduated(year.name, count));
      return count;
    });
    return { year: await this.yearInfo(year.id), graduatedStudents };
  }

  // ───────────── classes ─────────────

  async classes(auth: AuthContext, yearId: string): Promise<ClassInfo[]> {
    const year = await this.repo.years.findYear(yearId);
    await this.access.memberOfRow(auth, year?.orgId, SCHOOL_MESSAGES.yearNotFound);
    return (await this.repo.years.listClasses(yearId)).map(presentClass);
  }

  private async classInfo(classId: string): Promise<ClassInfo> {
    const row = await this.repo.years.findClass(classId);
    if (!row) throw notFound(SCHOOL_MESSAGES.classNotFound);
    return presentClass(row);
  }

  /** The stage of a new class: the one asked for, else the grade's stage, else the catalogue's first. */
  async stageFor(stageId: string | undefined, grade: Grade | null): Promise<string> {
    const stages = await this.repo.teaching.stages();
    if (stageId) {
      if (!stages.some((s) => s.id === stageId))
        throw new AppError('VALIDATION', SCHOOL_MESSAGES.stageNotFound);
      return stageId;
    }
    const byGrade = grade ? stages.find((s) => s.name === GRADE_STAGE_NAMES[grade]) : undefined;
    const stage = byGrade ?? stages[0];
    if (!stage) throw new AppError('VALIDATION', SCHOOL_MESSAGES.stageNotFound);
    return stage.id;
  }

  async createClass(
    auth: AuthContext,
    input: { yearId: string; name: string; grade?: Grade | null | undefined; stageId?: string | undefined },
  ): Promise<ClassInfo> {
    const year = await this.repo.years.findYear(input.yearId);
    const actor = await this.access.adminOfRow(auth, year?.orgId, SCHOOL_MESSAGES.yearNotFound);
    if (year!.archived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    if (await this.repo.years.classNameTaken(input.yearId, input.name))
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.classExists(input.name));
    const grade = input.grade === undefined ? gradeFromName(input.name) : input.grade;
    const stageId = await this.stageFor(input.stageId, grade);
    const id = newId();
    await this.repo.transaction(async (repo) => {
      await repo.years.insertClasses([
        {
          id,
          orgId: actor.orgId,
          yearId: input.yearId,
          stageId,
          name: input.name,
          grade,
          sort: await repo.years.nextClassSort(input.yearId),
          createdAt: this.now(),
        },
      ]);
      await this.log.record(repo, actor, 'class.create', id, `${year!.name} ${input.name}`);
    });
    return this.classInfo(id);
  }

  private async adminClass(auth: AuthContext, classId: string) {
    const klass = await this.repo.years.findClass(classId);
    const actor = await this.access.adminOfRow(auth, klass?.orgId, SCHOOL_MESSAGES.classNotFound);
    return { klass: klass!, actor };
  }

  async updateClass(
    auth: AuthContext,
    classId: string,
    input: { name?: string | undefined; grade?: Grade | null | undefined },
  ): Promise<ClassInfo> {
    const { klass, actor } = await this.adminClass(auth, classId);
    if (klass.yearArchived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    if (
      input.name !== undefined &&
      (await this.repo.years.classNameTaken(klass.yearId, input.name, klass.id))
    )
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.classExists(input.name));
    const set: { name?: string; grade?: string | null } = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.grade !== undefined) set.grade = input.grade;
    await this.repo.transaction(async (repo) => {
      await repo.years.updateClass(klass.id, set);
      await this.log.record(
        repo,
        actor,
        'class.update',
        klass.id,
        `${klass.name} → ${set.name ?? klass.name}`,
      );
    });
    return this.classInfo(klass.id);
  }

  /** Deletes an empty class: no students (graduated ones count) and never given homework. */
  async deleteClass(auth: AuthContext, classId: string): Promise<void> {
    const { klass, actor } = await this.adminClass(auth, classId);
    const usage = await this.repo.years.classUsage(klass.id);
    if (usage.students > 0) throw new AppError('CONFLICT', SCHOOL_MESSAGES.classHasStudents);
    if (usage.homework > 0) throw new AppError('CONFLICT', SCHOOL_MESSAGES.classHasHomework);
    await this.repo.transaction(async (repo) => {
      await repo.years.deleteClass(klass.id);
      await this.log.record(repo, actor, 'class.delete', klass.id, `${klass.yearName} ${klass.name}`);
    });
  }

  // ───────────── subjects and grade directors (offering.ts) ─────────────

  private get offering(): OfferingDeps {
    return { repo: this.repo, log: this.log, now: () => this.now() };
  }

  /** Subject ids the school offers: the ones it chose, or every subject while it has chosen none. */
  offeredIds(orgId: string): Promise<Set<string>> {
    return offeredIds(this.repo, orgId);
  }

  async subjects(auth: AuthContext, orgId?: string): Promise<OfferedSubjects> {
    const actor = await this.access.member(auth, orgId);
    return offered(this.repo, actor.orgId);
  }

  async setSubjects(
    auth: AuthContext,
    orgId: string | undefined,
    subjectIds: string[],
  ): Promise<OfferedSubjects> {
    return setSubjects(this.offering, await this.access.admin(auth, orgId), subjectIds);
  }

  async gradeDirectors(auth: AuthContext, orgId?: string) {
    const actor = await this.access.member(auth, orgId);
    return directors(this.repo, actor.orgId);
  }

  /** Replaces the directors of one grade; members' grade-director flag follows. */
  async setGradeDirectors(
    auth: AuthContext,
    input: { orgId?: string | undefined; grade: Grade; memberIds: string[] },
  ) {
    return setGradeDirectors(this.offering, await this.access.admin(auth, input.orgId), input);
  }

  // ───────────── audit log (audit.ts) ─────────────

  async auditLog(
    auth: AuthContext,
    query: { orgId?: string | undefined; page: number; size: number },
  ): Promise<{ records: AuditEntry[]; total: number; page: number; size: number }> {
    const actor = await this.access.admin(auth, query.orgId);
    return auditPage(this.repo, actor.orgId, query);
  }

  /** The current-school actor of a signed-in caller (for other services of this module). */
  member(auth: AuthContext, orgId?: string): Promise<SchoolActor> {
    return this.access.member(auth, orgId);
  }
}
