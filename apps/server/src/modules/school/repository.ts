import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import { containsPattern, ilike } from '../../db/dialect.js';
import type {
  ClassesTable,
  Database,
  InvitationsTable,
  MembershipsTable,
  SchoolYearsTable,
  TeachingGroupsTable,
} from '../../db/schema.js';
import { chunks } from '../../seed/catalog.js';
import { sortByClassName } from '@zhzy/contracts';

export type MembershipRow = Selectable<MembershipsTable>;
export type YearRow = Selectable<SchoolYearsTable>;
export type ClassRow = Selectable<ClassesTable>;
export type GroupRow = Selectable<TeachingGroupsTable>;
export type InvitationRow = Selectable<InvitationsTable>;

export interface MemberRow {
  member_id: string;
  user_id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  phone: string | null;
  is_creator: number;
  is_administrator: number;
  is_grade_director: number;
  joined_at: string;
}

export interface StudentFilter {
  orgId: string;
  yearId?: string | undefined;
  classId?: string | undefined;
  keyword?: string | undefined;
  graduated?: boolean | undefined;
}

const count = (value: unknown): number => Number(value ?? 0);

/** Schools, members, years, classes, subjects, grade directors, students, groups, invitations and the audit log. */
export class SchoolRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** Runs `fn` in one transaction, with a repository bound to it. */
  transaction<T>(fn: (repo: SchoolRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new SchoolRepository(trx, this.dialect)));
  }

  // ───────────── schools and memberships ─────────────

  findOrg(orgId: string) {
    return this.db
      .selectFrom('orgs as o')
      .leftJoin('users as c', 'c.id', 'o.created_by')
      .select([
        'o.id',
        'o.name',
        'o.logo_path',
        'o.region',
        'o.address',
        'o.phone',
        'o.intro',
        'o.time_zone',
        'o.created_by',
        'o.created_at',
        'c.nickname as creator_nickname',
      ])
      .where('o.id', '=', orgId)
      .executeTakeFirst();
  }

  async insertOrg(row: Insertable<Database['orgs']>) {
    await this.db.insertInto('orgs').values(row).execute();
  }

  async updateOrg(
    orgId: string,
    set: Partial<Pick<Database['orgs'], 'name' | 'region' | 'address' | 'phone' | 'intro' | 'logo_path'>> & {
      time_zone?: string;
    },
    now: string,
  ) {
    await this.db
      .updateTable('orgs')
      .set({ ...set, updated_at: now })
      .where('id', '=', orgId)
      .execute();
  }

  async countOrgsCreatedBy(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('orgs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_by', '=', userId)
      .executeTakeFirst();
    return count(row?.n);
  }

  async orgCounts(orgId: string) {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('memberships')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .as('members'),
        eb
          .selectFrom('school_years')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .where('archived', '=', 0)
          .as('years'),
        eb
          .selectFrom('classes as c')
          .innerJoin('school_years as y', 'y.id', 'c.year_id')
          .select(eb.fn.countAll().as('n'))
          .where('c.org_id', '=', orgId)
          .where('y.archived', '=', 0)
          .as('classes'),
        eb
          .selectFrom('students as s')
          .select(eb.fn.countAll().as('n'))
          .where('s.org_id', '=', orgId)
          .where('s.graduated_at', 'is', null)
          .as('students'),
        eb
          .selectFrom('teaching_groups')
          .select(eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .as('groups'),
      ])
      .executeTakeFirstOrThrow();
    return {
      members: count(row.members),
      years: count(row.years),
      classes: count(row.classes),
      students: count(row.students),
      groups: count(row.groups),
    };
  }

  findMembership(orgId: string, userId: string) {
    return this.db
      .selectFrom('memberships')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findMembershipById(memberId: string) {
    return this.db.selectFrom('memberships').selectAll().where('id', '=', memberId).executeTakeFirst();
  }

  async insertMembership(row: Insertable<Database['memberships']>) {
    await this.db.insertInto('memberships').values(row).execute();
  }

  async updateMembership(
    memberId: string,
    set: Partial<Pick<MembershipRow, 'is_administrator' | 'is_grade_director'>>,
  ) {
    await this.db.updateTable('memberships').set(set).where('id', '=', memberId).execute();
  }

  /** Removes a member and everything that ties them to the school (roles per grade, teaching, groups). */
  async deleteMembership(member: MembershipRow) {
    const { org_id: orgId, user_id: userId } = member;
    await this.db
      .deleteFrom('grade_directors')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('teaching_assignments')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('member_subjects')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('teaching_group_members')
      .where('user_id', '=', userId)
      .where('group_id', 'in', (eb) =>
        eb.selectFrom('teaching_groups').select('id').where('org_id', '=', orgId),
      )
      .execute();
    await this.db.deleteFrom('memberships').where('id', '=', member.id).execute();
  }

  findUser(userId: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'default_org_id', 'disabled'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** Points a user's current school at `orgId` (or their oldest other membership, or none). */
  async setDefaultOrg(userId: string, orgId: string | null, now: string) {
    await this.db
      .updateTable('users')
      .set({ default_org_id: orgId, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  async firstOtherMembership(userId: string, exceptOrgId: string) {
    const row = await this.db
      .selectFrom('memberships')
      .select('org_id')
      .where('user_id', '=', userId)
      .where('org_id', '!=', exceptOrgId)
      .orderBy('created_at')
      .executeTakeFirst();
    return row?.org_id ?? null;
  }

  /** Administrators of a school (the creator counts as one), except one user. */
  async countManagers(orgId: string, exceptUserId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('org_id', '=', orgId)
      .where('user_id', '!=', exceptUserId)
      .where((eb) => eb.or([eb('is_administrator', '=', 1), eb('is_creator', '=', 1)]))
      .executeTakeFirst();
    return count(row?.n);
  }

  listMembers(orgId: string, keyword?: string): Promise<MemberRow[]> {
    let query = this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'm.id as member_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'm.is_creator',
        'm.is_administrator',
        'm.is_grade_director',
        'm.created_at as joined_at',
      ])
      .where('m.org_id', '=', orgId);
    if (keyword) {
      const pattern = containsPattern(keyword);
      query = query.where((eb) =>
        eb.or([ilike(this.dialect, 'u.nickname', pattern), ilike(this.dialect, 'u.username', pattern)]),
      );
    }
    return query.orderBy('m.created_at').orderBy('m.id').execute();
  }

  async findMember(memberId: string): Promise<(MemberRow & { org_id: string }) | undefined> {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'm.id as member_id',
        'm.org_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
        'u.phone',
        'm.is_creator',
        'm.is_administrator',
        'm.is_grade_director',
        'm.created_at as joined_at',
      ])
      .where('m.id', '=', memberId)
      .executeTakeFirst();
  }

  /** Memberships of the school among the given ids. */
  membershipsIn(orgId: string, memberIds: string[]) {
    if (memberIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('memberships')
      .select(['id', 'user_id'])
      .where('org_id', '=', orgId)
      .where('id', 'in', memberIds)
      .execute();
  }

  // ───────────── grade directors ─────────────

  gradeDirectors(orgId: string, userId?: string) {
    let query = this.db
      .selectFrom('grade_directors as g')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'g.org_id').onRef('m.user_id', '=', 'g.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.grade', 'm.id as member_id', 'u.id as user_id', 'u.username', 'u.nickname'])
      .where('g.org_id', '=', orgId);
    if (userId) query = query.where('g.user_id', '=', userId);
    return query.orderBy('g.created_at').orderBy('u.username').execute();
  }

  /** Replaces the directors of one grade. */
  async setGradeDirectors(orgId: string, grade: string, userIds: string[], now: string) {
    await this.db
      .deleteFrom('grade_directors')
      .where('org_id', '=', orgId)
      .where('grade', '=', grade)
      .execute();
    if (userIds.length > 0) {
      await this.db
        .insertInto('grade_directors')
        .values(userIds.map((userId) => ({ org_id: orgId, grade, user_id: userId, created_at: now })))
        .execute();
    }
  }

  /** Replaces the grades one member directs. */
  async setGradesOf(orgId: string, userId: string, grades: string[], now: string) {
    await this.db
      .deleteFrom('grade_directors')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    if (grades.length > 0) {
      await this.db
        .insertInto('grade_directors')
        .values(grades.map((grade) => ({ org_id: orgId, grade, user_id: userId, created_at: now })))
        .execute();
    }
  }

  /** Keeps memberships.is_grade_director equal to "directs at least one grade" for the given users. */
  async syncGradeDirectorFlags(orgId: string, userIds: string[]) {
    if (userIds.length === 0) return;
    await this.db
      .updateTable('memberships')
      .set((eb) => ({
        is_grade_director: eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom('grade_directors as g')
                .select('g.grade')
                .whereRef('g.org_id', '=', 'memberships.org_id')
                .whereRef('g.user_id', '=', 'memberships.user_id'),
            ),
          )
          .then(1)
          .else(0)
          .end(),
      }))
      .where('org_id', '=', orgId)
      .where('user_id', 'in', userIds)
      .execute();
  }

  // ───────────── school years and classes ─────────────

  listYears(orgId: string, includeArchived: boolean) {
    let query = this.db
      .selectFrom('school_years as y')
      .selectAll('y')
      .select((eb) => [
        eb
          .selectFrom('classes as c')
          .select(eb.fn.countAll().as('n'))
          .whereRef('c.year_id', '=', 'y.id')
          .as('class_count'),
        eb
          .selectFrom('students as s')
          .innerJoin('classes as c', 'c.id', 's.class_id')
          .select(eb.fn.countAll().as('n'))
          .whereRef('c.year_id', '=', 'y.id')
          .as('student_count'),
      ])
      .where('y.org_id', '=', orgId);
    if (!includeArchived) query = query.where('y.archived', '=', 0);
    return query.orderBy('y.sort', 'desc').orderBy('y.created_at', 'desc').execute();
  }

  findYear(yearId: string) {
    return this.db.selectFrom('school_years').selectAll().where('id', '=', yearId).executeTakeFirst();
  }

  async yearNameTaken(orgId: string, name: string, exceptId?: string): Promise<boolean> {
    let query = this.db
      .selectFrom('school_years')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return !!(await query.executeTakeFirst());
  }

  async nextYearSort(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('school_years')
      .select((eb) => eb.fn.max('sort').as('m'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return count(row?.m) + 1;
  }

  async insertYear(row: Insertable<Database['school_years']>) {
    await this.db.insertInto('school_years').values(row).execute();
  }

  async updateYear(
    yearId: string,
    set: Partial<Pick<YearRow, 'name' | 'is_default' | 'archived' | 'graduated_at'>>,
  ) {
    await this.db.updateTable('school_years').set(set).where('id', '=', yearId).execute();
  }

  /** Makes one year the school's default (or none). */
  async setSchoolDefaultYear(orgId: string, yearId: string | null) {
    await this.db
      .updateTable('school_years')
      .set((eb) => ({
        is_default: yearId ? eb.case().when('id', '=', yearId).then(1).else(0).end() : eb.val(0),
      }))
      .where('org_id', '=', orgId)
      .execute();
  }

  /** Marks every student of the year's classes graduated; answers how many. */
  async graduateStudentsOfYear(yearId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('students')
      .set({ graduated_at: now })
      .where('graduated_at', 'is', null)
      .where('class_id', 'in', (eb) => eb.selectFrom('classes').select('id').where('year_id', '=', yearId))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  listClasses(yearId: string) {
    return this.db
      .selectFrom('classes as c')
      .innerJoin('stages as st', 'st.id', 'c.stage_id')
      .selectAll('c')
      .select((eb) => [
        'st.name as stage_name',
        eb
          .selectFrom('students as s')
          .select(eb.fn.countAll().as('n'))
          .whereRef('s.class_id', '=', 'c.id')
          .as('student_count'),
      ])
      .where('c.year_id', '=', yearId)
      .orderBy('c.sort')
      .orderBy('c.created_at')
      .execute()
      .then((rows) => sortByClassName(rows, (r) => r.name));
  }

  findClass(classId: string) {
    return this.db
      .selectFrom('classes as c')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .innerJoin('stages as st', 'st.id', 'c.stage_id')
      .selectAll('c')
      .select((eb) => [
        'y.name as year_name',
        'y.archived as year_archived',
        'st.name as stage_name',
        eb
          .selectFrom('students as s')
          .select(eb.fn.countAll().as('n'))
          .whereRef('s.class_id', '=', 'c.id')
          .as('student_count'),
      ])
      .where('c.id', '=', classId)
      .executeTakeFirst();
  }

  async classNameTaken(yearId: string, name: string, exceptId?: string): Promise<boolean> {
    let query = this.db
      .selectFrom('classes')
      .select('id')
      .where('year_id', '=', yearId)
      .where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return !!(await query.executeTakeFirst());
  }

  async nextClassSort(yearId: string): Promise<number> {
    const row = await this.db
      .selectFrom('classes')
      .select((eb) => eb.fn.max('sort').as('m'))
      .where('year_id', '=', yearId)
      .executeTakeFirst();
    return count(row?.m) + 1;
  }

  async insertClasses(rows: Insertable<Database['classes']>[]) {
    if (rows.length > 0) await this.db.insertInto('classes').values(rows).execute();
  }

  async updateClass(classId: string, set: Partial<Pick<ClassRow, 'name' | 'grade'>>) {
    await this.db.updateTable('classes').set(set).where('id', '=', classId).execute();
  }

  async classUsage(classId: string) {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('students')
          .select(eb.fn.countAll().as('n'))
          .where('class_id', '=', classId)
          .as('students'),
        eb
          .selectFrom('homework_classes')
          .select(eb.fn.countAll().as('n'))
          .where('class_id', '=', classId)
          .as('homework'),
      ])
      .executeTakeFirstOrThrow();
    return { students: count(row.students), homework: count(row.homework) };
  }

  async deleteClass(classId: string) {
    await this.db.deleteFrom('teaching_assignments').where('class_id', '=', classId).execute();
    await this.db.deleteFrom('classes').where('id', '=', classId).execute();
  }

  /** Classes of the school among the ids, with whether their year is archived. */
  classesIn(orgId: string, classIds: string[]) {
    if (classIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('classes as c')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .select(['c.id', 'c.name', 'c.year_id', 'y.archived as year_archived'])
      .where('c.org_id', '=', orgId)
      .where('c.id', 'in', classIds)
      .execute();
  }

  // ───────────── stages and subjects ─────────────

  catalogueSubjects() {
    return this.db
      .selectFrom('subjects as s')
      .innerJoin('stages as st', 'st.id', 's.stage_id')
      .select(['s.id', 's.name', 's.stage_id', 'st.name as stage_name'])
      .orderBy('st.sort')
      .orderBy('s.sort')
      .execute();
  }

  stages() {
    return this.db.selectFrom('stages').selectAll().orderBy('sort').execute();
  }

  async offeredSubjectIds(orgId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('school_subjects')
      .select('subject_id')
      .where('org_id', '=', orgId)
      .execute();
    return rows.map((r) => r.subject_id);
  }

  async setOfferedSubjects(orgId: string, subjectIds: string[]) {
    await this.db.deleteFrom('school_subjects').where('org_id', '=', orgId).execute();
    if (subjectIds.length > 0) {
      await this.db
        .insertInto('school_subjects')
        .values(subjectIds.map((subjectId) => ({ org_id: orgId, subject_id: subjectId })))
        .execute();
    }
  }

  // ───────────── teaching ─────────────

  /** Subjects the members teach (all members, or one). */
  memberSubjects(orgId: string, userId?: string) {
    let query = this.db
      .selectFrom('member_subjects as ms')
      .innerJoin('subjects as s', 's.id', 'ms.subject_id')
      .innerJoin('stages as st', 'st.id', 's.stage_id')
      .select(['ms.user_id', 's.id', 's.name', 's.stage_id', 'st.name as stage_name'])
      .where('ms.org_id', '=', orgId);
    if (userId) query = query.where('ms.user_id', '=', userId);
    return query.orderBy('ms.sort').execute();
  }

  /** Classes the members teach, per subject (classes of archived years left out). */
  async teachingClasses(orgId: string, userId?: string) {
    let query = this.db
      .selectFrom('teaching_assignments as t')
      .innerJoin('classes as c', 'c.id', 't.class_id')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .select(['t.user_id', 't.subject_id', 'c.id', 'c.name', 'c.grade', 'c.year_id', 'y.name as year_name'])
      .where('t.org_id', '=', orgId)
      .where('y.archived', '=', 0);
    if (userId) query = query.where('t.user_id', '=', userId);
    const rows = await query.orderBy('y.sort', 'desc').orderBy('c.sort').execute();
    // Years newest first (as queried), classes in natural order within each.
    const years = [...new Set(rows.map((r) => r.year_id))];
    return years.flatMap((y) =>
      sortByClassName(
        rows.filter((r) => r.year_id === y),
        (r) => r.name,
      ),
    );
  }

  async setTeaching(orgId: string, userId: string, teaching: { subjectId: string; classIds: string[] }[]) {
    await this.db
      .deleteFrom('teaching_assignments')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('member_subjects')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    if (teaching.length === 0) return;
    await this.db
      .insertInto('member_subjects')
      .values(
        teaching.map((t, i) => ({ org_id: orgId, user_id: userId, subject_id: t.subjectId, sort: i + 1 })),
      )
      .execute();
    const rows = teaching.flatMap((t) =>
      t.classIds.map((classId) => ({
        org_id: orgId,
        user_id: userId,
        subject_id: t.subjectId,
        class_id: classId,
      })),
    );
    for (const batch of chunks(rows))
      await this.db.insertInto('teaching_assignments').values(batch).execute();
  }

  // ───────────── students ─────────────

  private studentQuery() {
    return this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .select([
        's.id',
        's.org_id',
        's.name',
        's.student_no',
        's.gender',
        's.graduated_at',
        's.class_id',
        'c.name as class_name',
        'c.year_id',
        'c.sort as class_sort',
        'y.name as year_name',
        'y.archived as year_archived',
      ]);
  }

  async pageStudents(filter: StudentFilter, page: number, size: number) {
    let query = this.studentQuery().where('s.org_id', '=', filter.orgId);
    if (filter.yearId) query = query.where('c.year_id', '=', filter.yearId);
    if (filter.classId) query = query.where('s.class_id', '=', filter.classId);
    if (filter.graduated !== undefined)
      query = query.where('s.graduated_at', filter.graduated ? 'is not' : 'is', null);
    if (filter.keyword) {
      const pattern = containsPattern(filter.keyword);
      query = query.where((eb) =>
        eb.or([ilike(this.dialect, 's.name', pattern), ilike(this.dialect, 's.student_no', pattern)]),
      );
    }
    const total = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const rows = await query
      .orderBy('c.sort')
      .orderBy('s.student_no')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { rows, total: count(total?.n) };
  }

  findStudent(studentId: string) {
    return this.studentQuery().where('s.id', '=', studentId).executeTakeFirst();
  }

  studentsIn(orgId: string, studentIds: string[]) {
    if (studentIds.length === 0) return Promise.resolve([]);
    return this.studentQuery().where('s.org_id', '=', orgId).where('s.id', 'in', studentIds).execute();
  }

  studentsOfClass(classId: string) {
    return this.studentQuery().where('s.class_id', '=', classId).orderBy('s.student_no').execute();
  }

  /** Which of the numbers some student of the school already has. */
  async takenStudentNumbers(
    orgId: string,
    numbers: string[],
    exceptStudentId?: string,
  ): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const batch of chunks(numbers, 500)) {
      let query = this.db
        .selectFrom('students')
        .select('student_no')
        .where('org_id', '=', orgId)
        .where('student_no', 'in', batch);
      if (exceptStudentId) query = query.where('id', '!=', exceptStudentId);
      for (const row of await query.execute()) taken.add(row.student_no);
    }
    return taken;
  }

  async insertStudents(rows: Insertable<Database['students']>[]) {
    for (const batch of chunks(rows)) await this.db.insertInto('students').values(batch).execute();
  }

  async updateStudent(
    studentId: string,
    set: Partial<Pick<Database['students'], 'name' | 'student_no' | 'gender' | 'class_id'>>,
  ) {
    await this.db.updateTable('students').set(set).where('id', '=', studentId).execute();
  }

  // ───────────── teaching groups ─────────────

  listGroups(orgId: string, onlyOfUserId?: string) {
    let query = this.db
      .selectFrom('teaching_groups as g')
      .leftJoin('subjects as s', 's.id', 'g.subject_id')
      .selectAll('g')
      .select('s.name as subject_name')
      .where('g.org_id', '=', orgId);
    if (onlyOfUserId) {
      query = query.where('g.id', 'in', (eb) =>
        eb.selectFrom('teaching_group_members').select('group_id').where('user_id', '=', onlyOfUserId),
      );
    }
    return query.orderBy('g.kind').orderBy('g.created_at').execute();
  }

  findGroup(groupId: string) {
    return this.db
      .selectFrom('teaching_groups as g')
      .leftJoin('subjects as s', 's.id', 'g.subject_id')
      .selectAll('g')
      .select('s.name as subject_name')
      .where('g.id', '=', groupId)
      .executeTakeFirst();
  }

  groupMembers(groupIds: string[]) {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('teaching_group_members as gm')
      .innerJoin('teaching_groups as g', 'g.id', 'gm.group_id')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'g.org_id').onRef('m.user_id', '=', 'gm.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select([
        'gm.group_id',
        'gm.is_leader',
        'm.id as member_id',
        'u.id as user_id',
        'u.username',
        'u.nickname',
        'u.avatar',
      ])
      .where('gm.group_id', 'in', groupIds)
      .orderBy('gm.is_leader', 'desc')
      .orderBy('gm.created_at')
      .orderBy('u.username')
      .execute();
  }

  /** Every group membership of the school's members: for the member list. */
  groupsOfMembers(orgId: string) {
    return this.db
      .selectFrom('teaching_group_members as gm')
      .innerJoin('teaching_groups as g', 'g.id', 'gm.group_id')
      .select(['gm.user_id', 'g.id', 'g.name', 'g.kind', 'gm.is_leader'])
      .where('g.org_id', '=', orgId)
      .orderBy('g.created_at')
      .execute();
  }

  async groupNameTaken(orgId: string, name: string, exceptId?: string): Promise<boolean> {
    let query = this.db
      .selectFrom('teaching_groups')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return !!(await query.executeTakeFirst());
  }

  async insertGroup(row: Insertable<Database['teaching_groups']>) {
    await this.db.insertInto('teaching_groups').values(row).execute();
  }

  async updateGroup(
    groupId: string,
    set: Partial<Pick<GroupRow, 'name' | 'kind' | 'subject_id' | 'grade'>>,
    now: string,
  ) {
    await this.db
      .updateTable('teaching_groups')
      .set({ ...set, updated_at: now })
      .where('id', '=', groupId)
      .execute();
  }

  async deleteGroup(groupId: string) {
    await this.db.deleteFrom('teaching_group_members').where('group_id', '=', groupId).execute();
    await this.db.deleteFrom('teaching_groups').where('id', '=', groupId).execute();
  }

  async setGroupMembers(groupId: string, members: { userId: string; isLeader: boolean }[], now: string) {
    await this.db.deleteFrom('teaching_group_members').where('group_id', '=', groupId).execute();
    if (members.length === 0) return;
    await this.db
      .insertInto('teaching_group_members')
      .values(
        members.map((m) => ({
          group_id: groupId,
          user_id: m.userId,
          is_leader: m.isLeader ? 1 : 0,
          created_at: now,
        })),
      )
      .execute();
  }

  // ───────────── invitations ─────────────

  async insertInvitation(row: Insertable<Database['invitations']>) {
    await this.db.insertInto('invitations').values(row).execute();
  }

  findInvitation(id: string) {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findInvitationByHash(tokenHash: string) {
    return this.db
      .selectFrom('invitations as i')
      .innerJoin('orgs as o', 'o.id', 'i.org_id')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select(['o.name as org_name', 'o.logo_path', 'u.nickname as inviter'])
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  listInvitations(orgId: string) {
    return this.db
      .selectFrom('invitations as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select('u.nickname as creator_nickname')
      .where('i.org_id', '=', orgId)
      .orderBy('i.created_at', 'desc')
      .execute();
  }

  invitationUses(invitationIds: string[]) {
    if (invitationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('invitation_uses as iu')
      .innerJoin('users as u', 'u.id', 'iu.user_id')
      .select(['iu.invitation_id', 'iu.user_id', 'iu.created_at', 'u.username', 'u.nickname'])
      .where('iu.invitation_id', 'in', invitationIds)
      .orderBy('iu.created_at')
      .execute();
  }

  async revokeInvitation(id: string, now: string) {
    await this.db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Takes one use of a live invitation; false when it was revoked, expired or used up meanwhile. */
  async takeInvitationUse(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .whereRef('used_count', '<', 'max_uses')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async insertInvitationUse(row: Insertable<Database['invitation_uses']>) {
    await this.db.insertInto('invitation_uses').values(row).execute();
  }

  async insertUser(row: Insertable<Database['users']>): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  // ───────────── audit log ─────────────

  async audit(row: Insertable<Database['audit_log']>) {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  async pageAudit(orgId: string, page: number, size: number) {
    const total = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const rows = await this.db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actor_id')
      .selectAll('a')
      .select('u.nickname as actor_nickname')
      .where('a.org_id', '=', orgId)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { rows, total: count(total?.n) };
  }
}
