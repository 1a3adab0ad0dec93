import { containsPattern, ilike } from '../../../db/dialect.js';
import { chunks } from '../../../seed/catalog.js';
import { AreaRepository, count } from './base.js';

export interface StudentFilter {
  orgId: string;
  yearId?: string | undefined;
  classId?: string | undefined;
  keyword?: string | undefined;
  graduated?: boolean | undefined;
}

/** A student as stored. */
export interface NewStudent {
  id: string;
  orgId: string;
  classId: string;
  name: string;
  studentNo: string;
  gender: string | null;
  createdAt: string;
}

/** A student with their class and year. */
export interface StudentRecord {
  id: string;
  orgId: string;
  name: string;
  studentNo: string;
  gender: string | null;
  graduatedAt: string | null;
  classId: string;
  className: string;
  yearId: string;
  classSort: number;
  yearName: string;
  yearArchived: boolean;
}

/** What a change of a student may set. */
export type StudentChange = Partial<Pick<StudentRecord, 'name' | 'studentNo' | 'gender' | 'classId'>>;

const toStudent = (r: {
  id: string;
  org_id: string;
  name: string;
  student_no: string;
  gender: string | null;
  graduated_at?: string | null | undefined;
  class_id: string;
  class_name: string;
  year_id: string;
  class_sort: number;
  year_name: string;
  year_archived: number;
}): StudentRecord => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  studentNo: r.student_no,
  gender: r.gender,
  graduatedAt: r.graduated_at ?? null,
  classId: r.class_id,
  className: r.class_name,
  yearId: r.year_id,
  classSort: r.class_sort,
  yearName: r.year_name,
  yearArchived: r.year_archived === 1,
});

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

  async pageStudents(
    filter: StudentFilter,
    page: number,
    size: number,
  ): Promise<{ rows: StudentRecord[]; total: number }> {
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
    return { rows: rows.map(toStudent), total: count(total?.n) };
  }

  async findStudent(studentId: string): Promise<StudentRecord | undefined> {
    const row = await this.studentQuery().where('s.id', '=', studentId).executeTakeFirst();
    return row && toStudent(row);
  }

  async studentsIn(orgId: string, studentIds: string[]): Promise<StudentRecord[]> {
    if (studentIds.length === 0) return [];
    const rows = await this.studentQuery()
      .where('s.org_id', '=', orgId)
      .where('s.id', 'in', studentIds)
      .execute();
    return rows.map(toStudent);
  }

  async studentsOfClass(classId: string): Promise<StudentRecord[]> {
    const rows = await this.studentQuery()
      .where('s.class_id', '=', classId)
      .orderBy('s.student_no')
      .execute();
    return rows.map(toStudent);
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

  async insertStudents(students: NewStudent[]) {
    const rows = students.map((s) => ({
      id: s.id,
      org_id: s.orgId,
      class_id: s.classId,
      name: s.name,
      student_no: s.studentNo,
      gender: s.gender,
      created_at: s.createdAt,
    }));
    for (const batch of chunks(rows)) await this.db.insertInto('students').values(batch).execute();
  }

  async updateStudent(studentId: string, change: StudentChange) {
    await this.db
      .updateTable('students')
      .set({
        name: change.name,
        student_no: change.studentNo,
        gender: change.gender,
        class_id: change.classId,
      })
      .where('id', '=', studentId)
      .execute();
  }
}
