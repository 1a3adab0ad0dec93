import type { Insertable } from 'kysely';
import { containsPattern, ilike } from '../../../db/dialect.js';
import type { Database } from '../../../db/schema.js';
import { chunks } from '../../../seed/catalog.js';
import { AreaRepository, count } from './base.js';
import type { StudentFilter } from './rows.js';

/** Students, their classes and numbers. */
export class StudentsRepository extends AreaRepository {
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
}
