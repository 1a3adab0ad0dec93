import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { seedCatalog } from '../src/seed/catalog.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';

describe('configuration', () => {
  it('has the embedded defaults: port 3000, ./data, demo seed on, SQLite', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      SEED_DEMO: true,
      ACCESS_TOKEN_TTL_SECONDS: 7200,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('lets PORT override and SEED_DEMO=false turn the demo off', () => {
    expect(loadConfig({ PORT: '4100', SEED_DEMO: 'false' })).toMatchObject({ PORT: 4100, SEED_DEMO: false });
  });

  it('stops the boot naming every bad setting', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });
});

describe.each(DIALECTS)('boot on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { SEED_DEMO: 'false' } });
  });
  afterAll(() => t.close());

  it('starts without the demo school but with the shared catalogue when SEED_DEMO=false', async () => {
    const db = t.testDb.db.kysely;
    expect(await db.selectFrom('orgs').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('users').selectAll().execute()).toEqual([]);
    const questions = await db
      .selectFrom('questions')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(questions.n)).toBeGreaterThanOrEqual(50);
  });

  it('re-running the catalogue seed changes nothing', async () => {
    // As test hosts seed it: without the checked question families (SEED_CHECKED_BANK=false).
    expect(await seedCatalog(t.testDb.db.kysely, Date.now, { checkedBank: false })).toBe(false);
  });

  it('re-seeds a changed catalogue over the questions already there, and search follows', async () => {
    // A new release (or SEED_CHECKED_BANK turned on) meets a database that holds the system questions: each is
    // refreshed in place. SQLite's search trigger once aborted this upsert, and the host did not start.
    const db = t.testDb.db.kysely;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('questions')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const one = await db
      .selectFrom('questions')
      .select(['id', 'search_tokens'])
      .where('search_tokens', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('questions').set({ search_tokens: 'stalezz' }).where('id', '=', one.id).execute();
    expect(await seedCatalog(db, Date.now, { checkedBank: true })).toBe(true);
    expect(await count()).toBeGreaterThan(before);
    const after = await db
      .selectFrom('questions')
      .select('search_tokens')
      .where('id', '=', one.id)
      .executeTakeFirstOrThrow();
    expect(after.search_tokens).toBe(one.search_tokens);
    if (dialect === 'sqlite') {
      const hits = (token: string) =>
        sql<{ n: number }>`select count(*) as n from question_fts where question_fts match ${token}`.execute(
          db,
        );
      expect(Number((await hits('stalezz')).rows[0]!.n)).toBe(0);
    }
    // Back as the other tests of this host expect it.
    expect(await seedCatalog(db, Date.now, { checkedBank: false })).toBe(true);
  });
});

describe('the embedded database', () => {
  it('runs SQLite in WAL mode with foreign keys on', async () => {
    const t = await startTestApp({ dialect: 'sqlite', env: { SEED_DEMO: 'false' } });
    try {
      const wal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.testDb.db.kysely);
      expect(wal.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.testDb.db.kysely);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await t.close();
    }
  });
});
