import type { Kysely } from 'kysely';
import { compareClassNames, sortByClassName } from '@zhzy/contracts';
import type { Database } from '../../../db/schema.js';
import { roleFlags } from '../../../db/role-flags.js';
import type {
  ClassOfYear,
  ClassRef,
  ClassStudent,
  MembershipRoles,
  SchoolOrg,
  SchoolYear,
  StudentRecord,
} from './records.js';

// What analysis reads of the school (memberships, the school, its years, classes, students, teachers and users),
// scoped by school, as domain types (ADR 0073).

/** Splits a list into chunks (IN lists stay under every database's parameter limit). */
export function chunked<T>(rows: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export class SchoolReads {
  constructor(protected readonly db: Kysely<Database>) {}

  // ───────────── school ─────────────

  async membership(orgId: string, userId: string): Promise<MembershipRoles | undefined> {
    const r = await this.db
      .selectFrom('memberships')
      .select(['is_creator', 'is_administrator', 'is_grade_director', 'default_year_id'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      r && {
        ...roleFlags(r),
        defaultYearId: r.default_year_id,
      }
    );
  }

  async org(orgId: string): Promise<SchoolOrg | undefined> {
    const r = await this.db
      .selectFrom('orgs')
      .select(['id', 'name', 'logo_path', 'time_zone'])
      .where('id', '=', orgId)
      .executeTakeFirst();
    return r && { id: r.id, name: r.name, logoPath: r.logo_path, timeZone: r.time_zone };
  }

  async schoolYears(orgId: string): Promise<SchoolYear[]> {
    const rows = await this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'is_default'])
      .where('org_id', '=', orgId)
      .orderBy('sort')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default === 1 }));
  }

  classesOfYear(orgId: string, yearId: string): Promise<ClassRef[]> {
    return this.db
      .selectFrom('classes')
      .select(['id', 'name', 'sort'])
      .where('org_id', '=', orgId)
      .where('year_id', '=', yearId)
      .orderBy('sort')
      .orderBy('name')
      .execute()
      .then((rows) => sortByClassName(rows, (r) => r.name));
  }

  async findClass(orgId: string, classId: string): Promise<ClassOfYear | undefined> {
    const r = await this.db
      .selectFrom('classes')
      .select(['id', 'name', 'year_id'])
      .where('org_id', '=', orgId)
      .where('id', '=', classId)
      .executeTakeFirst();
    return r && { id: r.id, name: r.name, yearId: r.year_id };
  }

  async studentCounts(classIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const ids of chunked(classIds)) {
      const rows = await this.db
        .selectFrom('students')
        .select((eb) => ['class_id', eb.fn.countAll<number>().as('n')])
        .where('class_id', 'in', ids)
        .groupBy('class_id')
        .execute();
      for (const r of rows) out.set(r.class_id, Number(r.n));
    }
    return out;
  }

  /** Students of some classes, by class order then student number. */
  async studentsOfClasses(classIds: string[]): Promise<ClassStudent[]> {
    const rows: ClassStudent[] = [];
    for (const ids of chunked(classIds)) {
      rows.push(
        ...(await this.db
          .selectFrom('students as s')
          .innerJoin('classes as c', 'c.id', 's.class_id')
          .select([
            's.id',
            's.name',
            's.student_no',
            's.class_id',
            'c.name as class_name',
            'c.sort as class_sort',
          ])
          .where('s.class_id', 'in', ids)
          .execute()
          .then((list) =>
            list.map((r) => ({
              id: r.id,
              name: r.name,
              studentNo: r.student_no,
              classId: r.class_id,
              className: r.class_name,
              classSort: r.class_sort,
            })),
          )),
      );
    }
    return rows.sort(
      (a, b) =>
        compareClassNames(a.className, b.className) ||
        a.studentNo.localeCompare(b.studentNo) ||
        a.id.localeCompare(b.id),
    );
  }

  async findStudent(orgId: string, studentId: string): Promise<StudentRecord | undefined> {
    const r = await this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id', 'c.name as class_name', 'c.year_id'])
      .where('s.org_id', '=', orgId)
      .where('s.id', '=', studentId)
      .executeTakeFirst();
    return (
      r && {
        id: r.id,
        name: r.name,
        studentNo: r.student_no,
        classId: r.class_id,
        className: r.class_name,
        yearId: r.year_id,
      }
    );
  }

  /** Teachers of a subject per class: teaching assignments joined with names. */
  async teachersOf(orgId: string, subjectId: string, classIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (classIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('teaching_assignments as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.class_id', 'u.nickname', 'u.username'])
      .where('t.org_id', '=', orgId)
      .where('t.subject_id', '=', subjectId)
      .where('t.class_id', 'in', classIds)
      .orderBy('u.nickname')
      .execute();
    for (const r of rows) out.set(r.class_id, [...(out.get(r.class_id) ?? []), r.nickname || r.username]);
    return out;
  }

  userNames(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users')
      .select(['id', 'nickname', 'username'])
      .where('id', 'in', ids)
      .execute();
  }

  async schoolTotals(orgId: string, yearId: string | null) {
    let classes = this.db
      .selectFrom('classes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId);
    let students = this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('s.org_id', '=', orgId);
    if (yearId) {
      classes = classes.where('year_id', '=', yearId);
      students = students.where('c.year_id', '=', yearId);
    }
    const teachers = this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId);
    const [c, s, t] = await Promise.all([
      classes.executeTakeFirst(),
      students.executeTakeFirst(),
      teachers.executeTakeFirst(),
    ]);
    return { classes: Number(c?.n ?? 0), students: Number(s?.n ?? 0), teachers: Number(t?.n ?? 0) };
  }
}
