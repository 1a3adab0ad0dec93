import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  AGENT_PROTOCOL_VERSION,
  AgentBatchDetailSchema,
  AgentBatchSchema,
  CreatedScanBatchSchema,
  ScanPageInfoSchema,
  WsServerMessageSchema,
  envelope,
  type WsServerMessage,
} from '@zhzy/contracts';
import { bearer, signIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { z } from 'zod';
import { T } from '../src/i18n/zh-CN.js';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { scriptToken, startTestAgent, tempDir, until, type TestAgent } from './helpers.js';

/*
 * Fault injection: the agent's spool sits on a 4 MB tmpfs that fills up mid-batch. The page it cannot make durable
 * is not acknowledged (never announced, journaled or uploaded), the batch stops with the Chinese reason on the
 * websocket, everything already spooled keeps uploading, and once space is freed the batch resumes: every page of
 * the feeder reaches the host exactly once, in order.
 */

const Created = envelope(CreatedScanBatchSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));
const SHEETS = 8;

describe('nothing lost, nothing twice: the agent’s spool disk full (host on SQLite)', () => {
  const mount = tempDir('zhzy-spool-tmpfs-');
  const hostData = tempDir('zhzy-spool-host-');
  let mounted = false;
  let host: TestApp;
  let agent: TestAgent;

  beforeAll(async () => {
    // A real full disk: a small tmpfs (the test runs as root, as the brief's machine does).
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount.dir]);
    mounted = true;
    host = await startTestApp({ dialect: 'sqlite', listen: true, env: { DATA_DIR: hostData.dir } });
    agent = await startTestAgent(
      { scanners: [new VirtualScanner()] },
      { AGENT_HOST_URLS: host.baseUrl, AGENT_DATA_DIR: mount.dir },
    );
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await host?.close();
    if (mounted) execFileSync('umount', [mount.dir]);
    mount.remove();
    hostData.remove();
  });

  it('refuses the page it cannot fsync, stops with a Chinese notice, resumes after space is freed: every page once', async () => {
    const teacher = bearer((await signIn(host.app, 'demo-teacher')).access_token);
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
    const token = scriptToken(mount.dir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const detail = async (id: string) =>
      AgentBatchDetailSchema.parse(await (await fetch(`${agent.base}/scans/${id}`, { headers })).json());

    const ws = new WebSocket(`ws://127.0.0.1:${agent.port}/ws`);
    const messages: WsServerMessage[] = [];
    ws.on('message', (data: Buffer) =>
      messages.push(WsServerMessageSchema.parse(JSON.parse(data.toString('utf8')))),
    );
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, type: 'auth', token }));
    await until(() => messages.some((m) => m.type === 'hello'), 10_000, 'hello');

    // Leave room for a few pages only.
    const free = () => {
      const s = fs.statfsSync(mount.dir);
      return s.bavail * s.bsize;
    };
    const ballast = path.join(mount.dir, 'ballast');
    fs.writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 900 * 1024)));

    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: SHEETS, seed: 21 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);

    // Stopped part-way, with the reason in Chinese on the websocket, as a notice and on the device.
    await until(
      () => messages.some((m) => m.type === 'device' && m.state === 'error' && m.message === T.spoolFull),
      10_000,
      'the device in error with the reason',
    );
    const notice = messages.find((m) => m.type === 'notice' && m.batchId === batch.id);
    expect(notice?.type === 'notice' && notice.notice).toMatchObject({ kind: 'error', message: T.spoolFull });
    const stopped = await detail(batch.id);
    expect(stopped.batch.state).toBe('paused');
    expect(stopped.batch.lastNotice?.message).toBe(T.spoolFull);
    const spooled = stopped.pages.length;
    expect(spooled).toBeGreaterThan(0);
    expect(spooled).toBeLessThan(SHEETS * 2);
    // Every page announced is on the disk and journaled; the refused one was never announced.
    const announced = messages.flatMap((m) => (m.type === 'page' ? [m.page.seq] : []));
    expect(announced).toEqual(stopped.pages.map((p) => p.seq));
    const journal = fs.readFileSync(path.join(mount.dir, 'spool', batch.id, 'journal.ndjson'), 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    const journaled = journal
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; page?: { seq: number } })
      .filter((r) => r.t === 'page')
      .map((r) => r.page!.seq);
    expect(journaled).toEqual(stopped.pages.map((p) => p.seq));
    for (const p of stopped.pages)
      expect(
        fs.statSync(path.join(mount.dir, 'spool', batch.id, 'pages', `${String(p.seq).padStart(5, '0')}.jpg`))
          .size,
      ).toBe(p.bytes);

    // While the disk is still full, 继续扫描 is refused with the reason and nothing is taken.
    const refused = await fetch(`${agent.base}/scans/${batch.id}/resume`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ virtual: { sheets: SHEETS, seed: 21 } }),
    });
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as { message: string }).message).toBe(T.spoolFull);
    expect((await detail(batch.id)).pages.length).toBe(spooled);

    // What was spooled still uploads.
    await until(
      async () => (await detail(batch.id)).batch.uploadedCount === spooled,
      30_000,
      'spooled uploads',
    );

    // Space freed: the batch resumes with the page it held, then the rest of the feeder.
    fs.rmSync(ballast);
    const resumed = await fetch(`${agent.base}/scans/${batch.id}/resume`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ virtual: { sheets: SHEETS, seed: 21 } }),
    });
    expect(resumed.status).toBe(200);
    await agent.manager.settled(batch.id);
    await until(
      async () => {
        const d = await detail(batch.id);
        return d.batch.uploadedCount === d.batch.pageCount;
      },
      60_000,
      'every page uploaded',
    );
    const done = await detail(batch.id);
    expect(done.batch.lastNotice?.kind).toBe('feederEmpty');
    // Every side of every sheet, once, in feeder order: page n is the scanner's n-th image, front and back alternate.
    expect(done.pages.map((p) => p.seq)).toEqual(Array.from({ length: SHEETS * 2 }, (_, i) => i + 1));
    expect(done.pages.map((p) => p.name)).toEqual(
      done.pages.map((p) => `virtual-${String(p.seq).padStart(4, '0')}.jpg`),
    );
    expect(done.pages.map((p) => p.side)).toEqual(done.pages.map((p) => (p.seq % 2 ? 'front' : 'back')));
    expect(new Set(done.pages.map((p) => p.sha256)).size).toBe(SHEETS * 2);
    const onHost = Pages.parse(
      (
        await host.app.inject({
          method: 'GET',
          url: `/teacher/scan/batch/${created.batch.id}/pages`,
          headers: teacher,
        })
      ).json(),
    ).data;
    expect(onHost.map((p) => [p.seq, p.contentHash])).toEqual(done.pages.map((p) => [p.seq, p.sha256]));
    ws.close();
    console.info(
      `spool full: 1 fault, ${SHEETS * 2} pages sent, ${spooled} spooled before the disk filled, lost 0, duplicates ${onHost.length - new Set(onHost.map((p) => p.contentHash)).size}`,
    );
  });
});
