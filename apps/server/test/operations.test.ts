import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStorage } from '../src/lib/storage/index.js';
import { DEMO_ACCOUNTS } from '../src/seed/demo.js';
import { buildAdminApp } from '../src/plugins/operations.js';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

const TOKEN = 'metrics-token-0123456789';

describe.each(DIALECTS)('operations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('answers /ready with every check when the database and the store answer and migrations are done', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', migrations: 'ok', accepting: 'ok' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
  });

  it('gives every answer a request id, keeping the one a proxy sent', async () => {
    const own = await t.app.inject({ method: 'GET', url: '/health' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'lb-42' } });
    expect(given.headers['x-request-id']).toBe('lb-42');
  });

  it('serves Prometheus metrics only with the token: requests per route, job counts, process and pool figures', async () => {
    const auth = bearer((await signIn(t.app, DEMO_ACCOUNTS.teacher)).access_token);
    await t.app.inject({ method: 'GET', url: '/system/user/info', headers: auth });
    await t.app.inject({ method: 'GET', url: '/system/user/info', headers: auth });
    await t.app.inject({ method: 'GET', url: '/teacher/no/such/route' });
    t.app.jobs.work(`test.metered.${dialect}`, async (payload) => {
      if (payload.fail) throw new Error('planned failure');
    });
    await t.app.jobs.enqueue(`test.metered.${dialect}`, {});
    await t.app.jobs.enqueue(`test.metered.${dialect}`, { fail: true });
    await t.app.jobs.drain();

    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong-token-0123456789') }))
        .statusCode,
    ).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toContain('zhzy_http_requests_total{method="GET",route="/system/user/info",status="200"} 2');
    expect(text).toContain('zhzy_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toMatch(
      /zhzy_http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/system\/user\/info"/,
    );
    expect(text).toContain(`zhzy_jobs_total{name="test.metered.${dialect}",outcome="completed"} 1`);
    expect(text).toContain(`zhzy_jobs_total{name="test.metered.${dialect}",outcome="failed"} 1`);
    expect(text).toContain('zhzy_process_resident_memory_bytes');
    if (dialect === 'postgres') expect(text).toMatch(/zhzy_db_pool_connections \d+/);
  });

  it('serves metrics, health and readiness without a token on the admin listener', async () => {
    const admin = buildAdminApp(t.app, t.app.metrics, t.app.isClosing);
    try {
      expect((await admin.inject({ method: 'GET', url: '/metrics' })).body).toContain(
        'zhzy_http_requests_total',
      );
      expect((await admin.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await admin.close();
    }
  });
});

describe('readiness and shutdown', () => {
  it('is not ready while the object store cannot be reached', async () => {
    const dead = new S3ObjectStorage({
      bucket: 'zhzy',
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      accessKeyId: 'x',
      secretAccessKey: 'y',
      forcePathStyle: true,
    });
    const t = await startTestApp({ dialect: 'sqlite', storage: dead });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json<{ status: string; checks: Record<string, string> }>();
      expect(body.status).toBe('not ready');
      expect(body.checks.database).toBe('ok');
      expect(body.checks.storage).toMatch(/^unreachable: /);
    } finally {
      await t.close();
      await dead.close();
    }
  });

  it('finishes a running job before the database closes, and reports not ready from the first moment', async () => {
    const t = await startTestApp({ dialect: 'sqlite' });
    let result = '';
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    t.app.jobs.work('test.slow', async () => {
      started();
      await new Promise((r) => setTimeout(r, 400));
      const row = await t.app.db.kysely
        .selectFrom('users')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst();
      result = `users: ${Number(row?.n)}`;
    });
    await t.app.jobs.enqueue('test.slow', {});
    await running;
    const closing = t.app.close();
    await new Promise((r) => setTimeout(r, 50));
    // Still draining the job: the load balancer is already told to go elsewhere.
    expect(t.app.isClosing()).toBe(true);
    expect(result).toBe('');
    await closing;
    expect(result).toMatch(/^users: \d+$/);
    await t.testDb.cleanup().catch(() => undefined);
  });

  it('starts from the environment with an admin port and exits cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-sigterm-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        WEB_DIST: '',
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const adminUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no admin port in:\n${lines.join('\n')}`)), 60_000);
        const poll = setInterval(() => {
          const found = lines
            .map((l) => /metrics, health and readiness on (http:\/\/[\d.]+):(\d+)/.exec(l))
            .find(Boolean);
          if (found) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(`${found[1]}:${found[2]}`);
          }
        }, 100);
      });
      // METRICS_PORT=0 asks for any free port: the log names the one it got.
      expect(adminUrl).not.toMatch(/:0$/);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    const listening = lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string });
    expect(listening.some((l) => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(l.msg))).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain('shutting down');
    expect(messages).toContain('shut down cleanly');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);
});
