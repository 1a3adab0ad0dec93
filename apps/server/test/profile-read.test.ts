import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@zhzy/contracts';
import { newId } from '../src/lib/ids.js';
import { AccountRepository } from '../src/modules/account/repository.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';
import { call, dataOf, demoSchool, secondSchool, type DemoSchool } from './school-fixtures.js';

// Issue 25: the profile is read on every page a teacher opens; its account and schools come in one statement.

describe.each(DIALECTS)('the profile read on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  let teacherId: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    demo = await demoSchool(t);
    const second = await secondSchool(t);
    const db = t.testDb.db.kysely;
    teacherId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'demo-teacher')
        .executeTakeFirstOrThrow()
    ).id;
    // demo-teacher joins 第二中学 later, as its grade director.
    await db
      .insertInto('memberships')
      .values({
        id: newId(),
        org_id: second.orgId,
        user_id: teacherId,
        is_creator: 0,
        is_administrator: 0,
        is_grade_director: 1,
        default_year_id: second.yearId,
        created_at: '2999-01-01T00:00:00.000Z',
      })
      .execute();
  });
  afterAll(() => t.close());

  it('lists every school of the caller, oldest membership first, with the roles there', async () => {
    const me = dataOf<Profile>(await call(t, 'GET', '/system/account/profile', demo.teacher));
    expect(me.username).toBe('demo-teacher');
    expect(me.schools.map((s) => [s.name, s.isDefault, s.isAdministrator, s.isGradeDirector])).toEqual([
      ['演示学校', true, false, false],
      ['第二中学', false, false, true],
    ]);
  });

  it('reads the account with its schools in one statement', async () => {
    let statements = 0;
    const counted = t.testDb.db.kysely.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const found = await new AccountRepository(counted).findUserWithSchools(teacherId);
    expect(statements).toBe(1);
    expect(found?.account.username).toBe('demo-teacher');
    expect(found?.schools.map((s) => s.name)).toEqual(['演示学校', '第二中学']);
    expect(await new AccountRepository(counted).findUserWithSchools('nobody')).toBeUndefined();
  });
});
