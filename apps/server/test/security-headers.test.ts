import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, startTestApp, type TestApp } from './helpers/index.js';

// The headers of issue #12 (ADR 0027) on what the host serves: screens, assets, API answers and refusals.
// The headers do not depend on the database, so one dialect is enough here.

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'SAMEORIGIN',
};

function directives(csp: unknown): Map<string, string[]> {
  expect(typeof csp).toBe('string');
  return new Map(
    (csp as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectSecurityHeaders(headers: Record<string, unknown>, where: string) {
  for (const [name, value] of Object.entries(EXPECTED)) expect(headers[name], `${where} ${name}`).toBe(value);
  const csp = directives(headers['content-security-policy']);
  expect(csp.get('script-src'), where).toEqual(["'self'"]);
  expect(csp.get('default-src'), where).toEqual(["'self'"]);
  expect(csp.get('object-src'), where).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), where).toEqual(["'self'"]);
  expect(csp.get('base-uri'), where).toEqual(["'self'"]);
  // The scan agent on the teacher's PC stays reachable.
  expect(csp.get('connect-src'), where).toEqual(expect.arrayContaining(["'self'", 'ws://127.0.0.1:*']));
  for (const values of csp.values()) {
    expect(values, where).not.toContain("'unsafe-eval'");
  }
  // The camera only for the app's own pages (手机拍照 on /scan), never for anything they embed.
  expect(String(headers['permissions-policy']), where).toContain('camera=(self)');
  expect(String(headers['permissions-policy']), where).toContain('geolocation=()');
}

describe('security headers', () => {
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
    t = await startTestApp({ dialect: 'sqlite', env: { WEB_DIST: webDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends them with the web app’s screens and assets', async () => {
    for (const url of ['/', '/paperlist', '/assets/app-abc123.js']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expectSecurityHeaders(res.headers, url);
    }
  });

  it('sends them with API answers, refusals and unknown paths', async () => {
    const token = (await signIn(t.app, 'demo-teacher')).access_token;
    const requests = [
      { url: '/system/user/info', headers: bearer(token) },
      { url: '/system/user/info' },
      { url: '/teacher/nothing-here' },
      { url: '/health' },
    ];
    const statuses: number[] = [];
    for (const request of requests) {
      const res = await t.app.inject({ method: 'GET', ...request });
      statuses.push(res.statusCode);
      expectSecurityHeaders(res.headers, request.url);
    }
    expect(statuses).toEqual([200, 401, 404, 200]);
  });

  it('allows no inline script: script-src has neither unsafe-inline, a nonce nor a hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const scripts = directives(res.headers['content-security-policy']).get('script-src')!;
    expect(scripts.some((s) => /unsafe-inline|nonce-|sha\d+-/.test(s))).toBe(false);
  });

  it('sends no Strict-Transport-Security by default, nor over plain HTTP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('Strict-Transport-Security behind a TLS proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      dialect: 'sqlite',
      env: { HSTS_MAX_AGE: '31536000', TRUST_PROXY: 'true', CSP_CONNECT_SRC: 'wss://agent.example.cn' },
    });
  });
  afterAll(() => t.close());

  it('is sent only on requests that arrived over TLS', async () => {
    const tls = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await t.app.inject({ method: 'GET', url: '/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds the configured origins to connect-src', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(directives(res.headers['content-security-policy']).get('connect-src')).toContain(
      'wss://agent.example.cn',
    );
  });

  it('refuses a setting that is not a list of origins, in Chinese', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(() => loadConfig({ CSP_CONNECT_SRC: "'unsafe-inline'; script-src *" })).toThrow(/CSP_CONNECT_SRC/);
  });
});
