import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { SUBJECT_IDS } from '../../seed/catalog.js';
import { DEMO_ACCOUNTS, DEMO_SCHOOL_NAME } from '../../seed/demo.js';

const SEEDED_KEY = 'school_demo_seeded';

/**
 * Gives 演示学校 what the personal centre and the team views show: its creator, demo-teacher teaching 数学 in
 * 七年级(1)班 and 七年级(2)班 of the default year, demo-director directing 七年级, and two teaching groups
 * (七年级数学备课组 led by demo-teacher, 数学教研组 led by demo-director). Runs once per database (keyed by meta),
 * after the demo seed; false when done before or when there is no demo school.
 */
export async function seedSchoolDemo(db: Kysely<Database>, clock: () => number = Date.now): Promise<boolean> {
  const done = await db.selectFrom('meta').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
  if (done) return false;
  const school = await loadDemoSchool(db);
  if (!school) return false;
  const now = new Date(clock()).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('orgs').set({ created_by: school.admin }).where('id', '=', school.orgId).execute();
    await setGrades(trx, school.orgId);
    await assignTeaching(trx, school, now);
    await createTeachingGroups(trx, school, now);
    await trx.insertInto('meta').values({ key: SEEDED_KEY, value: now }).execute();
  });
  return true;
}

/** 演示学校's id, its three demo accounts and 七年级(1)班, 七年级(2)班 of the default year (none without one). */
interface DemoSchool {
  orgId: string;
  teacher: string;
  director: string;
  admin: string;
  classes: { id: string; name: string }[];
}

async function loadDemoSchool(db: Kysely<Database>): Promise<DemoSchool | null> {
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', DEMO_SCHOOL_NAME)
    .executeTakeFirst();
  if (!org) return null;
  const users = await db
    .selectFrom('users as u')
    .innerJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.org_id', '=', org.id))
    .select(['u.id', 'u.username'])
    .where('u.username', 'in', Object.values(DEMO_ACCOUNTS))
    .execute();
  const id = (username: string) => users.find((u) => u.username === username)?.id;
  const teacher = id(DEMO_ACCOUNTS.teacher);
  const director = id(DEMO_ACCOUNTS.director);
  const admin = id(DEMO_ACCOUNTS.admin);
  if (!teacher || !director || !admin) return null;
  const year = await db
    .selectFrom('school_years')
    .select('id')
    .where('org_id', '=', org.id)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  const classes = year
    ? await db
        .selectFrom('classes')
        .select(['id', 'name'])
        .where('year_id', '=', year.id)
        .where('name', 'in', ['七年级(1)班', '七年级(2)班'])
        .orderBy('sort')
        .execute()
    : [];
  return { orgId: org.id, teacher, director, admin, classes };
}

/** Classes without a grade take it from their name (七年级…, 八年级…). */
async function setGrades(trx: Transaction<Database>, orgId: string): Promise<void> {
  for (const grade of ['七年级', '八年级']) {
    await trx
      .updateTable('classes')
      .set({ grade })
      .where('org_id', '=', orgId)
      .where('grade', 'is', null)
      .where('name', 'like', `${grade}%`)
      .execute();
  }
}

/** demo-teacher teaches 数学 in the two classes; demo-director directs 七年级. */
async function assignTeaching(trx: Transaction<Database>, school: DemoSchool, now: string): Promise<void> {
  const { orgId, teacher, director, classes } = school;
  const math = SUBJECT_IDS.数学;
  await trx
    .insertInto('member_subjects')
    .values({ org_id: orgId, user_id: teacher, subject_id: math, sort: 1 })
    .execute();
  if (classes.length > 0) {
    await trx
      .insertInto('teaching_assignments')
      .values(classes.map((c) => ({ org_id: orgId, user_id: teacher, subject_id: math, class_id: c.id })))
      .execute();
  }
  await trx
    .insertInto('grade_directors')
    .values({ org_id: orgId, grade: '七年级', user_id: director, created_at: now })
    .execute();
}

/** 七年级数学备课组 led by demo-teacher; 数学教研组 led by demo-director with demo-teacher in it. */
async function createTeachingGroups(
  trx: Transaction<Database>,
  school: DemoSchool,
  now: string,
): Promise<void> {
  const { orgId, teacher, director } = school;
  const math = SUBJECT_IDS.数学;
  const lessonGroup = newId();
  const researchGroup = newId();
  await trx
    .insertInto('teaching_groups')
    .values([
      {
        id: lessonGroup,
        org_id: orgId,
        name: '七年级数学备课组',
        kind: 'preparation',
        subject_id: math,
        grade: '七年级',
        created_at: now,
        updated_at: now,
      },
      {
        id: researchGroup,
        org_id: orgId,
        name: '数学教研组',
        kind: 'research',
        subject_id: math,
        grade: null,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
  await trx
    .insertInto('teaching_group_members')
    .values([
      { group_id: lessonGroup, user_id: teacher, is_leader: 1, created_at: now },
      { group_id: researchGroup, user_id: director, is_leader: 1, created_at: now },
      { group_id: researchGroup, user_id: teacher, is_leader: 0, created_at: now },
    ])
    .execute();
}
