// Makes sure a PostgreSQL server answers on 127.0.0.1:5432 with the test role, installing and starting
// Debian's postgresql when it does not (a user's fresh machine). Used by the test command only.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { ensureAptPackages, hasCommand, run } from './system.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');

export const TEST_PG_URL = process.env.ZHZY_TEST_PG_URL ?? 'postgres://zhzy:zhzy@127.0.0.1:5432/postgres';

async function tryConnect() {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await client.end().catch(() => {});
  }
}

function clusterVersion() {
  if (!fs.existsSync('/etc/postgresql')) return undefined;
  return fs.readdirSync('/etc/postgresql').sort().at(-1);
}

function startServer() {
  ensureAptPackages(['postgresql']);
  const version = clusterVersion();
  if (!version) {
    const installedVersion = fs.readdirSync('/usr/lib/postgresql').sort().at(-1);
    run('pg_createcluster', [installedVersion, 'main', '--start']);
    return;
  }
  // No systemd in containers: pg_ctlcluster starts the cluster directly.
  run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
}

function createRole() {
  const sql =
    "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zhzy') THEN " +
    "CREATE ROLE zhzy LOGIN SUPERUSER PASSWORD 'zhzy'; END IF; END $$;";
  run('runuser', [
    '-u',
    'postgres',
    '--',
    'psql',
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    'postgres',
    '-c',
    sql,
  ]);
}

/** Resolves when the test PostgreSQL answers; throws with a clear message when it cannot be had. */
export async function ensurePostgres() {
  let attempt = await tryConnect();
  if (attempt.ok) return;
  const code = attempt.error?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'ETIMEDOUT' || !code) {
    console.log('[setup] PostgreSQL does not answer on 127.0.0.1:5432; starting it …');
    startServer();
    for (let i = 0; i < 30; i++) {
      attempt = await tryConnect();
      if (attempt.ok || attempt.error?.code !== 'ECONNREFUSED') break;
      await sleep(1000);
    }
    if (attempt.ok) return;
  }
  // The server answers but our role is missing (or uses another password): create it.
  console.log('[setup] creating the PostgreSQL role zhzy for the tests …');
  createRole();
  attempt = await tryConnect();
  if (!attempt.ok) throw new Error(`PostgreSQL still refuses the test connection: ${attempt.error?.message}`);
}

/** pg_dump and pg_restore for the backup/restore tests (Debian's client, when the server runs elsewhere). */
export function ensurePostgresClient() {
  if (hasCommand('pg_dump') && hasCommand('pg_restore')) return;
  ensureAptPackages(['postgresql-client']);
}
