import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connect, type DialectName, type Db } from '../../src/db/connect.js';

/** Every integration test runs once per database. */
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/** Admin URL of the test PostgreSQL server (scripts/ensure-postgres.mjs makes sure it answers). */
export const TEST_PG_ADMIN_URL =
  process.env.ZHZY_TEST_PG_URL ?? 'postgres://zhzy:zhzy@127.0.0.1:5432/postgres';

export interface TestDb {
  db: Db;
  /** Connection URL (PostgreSQL) or data folder (SQLite) of this database. */
  location: string;
  cleanup(): Promise<void>;
}

function databaseUrl(admin: string, name: string): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, empty database of the dialect: a temporary SQLite file, or a new PostgreSQL database. */
export async function openTestDb(dialect: DialectName): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-test-'));
    const db = connect({ dataDir: dir });
    return {
      db,
      location: dir,
      async cleanup() {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `zhzy_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(TEST_PG_ADMIN_URL, name);
  // A forced DROP DATABASE at cleanup may reach connections that are still closing: harmless.
  const db = connect({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 5, onIdleError: () => undefined });
  return {
    db,
    location: url,
    async cleanup() {
      await db.close();
      const drop = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await drop.connect();
      try {
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await drop.end();
      }
    },
  };
}
