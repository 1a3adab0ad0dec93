import type { Selectable } from 'kysely';
import { sortByClassName } from '@zhzy/contracts';
import type { ClassesTable, SchoolYearsTable } from '../../../db/schema.js';
import { AreaRepository, count, flag } from './base.js';

/** A school year. */
export interface SchoolYear {
  id: string;
  orgId: string;
  name: string;
  isDefault: boolean;
  archived: boolean;
  graduatedAt: string | null;
  sort: number;
  createdAt: string;
}

/** A school year with how many classes and students it has. */
export interface SchoolYearWithCounts extends SchoolYear {
  classCount: number;
  studentCount: number;
}

/** What a change of a year may set. */
export type YearChange = Partial<Pick<SchoolYear, 'name' | 'isDefault' | 'archived' | 'graduatedAt'>>;

/** A class as stored. */
export interface NewClass {
  id: string;
  orgId: string;
  yearId: string;
  stageId: string;
  name: string;
  grade: string | null;
  sort: number;
  createdAt: string;
}

/** A class with its stage's name and how many students it has. */
export interface SchoolClass extends NewClass {
  stageName: string;
  studentCount: number;
}

/** A class with its year's name and whether that year is archived. */
export interface ClassInYear extends SchoolClass {
  yearName: string;
  yearArchived: boolean;
}

const toYear = (r: Selectable<SchoolYearsTable>): SchoolYear => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  isDefault: r.is_default === 1,
  archived: r.archived === 1,
  graduatedAt: r.graduated_at,
  sort: r.sort,
  createdAt: r.created_at,
});

const toClass = (
  r: Selectable<ClassesTable> & { stage_name: string; student_count: unknown },
): SchoolClass => ({
  id: r.id,
  orgId: r.org_id,
  yearId: r.year_id,
  stageId: r.stage_id,
  name: r.name,
  grade: r.grade,
  sort: r.sort,
  createdAt: r.created_at,
  stageName: r.stage_name,
  studentCount: count(r.student_count),
});

/** School years and classes. */
export class YearsRepository extends AreaRepository {
  async listYears(orgId: string, includeArchived: boolean): Promise<SchoolYearWithCounts[]> {
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
    const rows = await query.orderBy('y.sort', 'desc').orderBy('y.created_at', 'desc').execute();
    return rows.map((r) => ({
      ...toYear(r),
      classCount: count(r.class_count),
      studentCount: count(r.student_count),
    }));
  }

  async findYear(yearId: string): Promise<SchoolYear | undefined> {
    const row = await this.db
      .selectFrom('school_years')
      .selectAll()
      .where('id', '=', yearId)
      .executeTakeFirst();
    return row && toYear(row);
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

  async insertYear(y: SchoolYear) {
    await this.db
      .insertInto('school_years')
      .values({
        id: y.id,
        org_id: y.orgId,
        name: y.name,
        is_default: y.isDefault ? 1 : 0,
        archived: y.archived ? 1 : 0,
        graduated_at: y.graduatedAt,
        sort: y.sort,
        created_at: y.createdAt,
      })
      .execute();
  }

  async updateYear(yearId: string, change: YearChange) {
    await this.db
      .updateTable('school_years')
      .set({
        name: change.name,
        is_default: flag(change.isDefault),
        archived: flag(change.archived),
        graduated_at: change.graduatedAt,
      })
      .where('id', '=', yearId)
      .execute();
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

  listClasses(yearId: string): Promise<SchoolClass[]> {
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
      .then((rows) => sortByClassName(rows.map(toClass), (r) => r.name));
  }

  async findClass(classId: string): Promise<ClassInYear | undefined> {
    const row = await this.db
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
    return row && { ...toClass(row), yearName: row.year_name, yearArchived: row.year_archived === 1 };
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

  async insertClasses(classes: NewClass[]) {
    if (classes.length === 0) return;
    await this.db
      .insertInto('classes')
      .values(
        classes.map((c) => ({
          id: c.id,
          org_id: c.orgId,
          year_id: c.yearId,
          stage_id: c.stageId,
          name: c.name,
          grade: c.grade,
          sort: c.sort,
          created_at: c.createdAt,
        })),
      )
      .execute();
  }

  async updateClass(classId: string, set: Partial<Pick<NewClass, 'name' | 'grade'>>) {
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
  async classesIn(
    orgId: string,
    classIds: string[],
  ): Promise<{ id: string; name: string; yearId: string; yearArchived: boolean }[]> {
    if (classIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('classes as c')
      .innerJoin('school_years as y', 'y.id', 'c.year_id')
      .select(['c.id', 'c.name', 'c.year_id', 'y.archived as year_archived'])
      .where('c.org_id', '=', orgId)
      .where('c.id', 'in', classIds)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      yearId: r.year_id,
      yearArchived: r.year_archived === 1,
    }));
  }
}
