import SQLite from 'better-sqlite3';
import pg from 'pg';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@zhzy/contracts';
import { hashToken } from '../src/lib/ids.js';
import { writesOf } from '../src/lib/write-watch.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/seed/demo.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';
import { call, dataOf, demoSchool, type DemoSchool } from './school-fixtures.js';

// ADR 0078: the bearer check keeps a verified token for VERIFIED_TOKEN_SECONDS instead of asking the database on
// every request; every write of the rows a caller depends on, by any module, drops the kept tokens at once.

describe('the write watch reads what a statement writes', () => {
  it('names the table, the kind and the updated columns of statements Kysely built, and the tables of raw SQL', async () => {
    const { Kysely, SqliteDialect } = await import('kysely');
    const db = new Kysely<Record<string, Record<string, unknown>>>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
    });
    expect(writesOf(db.selectFrom('users').selectAll().compile())).toEqual([]);
    expect(writesOf(db.insertInto('access_tokens').values({ a: 1 }).compile())).toEqual([
      { table: 'access_tokens', kind: 'insert', columns: null },
    ]);
    expect(
      writesOf(
        db.updateTable('memberships as m').set({ basket_version: 2 }).where('m.user_id', '=', 'u').compile(),
      ),
    ).toEqual([{ table: 'memberships', kind: 'update', columns: ['basket_version'] }]);
    expect(writesOf(db.deleteFrom('auth_sessions').where('id', '=', 's').compile())).toEqual([
      { table: 'auth_sessions', kind: 'delete', columns: null },
    ]);
    expect(
      writesOf(sql`UPDATE "users" SET disabled = 1 WHERE id = ${'u'}`.compile(db)).map((w) => w.table),
    ).toEqual(['users']);
    expect(writesOf(sql`select 1`.compile(db))).toEqual([]);
    await db.destroy();
  });
});

describe.each(DIALECTS)('verified tokens on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoSchool;
  let now = Date.parse('2026-11-29T08:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp({ dialect, clock: () => now });
    demo = await demoSchool(t);
  });
  afterAll(() => t.close());

  const info = (headers: Record<string, string>) => call(t, 'GET', '/system/user/info', headers);
  const fresh = async (username: string = DEMO_ACCOUNTS.teacher) =>
    bearer((await signIn(t.app, username)).access_token);
  /** The session of a bearer header's token. */
  const sessionOf = async (headers: Record<string, string>) =>
    (
      await t.testDb.db.kysely
        .selectFrom('access_tokens')
        .select('session_id')
        .where('token_hash', '=', hashToken(headers.authorization!.replace(/^Bearer /, '')))
        .executeTakeFirstOrThrow()
    ).session_id;

  /** Runs SQL on a connection of its own, which the host's write watch does not see (another process). */
  const elsewhere = async (text: string, params: unknown[]) => {
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: t.testDb.location });
      await client.connect();
      try {
        // No NOTIFY: only this host's own writes and its peers' announcements drop its kept tokens.
        await client.query(text, params);
      } finally {
        await client.end();
      }
    } else {
      const file = new SQLite(path.join(t.testDb.location, 'zhzy.sqlite'));
      try {
        file.prepare(text.replace(/\$\d+/g, '?')).run(...params);
      } finally {
        file.close();
      }
    }
  };

  it('keeps a verified token for VERIFIED_TOKEN_SECONDS and no longer: a change no write of this host told it of shows after that', async () => {
    expect(t.config.VERIFIED_TOKEN_SECONDS).toBe(10);
    const teacher = await fresh();
    expect((await info(teacher)).status).toBe(200);
    // The session is revoked behind the host's back (a connection it does not watch, without an announcement).
    const sessionId = await sessionOf(teacher);
    await elsewhere(`UPDATE auth_sessions SET revoked_at = $1, revoke_reason = $2 WHERE id = $3`, [
      new Date(now).toISOString(),
      'test',
      sessionId,
    ]);
    // Still believed within the kept time: the bearer check did not ask the database again.
    now += 9_000;
    expect((await info(teacher)).status).toBe(200);
    now += 1_001;
    expect((await info(teacher)).status).toBe(401);
  });

  it('refuses a signed-out token at once although it was kept', async () => {
    const teacher = await fresh();
    expect((await info(teacher)).status).toBe(200);
    expect((await call(t, 'DELETE', '/oauth/signout', teacher)).status).toBe(200);
    expect((await info(teacher)).status).toBe(401);
  });

  it("refuses the other sessions' tokens at once after a password change, and keeps the changing session's", async () => {
    const other = await fresh(DEMO_ACCOUNTS.director);
    const changing = await fresh(DEMO_ACCOUNTS.director);
    expect((await info(other)).status).toBe(200);
    expect((await info(changing)).status).toBe(200);
    const changed = await call(t, 'PUT', '/system/account/password', changing, {
      oldPassword: DEMO_PASSWORD,
      password: 'Changed@2026x',
      password2: 'Changed@2026x',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await info(other)).status).toBe(401);
    expect((await info(changing)).status).toBe(200);
    // Put back for the other tests.
    const back = await call(t, 'PUT', '/system/account/password', changing, {
      oldPassword: 'Changed@2026x',
      password: DEMO_PASSWORD,
      password2: DEMO_PASSWORD,
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
  });

  it("shows a role change at once to a kept token (the school module's write, not the auth module's)", async () => {
    const teacher = await fresh();
    const before = dataOf<UserInfo>(await info(teacher));
    expect(before.gradeInfo.isAdministrator).toBe(false);
    const id = demo.memberIds[DEMO_ACCOUNTS.teacher]!;
    const made = await call(t, 'PUT', `/school/team/member/${id}/roles`, demo.admin, {
      isAdministrator: true,
      grades: [],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(dataOf<UserInfo>(await info(teacher)).gradeInfo.isAdministrator).toBe(true);
    const unmade = await call(t, 'PUT', `/school/team/member/${id}/roles`, demo.admin, {
      isAdministrator: false,
      grades: [],
    });
    expect(unmade.status, JSON.stringify(unmade.body)).toBe(200);
    expect(dataOf<UserInfo>(await info(teacher)).gradeInfo.isAdministrator).toBe(false);
  });

  it('refuses a kept token at once when its account is disabled by any write through the host', async () => {
    const teacher = await fresh();
    expect((await info(teacher)).status).toBe(200);
    await t.app.db.kysely
      .updateTable('users')
      .set({ disabled: 1 })
      .where('username', '=', DEMO_ACCOUNTS.teacher)
      .execute();
    try {
      expect((await info(teacher)).status).toBe(401);
    } finally {
      await t.app.db.kysely
        .updateTable('users')
        .set({ disabled: 0 })
        .where('username', '=', DEMO_ACCOUNTS.teacher)
        .execute();
    }
    expect((await info(teacher)).status).toBe(200);
  });

  it('keeps the kept tokens through a basket change, and the basket read is still current', async () => {
    const teacher = await fresh();
    const basket = async () =>
      dataOf<{ sumCount: number }>(await call(t, 'GET', '/teacher/paper/info/getQuestionBasket', teacher));
    expect((await basket()).sumCount).toBe(0);
    // A basket change elsewhere (another instance): only its version row moves; the host reads it per basket read.
    const orgId = demo.orgId;
    const userId = (
      await t.testDb.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', DEMO_ACCOUNTS.teacher)
        .executeTakeFirstOrThrow()
    ).id;
    const question = await t.testDb.db.kysely
      .selectFrom('questions')
      .select('id')
      .where('subject_id', '=', 'subj-junior-math')
      .where('deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    const added = await call(t, 'POST', '/teacher/paper/info/addBasket', teacher, {
      questionIds: [question.id],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await basket()).sumCount).toBe(1);
    await elsewhere(`DELETE FROM basket_items WHERE question_id = $1`, [question.id]);
    await elsewhere(
      `UPDATE memberships SET basket_version = basket_version + 1 WHERE org_id = $1 AND user_id = $2`,
      [orgId, userId],
    );
    expect((await basket()).sumCount).toBe(0);
  });

  // On SQLite the host has one connection: no request reads between another transaction's write and its commit.
  if (dialect === 'postgres')
    it('drops a token kept between a write and its commit once the transaction commits', async () => {
      const teacher = await fresh();
      const sessionId = await sessionOf(teacher);
      await t.app.db.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('auth_sessions')
          .set({ revoked_at: new Date(now).toISOString(), revoke_reason: 'test' })
          .where('id', '=', sessionId)
          .execute();
        // Not committed yet: the bearer check reads the session as live, and keeps it.
        expect((await info(teacher)).status).toBe(200);
      });
      expect((await info(teacher)).status).toBe(401);
    });
});
