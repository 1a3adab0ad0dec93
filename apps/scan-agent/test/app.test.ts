import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  AGENT_PROTOCOL_VERSION,
  AGENT_WS_CLOSE,
  AgentBatchDetailSchema,
  AgentBatchSchema,
  AgentHealthSchema,
  PairingTokenSchema,
  ScannerListSchema,
  WsServerMessageSchema,
  type WsServerMessage,
} from '@zhzy/contracts';
import { T } from '../src/i18n/zh-CN.js';
import { SaneScanner } from '../src/scanners/sane/sane-driver.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { ORIGIN, saneTestConfig, scriptToken, startTestAgent, until, type TestAgent } from './helpers.js';

const OTHER_ALLOWED = 'http://127.0.0.1:3000';

describe('scan agent: guards, pairing, REST and websocket', () => {
  let agent: TestAgent;
  const shown: string[] = [];
  const sane = saneTestConfig();
  let script = '';
  let page = '';

  const req = async (
    method: string,
    url: string,
    opts: { origin?: string | null; token?: string | null; body?: unknown; host?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    const origin = opts.origin === undefined ? ORIGIN : opts.origin;
    if (origin) headers.origin = origin;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.host) headers.host = opts.host;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await agent.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      json: () => res.json<Record<string, unknown>>(),
      raw: res.rawPayload,
    };
  };

  const socket = (origin: string | undefined, extra: Record<string, string> = {}) =>
    new WebSocket(`ws://127.0.0.1:${agent.port}/ws`, {
      headers: { ...(origin ? { origin } : {}), ...extra },
    });

  beforeAll(async () => {
    agent = await startTestAgent(
      {
        scanners: [
          new SaneScanner({ configDir: sane.dir, extraScanArgs: ['--test-picture=Grid', '--batch-count=3'] }),
          new VirtualScanner(),
        ],
        showPairingCode: (text) => shown.push(text),
      },
      { AGENT_ALLOWED_ORIGINS: `${ORIGIN},${OTHER_ALLOWED}` },
    );
    script = scriptToken(agent.dataDir);
  });
  afterAll(async () => {
    await agent.stop();
    sane.remove();
  });

  it('answers its health with the protocol version on loopback, without a token', async () => {
    const res = await fetch(`${agent.base}/health`);
    expect(res.status).toBe(200);
    const health = AgentHealthSchema.parse(await res.json());
    expect(health.protocolVersion).toBe(AGENT_PROTOCOL_VERSION);
    expect(health.authenticated).toBe(false);
  });

  it('refuses a foreign Host header with 421 (DNS rebinding), on REST and on the websocket upgrade', async () => {
    for (const host of ['evil.example:17310', 'localhost.evil.example', '127.0.0.1.nip.io:17310']) {
      const res = await req('GET', '/health', { host });
      expect(res.status).toBe(421);
      expect(res.json().message).toBe(T.hostRefused);
    }
    const ws = socket(ORIGIN, { host: 'evil.example' });
    const status = await new Promise<number>((resolve) =>
      ws.on('unexpected-response', (request, res) => {
        request.destroy();
        resolve(res.statusCode ?? 0);
      }),
    );
    expect(status).toBe(421);
  });

  it('refuses a web origin outside the allow-list with 403, on REST and on the websocket upgrade', async () => {
    const bad = await req('GET', '/health', { origin: 'https://evil.example' });
    expect(bad.status).toBe(403);
    expect(bad.json().message).toBe(T.originRefused);
    expect((await req('GET', '/health', { origin: 'null' })).status).toBe(403);
    const good = await req('GET', '/health');
    expect(good.status).toBe(200);
    expect(good.headers['access-control-allow-origin']).toBe(ORIGIN);
    const ws = socket('https://evil.example');
    const status = await new Promise<number>((resolve) =>
      ws.on('unexpected-response', (request, res) => {
        request.destroy();
        resolve(res.statusCode ?? 0);
      }),
    );
    expect(status).toBe(403);
  });

  it('answers the CORS / Private Network Access preflight only for allowed pages', async () => {
    const res = await agent.app.inject({
      method: 'OPTIONS',
      url: '/scans',
      headers: {
        host: '127.0.0.1',
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-private-network']).toBe('true');
    expect(res.headers['access-control-allow-headers']).toContain('authorization');
    const evil = await agent.app.inject({
      method: 'OPTIONS',
      url: '/scans',
      headers: {
        host: '127.0.0.1',
        origin: 'https://evil.example',
        'access-control-request-private-network': 'true',
      },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('keeps the script token in a file only its owner can read, and accepts it without an Origin', async () => {
    const file = path.join(agent.dataDir, 'agent-token');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await req('GET', '/scanners', { origin: null })).status).toBe(401);
    expect(
      (await req('GET', '/scanners', { origin: null, token: 'wrong-token-wrong-token-wrong' })).status,
    ).toBe(401);
    const list = await req('GET', '/scanners', { origin: null, token: script });
    expect(list.status).toBe(200);
    expect(ScannerListSchema.parse(list.json()).sources.map((s) => [s.id, s.driver])).toEqual([
      [0, 'sane'],
      [1, 'sane'],
      [2, 'virtual'],
    ]);
  });

  it('pairs a page: the code appears only on the agent’s side, wrong codes count down, the token is bound to the origin', async () => {
    expect((await req('POST', '/pairing/confirm', { body: { code: '000000' } })).json().message).toBe(
      T.pairingNoCode,
    );
    expect((await req('POST', '/pairing/request')).status).toBe(200);
    const code = /配对码：(\d{6})/.exec(shown.at(-1) ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await req('POST', '/pairing/confirm', {
      body: { code: code === '123456' ? '654321' : '123456' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json().message).toBe(T.pairingWrongCode(4));
    expect((await req('POST', '/pairing/confirm', { body: { code: '12' } })).status).toBe(400);
    // Another allowed page cannot use a code the first page asked for.
    expect((await req('POST', '/pairing/confirm', { origin: OTHER_ALLOWED, body: { code } })).status).toBe(
      403,
    );
    const ok = await req('POST', '/pairing/confirm', { body: { code } });
    expect(ok.status).toBe(200);
    const paired = PairingTokenSchema.parse(ok.json());
    expect(paired.origin).toBe(ORIGIN);
    page = paired.token;
    expect((await req('GET', '/scanners', { token: page })).status).toBe(200);
    const elsewhere = await req('GET', '/scanners', { origin: OTHER_ALLOWED, token: page });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.json().message).toBe(T.tokenWrongOrigin);
    expect((await req('GET', '/scanners', { origin: null, token: page })).status).toBe(401);
    // The code is good once.
    expect((await req('POST', '/pairing/confirm', { body: { code } })).status).toBe(403);
  });

  it('gives up a code after five wrong tries, and shows the code to the local user only (script token)', async () => {
    await req('POST', '/pairing/request');
    for (let i = 0; i < 5; i++)
      await req('POST', '/pairing/confirm', { body: { code: 'x'.repeat(0) + String(100000 + i) } });
    const code = /配对码：(\d{6})/.exec(shown.at(-1) ?? '')?.[1];
    expect((await req('POST', '/pairing/confirm', { body: { code } })).json().message).toBe(T.pairingNoCode);
    expect((await req('POST', '/pairing/code', { token: page })).status).toBe(403);
    const fromCli = await req('POST', '/pairing/code', { origin: null, token: script });
    expect(fromCli.status).toBe(200);
    expect(String(fromCli.json().code)).toMatch(/^\d{6}$/);
  });

  it('changes nothing on GET and bounds the payload', async () => {
    expect((await req('GET', '/scans/x/pause', { token: page })).status).toBe(404);
    expect((await req('GET', '/pairing/confirm?code=123456')).status).toBe(404);
    const huge = await agent.app.inject({
      method: 'POST',
      url: '/scans',
      headers: {
        host: '127.0.0.1',
        origin: ORIGIN,
        authorization: `Bearer ${page}`,
        'content-type': 'application/json',
      },
      payload: `{"x":"${'a'.repeat(600 * 1024)}"}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe(T.bodyTooLarge);
  });

  it('starts a scan only on a selectable scanner index (请重新选择扫描仪), and refuses upload targets it does not allow', async () => {
    const bad = await req('POST', '/scans', { token: page, body: { settings: { scannerIndex: 9 } } });
    expect(bad.status).toBe(409);
    expect(bad.json().message).toBe('请重新选择扫描仪');
    const foreign = await req('POST', '/scans', {
      token: page,
      body: {
        settings: { scannerIndex: 2 },
        host: {
          baseUrl: 'https://evil.example',
          batchId: 'b1',
          uploadToken: 'zus_abcdefghijklmnopqrstuvwxyz',
        },
      },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json().message).toBe(T.hostNotAllowed);
    expect(
      (
        await req('POST', '/scans', {
          token: page,
          body: { settings: { scannerIndex: 0 }, virtual: { sheets: 1 } },
        })
      ).status,
    ).toBe(400);
  });

  it('streams a virtual batch over the websocket: every page is on disk before it is announced; jam, resume, finish', async () => {
    const ws = socket(ORIGIN);
    const messages: WsServerMessage[] = [];
    ws.on('message', (data: Buffer) =>
      messages.push(WsServerMessageSchema.parse(JSON.parse(data.toString('utf8')))),
    );
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, type: 'auth', token: page }));
    await until(() => messages.some((m) => m.type === 'hello'), 10_000, 'hello');
    const hello = messages.find((m) => m.type === 'hello');
    expect(hello?.type === 'hello' && hello.sources.length).toBe(3);

    const started = await req('POST', '/scans', {
      token: page,
      body: {
        settings: { scannerIndex: 2, resolution: 100, adaptive: true, subjectTeacher: true },
        virtual: { sheets: 3, seed: 3, jamAfter: 2 },
      },
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(started.json());
    expect(batch.settings).toMatchObject({
      duplex: true,
      feeder: true,
      resolution: 100,
      subjectTeacher: true,
      autoDeskew: true,
    });

    const pageFileAt: boolean[] = [];
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as WsServerMessage;
      if (m.type === 'page')
        pageFileAt.push(
          fs.existsSync(
            path.join(
              agent.dataDir,
              'spool',
              batch.id,
              'pages',
              `${String(m.page.seq).padStart(5, '0')}.jpg`,
            ),
          ),
        );
    });
    await until(() => messages.some((m) => m.type === 'notice' && m.notice.kind === 'jam'), 30_000, 'jam');
    await until(
      async () =>
        AgentBatchDetailSchema.parse((await req('GET', `/scans/${batch.id}`, { token: page })).json()).batch
          .state === 'paused',
      5_000,
      'paused',
    );
    const resumed = await req('POST', `/scans/${batch.id}/resume`, {
      token: page,
      body: { virtual: { sheets: 3, seed: 3 } },
    });
    expect(resumed.status).toBe(200);
    await until(
      () => messages.some((m) => m.type === 'notice' && m.notice.kind === 'feederEmpty'),
      30_000,
      'feeder empty',
    );
    const finished = AgentBatchSchema.parse(
      (await req('POST', `/scans/${batch.id}/finish`, { token: page })).json(),
    );
    expect(finished.state).toBe('done');
    expect(finished.pageCount).toBe(6);
    expect(pageFileAt).toEqual([true, true, true, true, true, true]);

    const detail = AgentBatchDetailSchema.parse(
      (await req('GET', `/scans/${batch.id}`, { token: page })).json(),
    );
    expect(detail.pages.map((p) => [p.seq, p.side, p.upload])).toEqual([
      [1, 'front', 'local'],
      [2, 'back', 'local'],
      [3, 'front', 'local'],
      [4, 'back', 'local'],
      [5, 'front', 'local'],
      [6, 'back', 'local'],
    ]);
    expect(detail.pages[0]!.name).toBe('virtual-0001.jpg');
    const image = await req('GET', `/scans/${batch.id}/pages/1/image`, { token: page });
    expect(image.status).toBe(200);
    expect((await sharp(image.raw).metadata()).format).toBe('jpeg');
    const thumb = await req('GET', `/scans/${batch.id}/pages/1/image?size=thumb`, { token: page });
    expect((await sharp(thumb.raw).metadata()).height).toBe(400);
    expect((await req('POST', `/scans/${batch.id}/resume`, { token: page })).json().message).toBe(
      T.batchDone,
    );
    ws.close();
  });

  it('closes a websocket that does not authenticate with a valid token', async () => {
    const ws = socket(ORIGIN);
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, type: 'auth', token: 'nope' }));
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(AGENT_WS_CLOSE.unauthorized);
  });

  it('scans 1-bit pages from the SANE test backend into one-channel grey JPEGs in the spool', async () => {
    const started = AgentBatchSchema.parse(
      (
        await req('POST', '/scans', {
          token: page,
          body: {
            settings: {
              scannerIndex: 0,
              colorMode: 'lineart',
              resolution: 100,
              adaptive: true,
              duplex: false,
            },
          },
        })
      ).json(),
    );
    await until(
      async () =>
        AgentBatchDetailSchema.parse((await req('GET', `/scans/${started.id}`, { token: page })).json()).batch
          .state === 'paused',
      20_000,
      'sane batch',
    );
    const detail = AgentBatchDetailSchema.parse(
      (await req('GET', `/scans/${started.id}`, { token: page })).json(),
    );
    expect(detail.pages.map((p) => p.name)).toEqual(['p-0001.jpg', 'p-0002.jpg', 'p-0003.jpg']);
    expect(detail.batch.lastNotice?.kind).toBe('feederEmpty');
    const image = await req('GET', `/scans/${started.id}/pages/2/image`, { token: page });
    expect((await sharp(image.raw).metadata()).channels).toBe(1);
    expect(fs.readdirSync(path.join(agent.dataDir, 'spool', started.id, 'raw'))).toEqual([]);
  });
});
