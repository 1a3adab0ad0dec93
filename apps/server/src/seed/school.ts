import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { hashPassword } from '../lib/passwords.js';
import { STAGE_JUNIOR, chunks } from './catalog.js';

export interface StudentSpec {
  name: string;
  studentNo: string;
  gender: '男' | '女' | null;
}

export interface SchoolSpec {
  name: string;
  years: {
    name: string;
    isDefault?: boolean;
    classes: { name: string; students: StudentSpec[] }[];
  }[];
  users: {
    username: string;
    password: string;
    nickname: string;
    isCreator?: boolean;
    isAdministrator?: boolean;
    isGradeDirector?: boolean;
  }[];
}

export interface CreatedSchool {
  orgId: string;
  yearIds: string[];
  classIds: string[];
  userIds: Record<string, string>;
}

/** Creates a school with its years, classes, students and member accounts (the demo seed and test factories). */
export async function createSchool(
  db: Kysely<Database>,
  spec: SchoolSpec,
  clock: () => number = Date.now,
): Promise<CreatedSchool> {
  const now = new Date(clock()).toISOString();
  const orgId = newId();
  const hashes = await Promise.all(spec.users.map((u) => hashPassword(u.password)));
  const created: CreatedSchool = { orgId, yearIds: [], classIds: [], userIds: {} };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('orgs')
      .values({ id: orgId, name: spec.name, logo_path: null, created_at: now, updated_at: now })
      .execute();
    const students = await insertYearsAndClasses(trx, spec, created, now);
    for (const batch of chunks(students)) await trx.insertInto('students').values(batch).execute();
    for (const [i, user] of spec.users.entries()) await insertMember(trx, user, hashes[i]!, created, now);
  });
  return created;
}

/** The school's years and their classes (ids recorded in `created`); the rows of their students, to insert. */
async function insertYearsAndClasses(
  trx: Transaction<Database>,
  spec: SchoolSpec,
  created: CreatedSchool,
  now: string,
): Promise<Database['students'][]> {
  const { orgId } = created;
  const students: Database['students'][] = [];
  for (const [yi, year] of spec.years.entries()) {
    const yearId = newId();
    created.yearIds.push(yearId);
    await trx
      .insertInto('school_years')
      .values({
        id: yearId,
        org_id: orgId,
        name: year.name,
        is_default: year.isDefault ? 1 : 0,
        archived: 0,
        sort: yi + 1,
        created_at: now,
      })
      .execute();
    for (const [ci, klass] of year.classes.entries()) {
      const classId = newId();
      created.classIds.push(classId);
      await trx
        .insertInto('classes')
        .values({
          id: classId,
          org_id: orgId,
          year_id: yearId,
          stage_id: STAGE_JUNIOR,
          name: klass.name,
          sort: ci + 1,
          created_at: now,
        })
        .execute();
      for (const s of klass.students) {
        students.push({
          id: newId(),
          org_id: orgId,
          class_id: classId,
          name: s.name,
          student_no: s.studentNo,
          gender: s.gender,
          created_at: now,
        });
      }
    }
  }
  return students;
}

/** A member account of the school: its user (id recorded in `created`) and its membership with the spec's roles. */
async function insertMember(
  trx: Transaction<Database>,
  user: SchoolSpec['users'][number],
  passwordHash: string,
  created: CreatedSchool,
  now: string,
): Promise<void> {
  const userId = newId();
  created.userIds[user.username] = userId;
  await trx
    .insertInto('users')
    .values({
      id: userId,
      username: user.username,
      password_hash: passwordHash,
      nickname: user.nickname,
      avatar: null,
      phone: null,
      default_org_id: created.orgId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await trx
    .insertInto('memberships')
    .values({
      id: newId(),
      org_id: created.orgId,
      user_id: userId,
      is_creator: user.isCreator ? 1 : 0,
      is_administrator: user.isAdministrator ? 1 : 0,
      is_grade_director: user.isGradeDirector ? 1 : 0,
      default_year_id: null,
      created_at: now,
    })
    .execute();
}
