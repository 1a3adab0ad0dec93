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
