import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentBatchDetailSchema,
  AgentBatchSchema,
  CreatedScanBatchSchema,
  ScanPageInfoSchema,
  envelope,
} from '@zhzy/contracts';
import { bearer, signIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { z } from 'zod';
import { T } from '../src/i18n/zh-CN.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { scriptToken, startTestAgent, tempDir, until, type TestAgent } from './helpers.js';

/*
 * A page the host keeps refusing as damaged on the way (hashMismatch) is tried a few times with backoff, then set
 * aside with a Chinese notice; it stays in the agent's spool and reaches the host once the teacher retries.
 * The damage is real: a loopback proxy between agent and host flips one byte of the page inside the upload.
 */

const Created = envelope(CreatedScanBatchSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));

/** Forwards requests to `target`; while `damage` is on, flips a byte of each upload's file near its end. */
function damagingProxy(target: string) {
  const state = { damage: true, uploads: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upload = req.method === 'POST' && /\/page$/.test(req.url ?? '');
      if (upload) state.uploads++;
      // The file is the last part: 300 bytes before the end lies inside the JPEG's data, past its headers.
      if (upload && state.damage) body[body.length - 300]! ^= 0xff;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (
          typeof v === 'string' &&
          !['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive'].includes(k)
        )
          headers.set(k, v);
      fetch(new URL(req.url ?? '/', target), {
        method: req.method,
        headers,
        ...(body.length ? { body } : {}),
      })
        .then(async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'text/plain',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  return {
    state,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('an upload the host refuses as damaged (real host on SQLite behind a damaging proxy)', () => {
  let host: TestApp;
  let agent: TestAgent;
  let proxy: ReturnType<typeof damagingProxy>;
  let proxyUrl: string;
  const hostData = tempDir('zhzy-damage-host-');
  let teacher: { authorization: string };

  beforeAll(async () => {
    host = await startTestApp({ dialect: 'sqlite', listen: true, env: { DATA_DIR: hostData.dir } });
    teacher = bearer((await signIn(host.app, 'demo-teacher')).access_token);
    proxy = damagingProxy(host.baseUrl);
    proxyUrl = await proxy.start();
    agent = await startTestAgent(
      {
        scanners: [new VirtualScanner()],
        uploader: { baseDelayMs: 20, maxDelayMs: 80, maxRefusedAttempts: 3 },
      },
      { AGENT_HOST_URLS: proxyUrl },
    );
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await proxy?.close();
    await host?.close();
    hostData.remove();
  });

  const auth = () => ({
    authorization: `Bearer ${scriptToken(agent.dataDir)}`,
    'content-type': 'application/json',
  });
  const detail = async (id: string) =>
    AgentBatchDetailSchema.parse(
      await (await fetch(`${agent.base}/scans/${id}`, { headers: auth() })).json(),
    );
  const hostPages = async (batchId: string) =>
    Pages.parse(
      (
        await host.app.inject({
          method: 'GET',
          url: `/teacher/scan/batch/${batchId}/pages`,
          headers: teacher,
        })
      ).json(),
    ).data;

  it('stops after the cap with a Chinese notice, keeps the page spooled, and uploads it once retried', async () => {
    const created = Created.parse(
      (
        await host.app.inject({
          method: 'POST',
          url: '/teacher/scan/batch',
          headers: teacher,
          payload: { deviceName: '虚拟扫描仪' },
        })
      ).json(),
    ).data;
    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: false },
        host: { baseUrl: proxyUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 1, seed: 3 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);

    await until(async () => (await detail(batch.id)).batch.failedCount === 1, 30_000, 'the page set aside');
    const failed = await detail(batch.id);
    expect(failed.pages).toHaveLength(1);
    expect(failed.pages[0]).toMatchObject({ upload: 'failed', uploadError: T.uploadDamaged(3) });
    expect(failed.pages[0]!.uploadError).toContain('已停止自动上传');
    expect(proxy.state.uploads).toBe(3);
    // No more attempts: well past several backoffs, the count stays.
    await new Promise((r) => setTimeout(r, 500));
    expect(proxy.state.uploads).toBe(3);
    // Nothing lost: the page is still in the spool, and the host stored nothing damaged.
    const spooled = agent.manager.detail(batch.id).pages[0]!;
    expect(fs.existsSync(`${agent.dataDir}/spool/${batch.id}/pages/00001.jpg`)).toBe(true);
    expect(spooled.sha256).toBe(failed.pages[0]!.sha256);
    expect(await hostPages(created.batch.id)).toEqual([]);

    // The network is fixed; the teacher retries the failed upload.
    proxy.state.damage = false;
    const retry = await fetch(`${agent.base}/scans/${batch.id}/retry`, {
      method: 'POST',
      headers: { authorization: auth().authorization },
    });
    expect(retry.status).toBe(200);
    await until(async () => (await detail(batch.id)).batch.uploadedCount === 1, 30_000, 'the page uploaded');
    const after = await detail(batch.id);
    expect(after.pages[0]).toMatchObject({ upload: 'uploaded', uploadError: null });
    expect((await hostPages(created.batch.id)).map((p) => p.contentHash)).toEqual([after.pages[0]!.sha256]);
  });
});
