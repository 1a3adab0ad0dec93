import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@zhzy/contracts';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

describe.each(DIALECTS)('errors and the web app on %s', (dialect) => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><title>智能作业</title><div id="root"></div>',
    );
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await startTestApp({ dialect, env: { WEB_DIST: webDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('serves index.html for every screen path (history mode) and hashed assets as immutable', async () => {
    for (const url of ['/', '/paperlist', '/analysis/grade', '/assistant/papaerReport?id=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-gone999.js',
      headers: { accept: '*/*' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves files of a rebuilt web app without a restart', async () => {
    fs.writeFileSync(path.join(webDir, 'assets', 'app-new456.js'), 'console.log(2)');
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-new456.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(2)');
  });

  it('answers an unknown API path with 404 and 很抱歉，资源未找到', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/teacher/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, message: MESSAGES.notFound, data: null });
    const post = await t.app.inject({ method: 'POST', url: '/paperlist' });
    expect(post.statusCode).toBe(404);
  });

  it('answers malformed JSON with a Chinese 400', async () => {
    const { access_token } = await signIn(t.app, 'demo-teacher');
    const res = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/addBasket',
      headers: { ...bearer(access_token), 'content-type': 'application/json' },
      payload: '{"questionIds": [',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('请求内容不是合法的 JSON');
  });

  it('answers only 200 for success and sends a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('hides the detail of a 5xx behind 系统内部异常，请联系网站管理员 (database gone)', async () => {
    const { access_token } = await signIn(t.app, 'demo-teacher');
    const add = await t.app.inject({
      method: 'POST',
      url: '/teacher/paper/info/addBasket',
      headers: bearer(access_token),
      payload: { questionIds: ['q-m7a-1-1-01'] },
    });
    expect(add.statusCode).toBe(200);
    await t.testDb.db.kysely.schema.dropTable('basket_items').execute();
    const res = await t.app.inject({
      method: 'GET',
      url: '/teacher/paper/info/getQuestionBasket',
      headers: bearer(access_token),
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, message: MESSAGES.internal, data: null });
    expect(res.body).not.toMatch(/basket_items|sqlite|relation/i);
  });
});
