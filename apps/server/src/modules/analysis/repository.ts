import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { compareClassNames, sortByClassName } from '@zhzy/contracts';

// What analysis reads: homework with their frozen papers, classes and students, sheets and answers (written by the
// results spine), the score log, and the school's analysis settings (the only table analysis writes). Every read is
// scoped by school here; rows never leave the analysis service.

type Db = Kysely<Database>;

export interface HomeworkFilter {
  orgId: string;
  yearId?: string | undefined;
  subjectId?: string | undefined;
  classId?: string | undefined;
  type?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  ids?: string[] | undefined;
}

/** Splits a list into chunks (IN lists stay under every database's parameter limit). */
export function chunked<T>(rows: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export class AnalysisRepository {
  constructor(private readonly db: Db) {}

  // ───────────── settings ─────────────

  settingsOf(orgId: string) {
    return this.db.selectFrom('analysis_settings').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  }

  async saveSettings(orgId: string, settings: string, userId: string, now: string): Promise<void> {
    const updated = await this.db
      .updateTable('analysis_settings')
      .set({ settings, updated_by: userId, updated_at: now })
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      await this.db
        .insertInto('analysis_settings')
        .values({ org_id: orgId, settings, updated_by: userId, updated_at: now })
        .execute();
  }

  // ───────────── school ─────────────

  membership(orgId: string, userId: string) {
    return this.db
      .selectFrom('memberships')
      .select(['is_creator', 'is_administrator', 'is_grade_director', 'default_year_id'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  org(orgId: string) {
    return this.db
      .selectFrom('orgs')
      .select(['id', 'name', 'logo_path', 'time_zone'])
      .where('id', '=', orgId)
      .executeTakeFirst();
  }

  schoolYears(orgId: string) {
    return this.db
      .selectFrom('school_years')
      .select(['id', 'name', 'is_default'])
      .where('org_id', '=', orgId)
      .orderBy('sort')
      .execute();
  }

  classesOfYear(orgId: string, yearId: string) {
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

  findClass(orgId: string, classId: string) {
    return this.db
      .selectFrom('classes')
      .select(['id', 'name', 'year_id'])
      .where('org_id', '=', orgId)
      .where('id', '=', classId)
      .executeTakeFirst();
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
  async studentsOfClasses(classIds: string[]) {
    const rows = [];
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
          .execute()),
      );
    }
    return rows.sort(
      (a, b) =>
        compareClassNames(a.class_name, b.class_name) ||
        a.student_no.localeCompare(b.student_no) ||
        a.id.localeCompare(b.id),
    );
  }

  findStudent(orgId: string, studentId: string) {
    return this.db
      .selectFrom('students as s')
      .innerJoin('classes as c', 'c.id', 's.class_id')
      .select(['s.id', 's.name', 's.student_no', 's.class_id', 'c.name as class_name', 'c.year_id'])
      .where('s.org_id', '=', orgId)
      .where('s.id', '=', studentId)
      .executeTakeFirst();
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

  // ───────────── homework ─────────────

  findHomework(orgId: string, id: string) {
    return this.homeworkQuery(orgId).select('h.paper_snapshot').where('h.id', '=', id).executeTakeFirst();
  }

  private homeworkQuery(orgId: string) {
    return this.db
      .selectFrom('homework as h')
      .innerJoin('subjects as sub', 'sub.id', 'h.subject_id')
      .innerJoin('stages as st', 'st.id', 'h.stage_id')
      .leftJoin('users as u', 'u.id', 'h.created_by')
      .select([
        'h.id',
        'h.org_id',
        'h.year_id',
        'h.type',
        'h.title',
        'h.subject_id',
        'h.start_date',
        'h.due_date',
        'h.question_count',
        'h.total_score_tenths',
        'h.created_at',
        'sub.name as subject_name',
        'st.name as stage_name',
        'u.nickname as creator_nickname',
        'u.username as creator_username',
      ])
      .where('h.org_id', '=', orgId)
      .where('h.deleted_at', 'is', null);
  }

  /** Homework of a school matching a filter, newest start first (ties: newest created). */
  listHomework(f: HomeworkFilter, limit?: number) {
    let q = this.homeworkQuery(f.orgId);
    if (f.yearId) q = q.where('h.year_id', '=', f.yearId);
    if (f.subjectId) q = q.where('h.subject_id', '=', f.subjectId);
    if (f.type) q = q.where('h.type', '=', f.type);
    if (f.from) q = q.where('h.due_date', '>=', f.from);
    if (f.to) q = q.where('h.start_date', '<=', f.to);
    if (f.ids) q = f.ids.length ? q.where('h.id', 'in', f.ids) : q.where('h.id', '=', '');
    if (f.classId) {
      const classId = f.classId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('homework_classes as hc')
            .select('hc.class_id')
            .whereRef('hc.homework_id', '=', 'h.id')
            .where('hc.class_id', '=', classId),
        ),
      );
    }
    q = q.orderBy('h.start_date', 'desc').orderBy('h.created_at', 'desc').orderBy('h.id', 'desc');
    if (limit !== undefined) q = q.limit(limit);
    return q.execute();
  }

  snapshotsOf(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('homework').select(['id', 'paper_snapshot']).where('id', 'in', ids).execute();
  }

  /** Classes of homework, in publication order. */
  async classesOfHomework(homeworkIds: string[]) {
    const rows = [];
    for (const ids of chunked(homeworkIds)) {
      rows.push(
        ...(await this.db
          .selectFrom('homework_classes as hc')
          .innerJoin('classes as c', 'c.id', 'hc.class_id')
          .select(['hc.homework_id', 'hc.class_id', 'hc.sort', 'c.name', 'c.sort as class_sort'])
          .where('hc.homework_id', 'in', ids)
          .execute()),
      );
    }
    return rows.sort((a, b) => compareClassNames(a.name, b.name) || a.sort - b.sort);
  }

  // ───────────── results (sheets and answers are read through the results spine, ADR 0051) ─────────────

  /** The student of each sheet of one homework. */
  sheetStudents(homeworkId: string) {
    return this.db
      .selectFrom('sheets')
      .select(['id', 'student_id'])
      .where('homework_id', '=', homeworkId)
      .execute();
  }

  /** Totals of the sheets of several homework (trends), optionally of some students only. */
  async sheetTotals(homeworkIds: string[], studentIds?: string[]) {
    const rows = [];
    for (const ids of chunked(homeworkIds, 200)) {
      let q = this.db
        .selectFrom('sheets')
        .select([
          'homework_id',
          'student_id',
          'class_id',
          'total_score_tenths',
          'unscored_count',
          'created_at',
        ])
        .where('homework_id', 'in', ids);
      if (studentIds) q = q.where('student_id', 'in', studentIds);
      rows.push(...(await q.execute()));
    }
    return rows;
  }

  /**
   * Totals of the fully scored sheets of several homework (trend points, previous score rates): only those sheets
   * and the four columns these read, so the grade across 20 homework decodes less than before (ADR 0033).
   */
  async scoredTotals(homeworkIds: string[]) {
    const rows = [];
    for (const ids of chunked(homeworkIds, 200))
      rows.push(
        ...(await this.db
          .selectFrom('sheets')
          .select(['homework_id', 'student_id', 'class_id', 'total_score_tenths'])
          .where('homework_id', 'in', ids)
          .where('unscored_count', '=', 0)
          .execute()),
      );
    return rows;
  }

  /** Sheets still being marked (some answer unscored) per homework and class (trend points' 阅卷中). */
  async pendingSheets(homeworkIds: string[]) {
    const rows: { homework_id: string; class_id: string; n: number }[] = [];
    for (const ids of chunked(homeworkIds, 200))
      for (const r of await this.db
        .selectFrom('sheets')
        .select(['homework_id', 'class_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('homework_id', 'in', ids)
        .where('unscored_count', '>', 0)
        .groupBy(['homework_id', 'class_id'])
        .execute())
        rows.push({ homework_id: r.homework_id, class_id: r.class_id, n: Number(r.n) });
    return rows;
  }

  /** Answers of one student across homework (student analysis, 错题本). */
  studentAnswers(studentId: string, homeworkIds: string[]) {
    if (homeworkIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select([
        'a.homework_id',
        'a.question_id',
        'a.response',
        'a.blank',
        'a.crop_path',
        'a.score_tenths',
        'a.full_score_tenths',
      ])
      .where('s.student_id', '=', studentId)
      .where('a.homework_id', 'in', homeworkIds)
      .execute();
  }

  /** Score sums per (homework, question) over all sheets: grade rates of questions. */
  async questionSums(homeworkIds: string[]) {
    const rows = [];
    for (const ids of chunked(homeworkIds, 200)) {
      rows.push(
        ...(await this.db
          .selectFrom('sheet_answers')
          .select((eb) => [
            'homework_id',
            'question_id',
            eb.fn.sum<number>('score_tenths').as('scored'),
            eb.fn.sum<number>('full_score_tenths').as('full'),
          ])
          .where('homework_id', 'in', ids)
          .where('score_tenths', 'is not', null)
          .groupBy(['homework_id', 'question_id'])
          .execute()),
      );
    }
    return rows;
  }

  findAnswer(orgId: string, homeworkId: string, studentId: string, questionId: string) {
    return this.db
      .selectFrom('sheet_answers as a')
      .innerJoin('sheets as s', 's.id', 'a.sheet_id')
      .select(['a.crop_path'])
      .where('s.org_id', '=', orgId)
      .where('s.homework_id', '=', homeworkId)
      .where('s.student_id', '=', studentId)
      .where('a.question_id', '=', questionId)
      .executeTakeFirst();
  }

  /** The score log of a homework with a user (markers), oldest first. */
  markerChanges(homeworkId: string) {
    return this.db
      .selectFrom('score_changes')
      .select(['sheet_id', 'question_id', 'user_id', 'after_score_tenths', 'created_at'])
      .where('homework_id', '=', homeworkId)
      .where('user_id', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Activity of a school since a moment: sheets received, answers scored, homework published. */
  async activitySince(orgId: string, since: string) {
    const [sheets, scored, published] = await Promise.all([
      this.db
        .selectFrom('sheets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('created_at', '>=', since)
        .executeTakeFirst(),
      this.db
        .selectFrom('score_changes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('created_at', '>=', since)
        .where('after_score_tenths', 'is not', null)
        .executeTakeFirst(),
      this.db
        .selectFrom('homework')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('deleted_at', 'is', null)
        .where('created_at', '>=', since)
        .executeTakeFirst(),
    ]);
    return {
      sheets: Number(sheets?.n ?? 0),
      scored: Number(scored?.n ?? 0),
      published: Number(published?.n ?? 0),
    };
  }

  /** The last score change per homework (when a homework was finished). */
  async lastScoredAt(homeworkIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const ids of chunked(homeworkIds, 200)) {
      const rows = await this.db
        .selectFrom('score_changes')
        .select((eb) => ['homework_id', eb.fn.max('created_at').as('at')])
        .where('homework_id', 'in', ids)
        .groupBy('homework_id')
        .execute();
      for (const r of rows) if (r.at) out.set(r.homework_id, String(r.at));
    }
    return out;
  }

  /** Answers still waiting and answers received per homework (marking rates). */
  async answerCounts(homeworkIds: string[]) {
    const out = new Map<string, { unscored: number; sheets: number; scoredSheets: number }>();
    for (const ids of chunked(homeworkIds, 200)) {
      const rows = await this.db
        .selectFrom('sheets')
        .select((eb) => [
          'homework_id',
          eb.fn.countAll<number>().as('sheets'),
          eb.fn.sum<number>('unscored_count').as('unscored'),
          eb.fn
            .sum<number>(eb.case().when('unscored_count', '=', 0).then(1).else(0).end())
            .as('scored_sheets'),
        ])
        .where('homework_id', 'in', ids)
        .groupBy('homework_id')
        .execute();
      for (const r of rows)
        out.set(r.homework_id, {
          unscored: Number(r.unscored ?? 0),
          sheets: Number(r.sheets),
          scoredSheets: Number(r.scored_sheets ?? 0),
        });
    }
    return out;
  }
}
