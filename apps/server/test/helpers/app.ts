import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { DialectName } from '../../src/db/connect.js';
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
}

/** A host on a fresh database with the catalogue and 演示学校 seeded. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const testDb = await openTestDb(options.dialect);
  const config = loadConfig({
    LOG_LEVEL: process.env.ZHZY_TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '',
    DATA_DIR: options.dialect === 'sqlite' ? testDb.location : '',
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: testDb.db,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.makeCaptcha ? { makeCaptcha: options.makeCaptcha } : {}),
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
    },
  };
}
