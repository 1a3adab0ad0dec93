import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasketSchema, TokenResponseSchema, type Basket } from '@zhzy/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { SUBJECT_IDS } from '../src/seed/catalog.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/seed/demo.js';
import { clientHeader, openTestDb, type TestDb } from './helpers/index.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';

// Production mode: two stateless host instances, each with its own connection pool, on one PostgreSQL, one
// S3-compatible store and one pg-boss queue, serving the same teacher over real HTTP.
describe('two host instances on one PostgreSQL and one object store', () => {
  let testDb: TestDb;
  let s3: TestS3;
  let dataDir = '';
  const apps: { app: FastifyInstance; url: string }[] = [];
  const ran: { instance: string; pageId: string; sha256: string; bytes: number }[] = [];
  // Both instances read one clock, so the replay below can step past the refresh grace window (ADR 0042).
  let skew = 0;
  const clock = () => Date.now() + skew;

  const start = async (name: string) => {
    const config = loadConfig({
      ...s3.env,
      LOG_LEVEL: process.env.ZHZY_TEST_LOG_LEVEL ?? 'silent',
      WEB_DIST: '',
      DATA_DIR: path.join(dataDir, name),
      DATABASE_URL: testDb.location,
      DATABASE_POOL_SIZE: '3',
      JOB_QUEUE: 'pg-boss',
      JOB_POLL_SECONDS: '0.5',
      // Verified tokens are kept the longest allowed, so a sign-out seen on the other instance within the poll
      // below was announced (ADR 0078), not outwaited.
      VERIFIED_TOKEN_SECONDS: '60',
    });
    const app = await buildApp({ config, clock, makeCaptcha: () => ({ text: 'ABCD', svg: '<svg/>' }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    apps.push({ app, url });
    return { app, url };
  };

  let a: { app: FastifyInstance; url: string };
  let b: { app: FastifyInstance; url: string };

  beforeAll(async () => {
    testDb = await openTestDb('postgres');
    // The test's own pool is not needed: each instance opens its own, as in production.
    await testDb.db.close();
    s3 = await startTestS3();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-two-'));
    // Replicas start together on the empty database (docker compose starts them at once): they take turns to
    // migrate and seed instead of racing to insert the same rows.
    [a, b] = await Promise.all([start('a'), start('b')]);
    // A test job that only instance B works: a page queued by A must be run there.
    b.app.jobs.work('test.page-digest', async (payload) => {
      const pageId = String(payload.pageId);
      const row = await b.app.db.kysely
        .selectFrom('scan_pages')
        .select(['file_path'])
        .where('id', '=', pageId)
        .executeTakeFirstOrThrow();
      const data = await b.app.storage.get(`${row.file_path}`);
      if (!data) throw new Error('page image missing on instance b');
      ran.push({
        instance: 'b',
        pageId,
        sha256: createHash('sha256').update(data).digest('hex'),
        bytes: data.length,
      });
    });
  }, 120_000);

  afterAll(async () => {
    for (const { app } of apps) await app.close();
    await s3?.close();
    // The test database's own pool is already closed; cleanup drops the database (and pg-boss's schema in it).
    await testDb?.cleanup().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const http = async (
    base: string,
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: string | FormData | object,
  ) => {
    const isJson = body !== undefined && typeof body === 'object' && !(body instanceof FormData);
    const res = await fetch(`${base}${url}`, {
      method,
      headers: isJson ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(body !== undefined ? { body: isJson ? JSON.stringify(body) : body } : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      json: type.includes('json') ? ((await res.json()) as Record<string, unknown>) : {},
      bytes: type.includes('json') ? Buffer.alloc(0) : Buffer.from(await res.arrayBuffer()),
    };
  };
  const grant = (base: string, fields: Record<string, string>) =>
    http(
      base,
      'POST',
      '/oauth/oauth/token',
      { authorization: clientHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(fields).toString(),
    );
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** demo-teacher's access token, signed in on one instance. */
  const teacherToken = async (base: string) =>
    TokenResponseSchema.parse(
      (
        await grant(base, {
          grant_type: 'password',
          username: DEMO_ACCOUNTS.teacher,
          password: DEMO_PASSWORD,
        })
      ).json,
    ).access_token;

  it('seeded the demo school once although both instances started together', async () => {
    const k = a.app.db.kysely;
    const usernames = await k.selectFrom('users').select('username').execute();
    expect(usernames.map((u) => u.username)).toContain('demo-teacher');
    expect(new Set(usernames.map((u) => u.username)).size).toBe(usernames.length);
    const titles = await k.selectFrom('homework').select('title').execute();
    expect(titles.length).toBeGreaterThan(0);
    expect(new Set(titles.map((t) => t.title)).size).toBe(titles.length);
  });

  it('signs in on one instance and refreshes on the other; a replayed token or a sign-out on one ends the session on both', async () => {
    const signIn = await grant(a.url, {
      grant_type: 'password',
      username: DEMO_ACCOUNTS.teacher,
      password: DEMO_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const first = TokenResponseSchema.parse(signIn.json);
    expect((await http(b.url, 'GET', '/system/user/info', bearer(first.access_token))).status).toBe(200);

    const refreshed = await grant(b.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = TokenResponseSchema.parse(refreshed.json);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const info = await http(a.url, 'GET', '/system/user/info', bearer(second.access_token));
    expect(info.status).toBe(200);
    expect((info.json.data as { user: { nickname: string } }).user.nickname).toBe('王老师');
    // Replaying the rotated refresh token on the other instance, after the grace window that two tabs get, is caught
    // there and ends the session everywhere.
    skew += 11_000;
    expect(
      (await grant(a.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token })).status,
    ).toBe(400);
    expect((await http(b.url, 'GET', '/system/user/info', bearer(second.access_token))).status).toBe(401);

    const fresh = TokenResponseSchema.parse(
      (
        await grant(b.url, {
          grant_type: 'password',
          username: DEMO_ACCOUNTS.teacher,
          password: DEMO_PASSWORD,
        })
      ).json,
    );
    expect((await http(a.url, 'DELETE', '/oauth/signout', bearer(fresh.access_token))).status).toBe(200);
    expect((await http(b.url, 'GET', '/system/user/info', bearer(fresh.access_token))).status).toBe(401);
  });

  it('refuses on the other instance a token it kept, once it is signed out on one (announced at commit)', async () => {
    const token = await teacherToken(a.url);
    // Both instances verify the token and keep it.
    expect((await http(a.url, 'GET', '/system/user/info', bearer(token))).status).toBe(200);
    expect((await http(b.url, 'GET', '/system/user/info', bearer(token))).status).toBe(200);
    expect((await http(a.url, 'DELETE', '/oauth/signout', bearer(token))).status).toBe(200);
    expect((await http(a.url, 'GET', '/system/user/info', bearer(token))).status).toBe(401);
    // The announcement reaches b a moment after the commit: b refuses well within the 60 s it would keep the token.
    const started = Date.now();
    let status = 200;
    while (Date.now() - started < 30_000) {
      status = (await http(b.url, 'GET', '/system/user/info', bearer(token))).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
  });

  it('asks for the captcha on both instances after failures on one, and takes a captcha issued by the other', async () => {
    for (let i = 0; i < 3; i++)
      await grant(a.url, { grant_type: 'password', username: DEMO_ACCOUNTS.director, password: 'wrong' });
    const blocked = await grant(b.url, {
      grant_type: 'password',
      username: DEMO_ACCOUNTS.director,
      password: DEMO_PASSWORD,
    });
    expect(blocked.status).toBe(400);
    expect(blocked.json.data).toEqual({ captchaRequired: true });
    const captcha = await http(a.url, 'GET', '/oauth/captcha');
    const { captchaKey } = captcha.json.data as { captchaKey: string };
    const ok = await grant(b.url, {
      grant_type: 'password',
      username: DEMO_ACCOUNTS.director,
      password: DEMO_PASSWORD,
      captchaKey,
      captchaCode: 'abcd',
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  });

  it('stores a page uploaded on one instance where the other reads it, and the other runs its queued job', async () => {
    const token = await teacherToken(a.url);
    const info = await http(a.url, 'GET', '/system/user/info', bearer(token));
    const orgId = (info.json.data as { gradeInfo: { orgDefaultId: string } }).gradeInfo.orgDefaultId;
    const years = await http(b.url, 'GET', `/system/class?orgId=${orgId}&type=1`, bearer(token));
    const yearId = (years.json.data as { id: string; isDefault: boolean }[]).find((y) => y.isDefault)!.id;
    const batch = await http(a.url, 'POST', '/teacher/scan/batch', bearer(token), {
      schoolYearId: yearId,
      subjectTeacher: true,
      deviceName: '虚拟扫描仪',
      paperSize: 1,
    });
    expect(batch.status).toBe(200);
    const batchId = (batch.json.data as { batch: { id: string } }).batch.id;

    const jpeg = await sharp({
      create: { width: 240, height: 340, channels: 3, background: { r: 250, g: 250, b: 248 } },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set('seq', '1');
    form.set('file', new Blob([new Uint8Array(jpeg)]), 'p-0001.jpg');
    const uploaded = await http(a.url, 'POST', `/teacher/scan/batch/${batchId}/page`, bearer(token), form);
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    const pageId = (uploaded.json.data as { id: string }).id;

    // Instance B lists the page and serves its image from the shared store.
    const pages = await http(b.url, 'GET', `/teacher/scan/batch/${batchId}/pages`, bearer(token));
    expect(pages.status).toBe(200);
    expect((pages.json.data as { id: string }[]).map((p) => p.id)).toEqual([pageId]);
    const image = await http(b.url, 'GET', `/teacher/scan/page/${pageId}/image`, bearer(token));
    expect(image.status).toBe(200);
    expect(image.bytes.equals(jpeg)).toBe(true);

    // Queued on A (which has no handler for it), run by B.
    await a.app.jobs.enqueue('test.page-digest', { pageId });
    await a.app.jobs.drain();
    expect(ran).toEqual([
      {
        instance: 'b',
        pageId,
        sha256: createHash('sha256').update(jpeg).digest('hex'),
        bytes: jpeg.length,
      },
    ]);
  });

  it('keeps the basket consistent on both instances whichever one changes it', async () => {
    const token = await teacherToken(b.url);
    const page = await http(
      a.url,
      'GET',
      `/teacher/question/page?subjectId=${SUBJECT_IDS.数学}&size=4&page=1`,
      bearer(token),
    );
    const ids = (page.json.data as { records: { id: string }[] }).records.map((q) => q.id);
    expect(ids).toHaveLength(4);
    const basket = async (base: string): Promise<Basket> =>
      BasketSchema.parse(
        (await http(base, 'GET', '/teacher/paper/info/getQuestionBasket', bearer(token))).json.data,
      );

    // Both instances read (and cache) the empty basket first.
    expect((await basket(a.url)).sumCount).toBe(0);
    expect((await basket(b.url)).sumCount).toBe(0);
    expect(
      (await http(a.url, 'POST', '/teacher/paper/info/addBasket', bearer(token), { questionIds: ids }))
        .status,
    ).toBe(200);
    expect((await basket(b.url)).questionIds.sort()).toEqual([...ids].sort());
    expect(
      (
        await http(b.url, 'POST', '/teacher/paper/info/removeBasket', bearer(token), {
          questionIds: [ids[0]!],
        })
      ).status,
    ).toBe(200);
    const onA = await basket(a.url);
    const onB = await basket(b.url);
    expect(onA.sumCount).toBe(3);
    expect(onA).toEqual(onB);
    expect(onA.questionIds).not.toContain(ids[0]);
  });
});
