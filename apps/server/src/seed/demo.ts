import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuthContext } from '../lib/call.js';
import { GIVEN_NAMES, SURNAMES } from './data/names.js';
import { createSchool, type SchoolSpec, type StudentSpec } from './school.js';

/** The demo accounts listed in the README. */
export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_ACCOUNTS = {
  teacher: 'demo-teacher',
  director: 'demo-director',
  admin: 'demo-admin',
} as const;
export const DEMO_SCHOOL_NAME = '演示学校';

/** A small deterministic PRNG (mulberry32) so every fresh start seeds the same names. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct Chinese names for one class, with genders. */
export function makeStudents(
  random: () => number,
  count: number,
  numberPrefix: string,
  taken: Set<string>,
): StudentSpec[] {
  const out: StudentSpec[] = [];
  while (out.length < count) {
    const surname = SURNAMES[Math.floor(random() * SURNAMES.length)]!;
    const given = GIVEN_NAMES[Math.floor(random() * GIVEN_NAMES.length)]!;
    const name = surname + given;
    if (taken.has(name)) continue;
    taken.add(name);
    const seat = String(out.length + 1).padStart(2, '0');
    out.push({ name, studentNo: `${numberPrefix}${seat}`, gender: random() < 0.5 ? '男' : '女' });
  }
  return out;
}

/** 演示学校: two school years, six classes of 40 students, and the three demo accounts. */
export function demoSchoolSpec(): SchoolSpec {
  const random = seededRandom(20_260_901);
  const taken = new Set<string>();
  const classes = [7, 8].flatMap((grade) =>
    [1, 2, 3].map((n) => ({
      name: `${grade === 7 ? '七' : '八'}年级(${n})班`,
      students: makeStudents(
        random,
        40,
        `2026${String(grade).padStart(2, '0')}${String(n).padStart(2, '0')}`,
        taken,
      ),
    })),
  );
  return {
    name: DEMO_SCHOOL_NAME,
    years: [
      { name: '2025-2026学年', classes: [] },
      { name: '2026-2027学年', isDefault: true, classes },
    ],
    users: [
      { username: DEMO_ACCOUNTS.teacher, password: DEMO_PASSWORD, nickname: '王老师' },
      {
        username: DEMO_ACCOUNTS.director,
        password: DEMO_PASSWORD,
        nickname: '李主任',
        isGradeDirector: true,
      },
      {
        username: DEMO_ACCOUNTS.admin,
        password: DEMO_PASSWORD,
        nickname: '张校长',
        isCreator: true,
        isAdministrator: true,
      },
    ],
  };
}

/** Seeds 演示学校 once, on the first start of a database; false when it was already there. */
export async function seedDemoSchool(db: Kysely<Database>, clock: () => number = Date.now): Promise<boolean> {
  const done = await db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'demo_seeded')
    .executeTakeFirst();
  if (done) return false;
  await createSchool(db, demoSchoolSpec(), clock);
  await db
    .insertInto('meta')
    .values({ key: 'demo_seeded', value: new Date(clock()).toISOString() })
    .execute();
  return true;
}

/** A demo account acting in 演示学校, as seeds act through the services: a seed session. */
export async function demoMember(db: Kysely<Database>, username: string) {
  const member = await db
    .selectFrom('users as u')
    .innerJoin('memberships as m', 'm.user_id', 'u.id')
    .innerJoin('orgs as o', 'o.id', 'm.org_id')
    .select(['u.id', 'u.username', 'm.org_id', 'm.is_creator', 'm.is_administrator', 'm.is_grade_director'])
    .where('u.username', '=', username)
    .where('o.name', '=', DEMO_SCHOOL_NAME)
    .executeTakeFirst();
  if (!member) return null;
  const auth: AuthContext = {
    userId: member.id,
    username: member.username,
    sessionId: 'seed',
    orgId: member.org_id,
    isCreator: member.is_creator === 1,
    isAdministrator: member.is_administrator === 1,
    isGradeDirector: member.is_grade_director === 1,
  };
  return { auth };
}
