import type { Insertable } from 'kysely';
import { sortByClassName } from '@zhzy/contracts';
import type { Database } from '../../../db/schema.js';
import { AreaRepository, count } from './base.js';
import type { YearRow, ClassRow } from './rows.js';

/** School years and classes. */
export class YearsRepository extends AreaRepository {
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
}
