import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { DialectName } from '../../src/db/connect.js';
import type { JobQueue } from '../../src/lib/jobs.js';
import type { ObjectStorage } from '../../src/lib/storage/index.js';
import type { CaptchaMaker } from '../../src/modules/auth/service.js';
import { openTestDb, type TestDb } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  testDb: TestDb;
  config: Config;
  /** Base URL when started with `listen: true`. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect: DialectName;
  /** Open a real port on 127.0.0.1 (contract suite, api-client). Otherwise use `app.inject`. */
  listen?: boolean;
  env?: Record<string, string>;
  clock?: () => number;
  makeCaptcha?: CaptchaMaker;
  /** An object store (otherwise the environment's: DATA_DIR on disk). */
  storage?: ObjectStorage;
  /** A job queue (otherwise the environment's: in this process). */
  jobs?: JobQueue;
}

/** A host on a fresh database with the catalogue and 演示学校 seeded. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const testDb = await openTestDb(options.dialect);
  // Stored files (pages, crops, avatars, materials) go next to the SQLite file, or into a folder of this host's own
  // on PostgreSQL, removed with it: never into the working tree.
  const ownDataDir =
    options.dialect === 'sqlite' ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-test-data-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.ZHZY_TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '',
    DATA_DIR: ownDataDir ?? testDb.location,
    // The scanned demo test (marking's seed) only where a test asks for it: other tests count homework.
    SEED_DEMO_SCANS: 'false',
    // Tests start from the demo school without demo results; analysis e2e tests turn them on.
    SEED_DEMO_RESULTS: 'false',
    // The checked question families (~700 questions, about a second per host) only where a test asks for them.
    SEED_CHECKED_BANK: 'false',
    // Suites make thousands of calls a minute as one user; the general limit has its own test (security-attacks).
    RATE_LIMIT_PER_MINUTE: '0',
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: testDb.db,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.makeCaptcha ? { makeCaptcha: options.makeCaptcha } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  });
  let baseUrl = '';
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address && typeof address === 'object') baseUrl = `http://127.0.0.1:${address.port}`;
  } else {
    await app.ready();
  }
  return {
    app,
    testDb,
    config,
    baseUrl,
    async close() {
      await app.close();
      await testDb.cleanup();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}
