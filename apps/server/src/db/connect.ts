import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { privateDirSync, privateFileSync } from '../lib/private-files.js';
import { WriteWatch, type RemoteWrites } from '../lib/write-watch.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** Connections of the PostgreSQL pool (metrics); absent for the embedded SQLite file. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * Waits until no other instance is migrating or seeding the same database, then holds that right until the
   * returned release is called. Instances started together (several replicas) otherwise race to seed the same
   * rows. PostgreSQL: a session advisory lock on a connection of its own, outside the pool, so seeding through
   * the pool can never wait for it. The embedded SQLite file belongs to one process: nothing to wait for.
   */
  startupLock(): Promise<() => Promise<void>>;
  /** Every write through this handle, told to the in-memory caches that depend on the rows (ADR 0078). */
  writes: WriteWatch;
}

/** The advisory lock key of start-up work (migrations and seeds): any fixed 64-bit number of our own. */
const STARTUP_LOCK_KEY = 7_305_202_611_210;

export interface ConnectOptions {
  /** `postgres://…`; when absent the embedded SQLite file is used. */
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file. */
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * Called when an idle pooled PostgreSQL connection fails (server restart, network cut). Without a listener
   * node-pg would crash the process; the pool simply replaces the connection on next use.
   */
  onIdleError?: (error: Error) => void;
}

// int8 (count(*), sums) arrives as a string from node-pg; our counts fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed query, so the
 * embedded database keeps the most recent prepared statements by their SQL text.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        // Refresh its place so the cache evicts the least recently used.
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/** The channel on which instances on one PostgreSQL database announce writes their caches depend on (ADR 0078). */
export const WRITES_CHANNEL = 'zhzy_writes';

/**
 * NOTIFY on the writing connection (delivered at commit) and LISTEN on a connection of its own, reopened after a
 * failure; while it is down, and when it is back, every listener is told that anything may have changed.
 */
function pgRemoteWrites(connectionString: string, onError?: (error: Error) => void): RemoteWrites {
  return {
    announce: async (run, tables) => {
      await run(CompiledQuery.raw('select pg_notify($1, $2)', [WRITES_CHANNEL, tables.join(',')]));
    },
    listen(heard) {
      let client: pg.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const open = async () => {
        const c = new pg.Client({ connectionString });
        client = c;
        c.on('notification', (n) => heard(n.payload ? n.payload.split(',') : 'all'));
        c.on('error', (error) => {
          onError?.(error);
          reopen(c);
        });
        c.on('end', () => reopen(c));
        try {
          await c.connect();
          await c.query(`LISTEN ${WRITES_CHANNEL}`);
          // Whatever was written while nobody listened.
          heard('all');
        } catch (error) {
          onError?.(error as Error);
          reopen(c);
        }
      };
      const reopen = (c: pg.Client) => {
        if (stopped || client !== c) return;
        client = null;
        heard('all');
        c.end().catch(() => undefined);
        retry = setTimeout(() => void open(), 1000);
        retry.unref();
      };
      void open();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const c = client;
        client = null;
        await c?.end().catch(() => undefined);
      };
    },
  };
}

/** Opens the database of the configuration: PostgreSQL when a URL is given, else SQLite in WAL mode. */
export function connect(options: ConnectOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on('error', (error) => options.onIdleError?.(error));
    // A connection cut while checked out between two statements (a transaction, pg_terminate_backend) emits 'error'
    // on its client, which node-pg would throw as an uncaught exception and take the process down: the request's
    // next statement fails instead (answered 503) and the pool drops the client when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const writes = new WriteWatch(pgRemoteWrites(options.databaseUrl, options.onIdleError));
    const kysely = new Kysely<Database>({ dialect: writes.dialect(new PostgresDialect({ pool })) });
    return {
      kysely,
      writes,
      dialect: 'postgres',
      close: async () => {
        await writes.close();
        await kysely.destroy();
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async startupLock() {
        const client = new pg.Client({ connectionString: options.databaseUrl });
        client.on('error', (error) => options.onIdleError?.(error));
        await client.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        } catch (error) {
          await client.end();
          throw error;
        }
        // Ending the session releases a session lock too; unlock first so a failed end cannot keep it.
        return async () => {
          try {
            await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
          } finally {
            await client.end();
          }
        };
      },
    };
  }
  privateDirSync(options.dataDir);
  const file = path.join(options.dataDir, options.sqliteFile ?? 'zhzy.sqlite');
  // SQLite gives its -wal and -shm files the database file's mode.
  privateFileSync(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const writes = new WriteWatch();
  const kysely = new Kysely<Database>({
    dialect: writes.dialect(new SqliteDialect({ database: withStatementCache(sqlite) })),
  });
  return {
    kysely,
    writes,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    startupLock: () => Promise.resolve(() => Promise.resolve()),
  };
}
