import {
  GenderSchema,
  MESSAGES,
  SCHOOL_MESSAGES,
  STUDENT_COLUMNS,
  STUDENT_IMPORT_LIMITS,
  STUDENT_NO_PATTERN,
  type Student,
} from '@zhzy/contracts';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/dialect.js';
import { STUDENTS_TEXT as T } from '../../i18n/students.js';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { presentStudent } from './presenter.js';
import type { NewClass, SchoolRepository, StudentChange } from './repository.js';
import { gradeFromName, type AuditLog, type SchoolService } from './service.js';
import { SandboxLimitError, limitRefusal, type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { XlsxError, writeXlsx, type SheetRow, type SheetSpec } from './xlsx.js';
import type { SchoolActor as Actor } from './policy.js';

type Gender = z.infer<typeof GenderSchema>;

/** One broken row of an import, as the answer's data.errors lists it. */
export interface RowError {
  row: number;
  message: string;
}

export interface ImportOptions {
  yearId: string;
  classId?: string | undefined;
  createMissingClasses?: boolean | undefined;
}

/** A student row read from the sheet and checked. */
interface ParsedRow {
  row: number;
  name: string;
  studentNo: string;
  className: string;
  gender: Gender | null;
}

/** Where the import's columns are in the sheet (−1 when absent). */
interface ImportColumns {
  name: number;
  no: number;
  klass: number;
  gender: number;
}

const NOTES = T.notes.map((line) => [line]);

/** The student sheet: the import's columns, so an export imports back as it is. */
function studentSheet(rows: (string | null)[][]): SheetSpec {
  return {
    name: T.sheet,
    columns: [
      { header: STUDENT_COLUMNS[0], width: 14 },
      { header: STUDENT_COLUMNS[1], width: 18, text: true },
      { header: STUDENT_COLUMNS[2], width: 16 },
      { header: STUDENT_COLUMNS[3], width: 8 },
    ],
    rows,
    choices: { column: 3, values: [...GenderSchema.options] },
  };
}

/** Students: the list, single edits, moves between classes, Excel import (all rows or none) and export. */
export class StudentsService {
  constructor(
    private readonly repo: SchoolRepository,
    private readonly school: SchoolService,
    private readonly log: AuditLog,
    private readonly clock: () => number,
    private readonly documents: DocumentSandbox,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  async list(
    auth: AuthContext,
    query: {
      orgId?: string | undefined;
      yearId?: string | undefined;
      classId?: string | undefined;
      keyword?: string | undefined;
      graduated?: boolean | undefined;
      page: number;
      size: number;
    },
  ) {
    let orgId: string;
    if (query.classId) {
      const klass = await this.repo.years.findClass(query.classId);
      orgId = (await this.school.access.memberOfRow(auth, klass?.orgId, SCHOOL_MESSAGES.classNotFound)).orgId;
    } else if (query.yearId) {
      const year = await this.repo.years.findYear(query.yearId);
      orgId = (await this.school.access.memberOfRow(auth, year?.orgId, SCHOOL_MESSAGES.yearNotFound)).orgId;
    } else {
      orgId = (await this.school.access.member(auth, query.orgId)).orgId;
    }
    const { rows, total } = await this.repo.students.pageStudents(
      {
        orgId,
        yearId: query.yearId,
        classId: query.classId,
        keyword: query.keyword,
        graduated: query.graduated,
      },
      query.page,
      query.size,
    );
    return { records: rows.map(presentStudent), total, page: query.page, size: query.size };
  }

  private async student(studentId: string): Promise<Student> {
    const row = await this.repo.students.findStudent(studentId);
    if (!row) throw notFound(SCHOOL_MESSAGES.studentNotFound);
    return presentStudent(row);
  }

  async create(
    auth: AuthContext,
    input: { classId: string; name: string; studentNo: string; gender?: Gender | null | undefined },
  ): Promise<Student> {
    const klass = await this.repo.years.findClass(input.classId);
    const actor = await this.school.access.adminOfRow(auth, klass?.orgId, SCHOOL_MESSAGES.classNotFound);
    if (klass!.yearArchived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    if ((await this.repo.students.takenStudentNumbers(actor.orgId, [input.studentNo])).size > 0)
      throw new AppError('CONFLICT', SCHOOL_MESSAGES.studentNoTaken(input.studentNo));
    const id = newId();
    try {
      await this.repo.transaction(async (repo) => {
        await repo.students.insertStudents([
          {
            id,
            orgId: actor.orgId,
            classId: klass!.id,
            name: input.name,
            studentNo: input.studentNo,
            gender: input.gender ?? null,
            createdAt: this.now(),
          },
        ]);
        await this.log.record(
          repo,
          actor,
          'student.create',
          id,
          `${klass!.name} ${input.name}（${input.studentNo}）`,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('CONFLICT', SCHOOL_MESSAGES.studentNoTaken(input.studentNo));
      throw error;
    }
    return this.student(id);
  }

  async update(
    auth: AuthContext,
    studentId: string,
    input: {
      name?: string | undefined;
      studentNo?: string | undefined;
      gender?: Gender | null | undefined;
    },
  ): Promise<Student> {
    const row = await this.repo.students.findStudent(studentId);
    const actor = await this.school.access.adminOfRow(auth, row?.orgId, SCHOOL_MESSAGES.studentNotFound);
    const set: StudentChange = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.gender !== undefined) set.gender = input.gender;
    if (input.studentNo !== undefined && input.studentNo !== row!.studentNo) {
      if ((await this.repo.students.takenStudentNumbers(actor.orgId, [input.studentNo], row!.id)).size > 0)
        throw new AppError('CONFLICT', SCHOOL_MESSAGES.studentNoTaken(input.studentNo));
      set.studentNo = input.studentNo;
    }
    try {
      await this.repo.transaction(async (repo) => {
        await repo.students.updateStudent(row!.id, set);
        await this.log.record(repo, actor, 'student.update', row!.id, `${row!.name}（${row!.studentNo}）`);
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('CONFLICT', SCHOOL_MESSAGES.studentNoTaken(set.studentNo ?? ''));
      throw error;
    }
    return this.student(row!.id);
  }

  /** Moves students into a class of the same school; answers per student. */
  async move(auth: AuthContext, input: { studentIds: string[]; classId: string }) {
    const klass = await this.repo.years.findClass(input.classId);
    const actor = await this.school.access.adminOfRow(auth, klass?.orgId, SCHOOL_MESSAGES.classNotFound);
    if (klass!.yearArchived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    const ids = [...new Set(input.studentIds)];
    const found = new Map((await this.repo.students.studentsIn(actor.orgId, ids)).map((s) => [s.id, s]));
    const moved: string[] = [];
    const failed: { id: string; message: string }[] = [];
    await this.repo.transaction(async (repo) => {
      for (const id of ids) {
        const s = found.get(id);
        if (!s) failed.push({ id, message: SCHOOL_MESSAGES.studentNotFound });
        else if (s.graduatedAt) failed.push({ id, message: SCHOOL_MESSAGES.studentGraduated });
        else if (s.classId === klass!.id) failed.push({ id, message: SCHOOL_MESSAGES.sameClass });
        else {
          await repo.students.updateStudent(id, { classId: klass!.id });
          moved.push(id);
        }
      }
      if (moved.length > 0)
        await this.log.record(repo, actor, 'student.move', klass!.id, T.moved(moved.length, klass!.name));
    });
    return { moved, failed };
  }

  /** The empty template: the student sheet with its headers, and a sheet of notes. */
  template(): Promise<Buffer> {
    return writeXlsx([
      studentSheet([]),
      { name: T.notesSheet, columns: [{ header: '', width: 90 }], rows: NOTES, plain: true },
    ]);
  }

  /** One class's students as a workbook, and its file name. */
  async export(auth: AuthContext, classId: string): Promise<{ data: Buffer; filename: string }> {
    const klass = await this.repo.years.findClass(classId);
    await this.school.access.memberOfRow(auth, klass?.orgId, SCHOOL_MESSAGES.classNotFound);
    const students = await this.repo.students.studentsOfClass(classId);
    const data = await writeXlsx([
      studentSheet(students.map((s) => [s.name, s.studentNo, s.className, s.gender])),
    ]);
    return { data, filename: T.exportFile(klass!.yearName, klass!.name) };
  }

  /**
   * Imports a sheet of students into the classes of one school year: every row is checked first (required fields,
   * formats, numbers repeated in the file or already in the school, unknown classes), and any error refuses the whole
   * file with every row's message (400, data.errors). Otherwise all rows go in one transaction.
   */
  async import(auth: AuthContext, file: Uint8Array, options: ImportOptions) {
    const year = await this.repo.years.findYear(options.yearId);
    const actor = await this.school.access.adminOfRow(auth, year?.orgId, SCHOOL_MESSAGES.yearNotFound);
    if (year!.archived) throw new AppError('CONFLICT', SCHOOL_MESSAGES.yearArchived);
    const classes = await this.repo.years.listClasses(year!.id);
    let fallbackClass: string | undefined;
    if (options.classId) {
      const klass = classes.find((c) => c.id === options.classId);
      if (!klass) throw notFound(SCHOOL_MESSAGES.classNotFound);
      fallbackClass = klass.name;
    }
    const sheet = await this.readSheet(file);
    const col = importColumns(sheet[0], fallbackClass);
    const body = sheet.slice(1);
    if (body.length === 0) throw new AppError('VALIDATION', SCHOOL_MESSAGES.importEmpty);
    const check = checkRows(body, col, { classes, fallbackClass, options, yearName: year!.name });
    const taken = await this.repo.students.takenStudentNumbers(
      actor.orgId,
      check.parsed.map((p) => p.studentNo),
    );
    for (const p of check.parsed)
      if (taken.has(p.studentNo)) check.fail(p.row, SCHOOL_MESSAGES.studentNoTaken(p.studentNo));
    const { errors, parsed } = check;
    if (errors.length > 0) {
      errors.sort((a, b) => a.row - b.row);
      const rows = new Set(errors.map((e) => e.row)).size;
      throw new AppError('VALIDATION', SCHOOL_MESSAGES.importFailed(rows), { data: { errors } });
    }
    const created = await this.saveImport(actor, year!, classes, check);
    const counts = new Map<string, number>();
    for (const p of parsed) counts.set(p.className, (counts.get(p.className) ?? 0) + 1);
    const ids = new Map([
      ...classes.map((c) => [c.name, c.id] as const),
      ...created.map((c) => [c.name, c.id] as const),
    ]);
    return {
      imported: parsed.length,
      createdClasses: created,
      classes: [...counts].map(([name, count]) => ({ id: ids.get(name)!, name, count })),
    };
  }

  /** The checked rows in one transaction: the missing classes first, then the students; the classes it created. */
  private async saveImport(
    actor: Actor,
    year: { id: string; name: string },
    classes: { id: string; name: string }[],
    { parsed, toCreate }: CheckedRows,
  ): Promise<{ id: string; name: string }[]> {
    const now = this.now();
    const created: { id: string; name: string }[] = [];
    const stages = new Map<string, string>();
    for (const name of toCreate) stages.set(name, await this.school.stageFor(undefined, gradeFromName(name)));
    try {
      await this.repo.transaction(async (repo) => {
        let sort = await repo.years.nextClassSort(year.id);
        const newClasses: NewClass[] = [];
        for (const name of toCreate) {
          const id = newId();
          created.push({ id, name });
          newClasses.push({
            id,
            orgId: actor.orgId,
            yearId: year.id,
            stageId: stages.get(name)!,
            name,
            grade: gradeFromName(name),
            sort: sort++,
            createdAt: now,
          });
        }
        await repo.years.insertClasses(newClasses);
        const classId = new Map([
          ...classes.map((c) => [c.name, c.id] as const),
          ...created.map((c) => [c.name, c.id] as const),
        ]);
        await repo.students.insertStudents(
          parsed.map((p) => ({
            id: newId(),
            orgId: actor.orgId,
            classId: classId.get(p.className)!,
            name: p.name,
            studentNo: p.studentNo,
            gender: p.gender,
            createdAt: now,
          })),
        );
        await this.log.record(
          repo,
          actor,
          'student.import',
          year.id,
          T.imported(
            year.name,
            parsed.length,
            created.map((c) => c.name),
          ),
        );
      });
    } catch (error) {
      // Another import took a number between the check and the insert: still nothing was imported.
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', T.numberTakenMeanwhile);
      throw error;
    }
    return created;
  }

  private async readSheet(file: Uint8Array) {
    try {
      // Read in the document sandbox: the zip guard and the XML parser never run on the host's event loop.
      return await this.documents.run('readFirstSheet', [file, STUDENT_IMPORT_LIMITS.maxRows + 1]);
    } catch (error) {
      if (error instanceof SandboxLimitError) throw limitRefusal(error);
      if (!(error instanceof XlsxError))
        throw new AppError('VALIDATION', SCHOOL_MESSAGES.importNotXlsx, { detail: String(error) });
      if (error.reason === 'tooManyRows')
        throw new AppError('VALIDATION', SCHOOL_MESSAGES.importTooManyRows(STUDENT_IMPORT_LIMITS.maxRows));
      if (error.reason === 'tooLarge')
        throw new AppError('PAYLOAD_TOO_LARGE', SCHOOL_MESSAGES.importTooLarge);
      if (error.reason === 'inflatesTooLarge')
        throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.archiveTooLarge, { detail: error.message });
      throw new AppError('VALIDATION', SCHOOL_MESSAGES.importNotXlsx, { detail: error.message });
    }
  }
}

/** Where each column of the import is (−1 when absent); refuses an empty sheet or one missing a needed header. */
function importColumns(header: SheetRow | undefined, fallbackClass: string | undefined): ImportColumns {
  if (!header) throw new AppError('VALIDATION', SCHOOL_MESSAGES.importEmpty);
  const at = (name: string) => header.cells.findIndex((c) => c.trim() === name);
  const [NAME, NO, CLASS, GENDER] = STUDENT_COLUMNS;
  const col = { name: at(NAME), no: at(NO), klass: at(CLASS), gender: at(GENDER) };
  const headers: (string | null)[] = [
    col.name < 0 ? NAME : null,
    col.no < 0 ? NO : null,
    col.klass < 0 && !fallbackClass ? CLASS : null,
  ];
  const missing = headers.filter((x): x is string => x !== null);
  if (missing.length > 0)
    throw new AppError('VALIDATION', SCHOOL_MESSAGES.importMissingHeader(missing.join(T.listSeparator)));
  return col;
}

/** The import's rows checked: the good ones, every row's errors, and the classes to create. */
interface CheckedRows {
  parsed: ParsedRow[];
  errors: RowError[];
  fail: (row: number, message: string) => void;
  toCreate: Set<string>;
}

/** Checks each row: required fields, formats, numbers repeated in the file, classes not in the year. */
function checkRows(
  body: SheetRow[],
  col: ImportColumns,
  context: {
    classes: { name: string }[];
    fallbackClass: string | undefined;
    options: ImportOptions;
    yearName: string;
  },
): CheckedRows {
  const errors: RowError[] = [];
  const fail = (row: number, message: string) => errors.push({ row, message: T.rowError(row, message) });
  const byName = new Map(context.classes.map((c) => [c.name, c]));
  const firstRowOf = new Map<string, number>();
  const toCreate = new Set<string>();
  const parsed: ParsedRow[] = [];
  for (const { row, cells } of body) {
    const cell = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const name = cell(col.name);
    const studentNo = cell(col.no);
    const className = cell(col.klass) || context.fallbackClass || '';
    const genderText = cell(col.gender);
    let ok = true;
    const bad = (message: string) => {
      ok = false;
      fail(row, message);
    };
    if (!name) bad(SCHOOL_MESSAGES.studentNameRequired);
    else if (name.length > 20) bad(T.nameTooLong);
    if (!studentNo) bad(SCHOOL_MESSAGES.studentNoRequired);
    else if (!STUDENT_NO_PATTERN.test(studentNo)) bad(T.badStudentNo(studentNo));
    else if (firstRowOf.has(studentNo)) bad(T.repeatedStudentNo(studentNo, firstRowOf.get(studentNo)));
    else firstRowOf.set(studentNo, row);
    const gender = genderText ? GenderSchema.safeParse(genderText) : null;
    if (gender && !gender.success) bad(T.badGender(genderText));
    if (!className) bad(T.classRequired);
    else if (className.length > 30) bad(T.classNameTooLong);
    else if (!byName.has(className)) {
      if (context.options.createMissingClasses) toCreate.add(className);
      else bad(T.classNotInYear(className, context.yearName));
    }
    if (ok) parsed.push({ row, name, studentNo, className, gender: gender?.success ? gender.data : null });
  }
  return { parsed, errors, fail, toCreate };
}
