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
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { scriptToken, startTestAgent, tempDir, until, type TestAgent } from './helpers.js';

/*
 * A page rescanned through the agent replaces its first scan in its place, in the agent's spool and on the host; a
 * duplex sheet is rescanned whole, both sides.
 */

const Created = envelope(CreatedScanBatchSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));

describe('rescanning a page of a batch (virtual scanner, a real host on SQLite)', () => {
  let host: TestApp;
  let agent: TestAgent;
  const hostData = tempDir('zhzy-rescan-host-');
  let teacher: { authorization: string };

  const scanner = new VirtualScanner();

  beforeAll(async () => {
    host = await startTestApp({ dialect: 'sqlite', listen: true, env: { DATA_DIR: hostData.dir } });
    teacher = bearer((await signIn(host.app, 'demo-teacher')).access_token);
    agent = await startTestAgent({ scanners: [scanner] }, { AGENT_HOST_URLS: host.baseUrl });
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
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

  const createHostBatch = async () =>
    Created.parse(
      (
        await host.app.inject({
          method: 'POST',
          url: '/teacher/scan/batch',
          headers: teacher,
          payload: { deviceName: '虚拟扫描仪' },
        })
      ).json(),
    ).data;
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

  it('puts the rescan in place of page 2 on the agent and on the host, keeping the order', async () => {
    const created = await createHostBatch();
    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: false },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 3, seed: 5 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);
    await until(async () => (await detail(batch.id)).batch.uploadedCount === 3, 30_000, 'three uploads');
    const before = (await detail(batch.id)).pages;

    const rescan = await fetch(`${agent.base}/scans/${batch.id}/pages/2/rescan`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ virtual: { sheets: 4, seed: 5 } }),
    });
    expect(rescan.status).toBe(200);
    expect(AgentBatchSchema.parse(await rescan.json()).rescanSeq).toBe(2);
    await agent.manager.settled(batch.id);
    await until(
      async () => (await detail(batch.id)).pages.every((p) => p.upload === 'uploaded'),
      30_000,
      'the rescan uploaded',
    );
    const after = await detail(batch.id);
    expect(after.batch).toMatchObject({ pageCount: 3, rescanSeq: null, state: 'paused' });
    expect(after.pages.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(after.pages[1]).toMatchObject({ rescanned: true });
    expect(after.pages[1]!.sha256).not.toBe(before[1]!.sha256);
    expect([after.pages[0]!.sha256, after.pages[2]!.sha256]).toEqual([before[0]!.sha256, before[2]!.sha256]);

    const onHost = await hostPages(created.batch.id);
    expect(onHost.map((p) => [p.seq, p.contentHash])).toEqual(after.pages.map((p) => [p.seq, p.sha256]));

    const missing = await fetch(`${agent.base}/scans/${batch.id}/pages/9/rescan`, {
      method: 'POST',
      headers: auth(),
      body: '{}',
    });
    expect(missing.status).toBe(404);
  });

  it('replaces both sides of a duplex sheet, front then back, on the agent and on the host', async () => {
    const created = await createHostBatch();
    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 2, seed: 9 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);
    await until(async () => (await detail(batch.id)).batch.uploadedCount === 4, 30_000, 'four uploads');
    const before = (await detail(batch.id)).pages;
    expect(before.map((p) => p.side)).toEqual(['front', 'back', 'front', 'back']);

    // The teacher picks the back of the second sheet: the whole sheet (pages 3 and 4) is scanned again.
    const rescan = await fetch(`${agent.base}/scans/${batch.id}/pages/4/rescan`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ virtual: { sheets: 3, seed: 9 } }),
    });
    expect(rescan.status).toBe(200);
    expect(AgentBatchSchema.parse(await rescan.json())).toMatchObject({ rescanSeq: 3, rescanSeqs: [3, 4] });
    await agent.manager.settled(batch.id);
    await until(
      async () => (await detail(batch.id)).pages.every((p) => p.upload === 'uploaded'),
      30_000,
      'the rescanned sheet uploaded',
    );
    const after = await detail(batch.id);
    expect(after.batch).toMatchObject({ pageCount: 4, rescanSeq: null, rescanSeqs: [], state: 'paused' });
    expect(after.pages.map((p) => [p.seq, p.side, p.rescanned])).toEqual([
      [1, 'front', false],
      [2, 'back', false],
      [3, 'front', true],
      [4, 'back', true],
    ]);
    expect(after.pages[2]!.sha256).not.toBe(before[2]!.sha256);
    expect(after.pages[3]!.sha256).not.toBe(before[3]!.sha256);
    expect(after.pages.slice(0, 2).map((p) => p.sha256)).toEqual(before.slice(0, 2).map((p) => p.sha256));
    const onHost = await hostPages(created.batch.id);
    expect(onHost.map((p) => [p.seq, p.contentHash])).toEqual(after.pages.map((p) => [p.seq, p.sha256]));

    // Picking the front of a sheet takes its back along too.
    const again = await fetch(`${agent.base}/scans/${batch.id}/pages/1/rescan`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ virtual: { sheets: 4, seed: 9 } }),
    });
    expect(AgentBatchSchema.parse(await again.json()).rescanSeqs).toEqual([1, 2]);
    await agent.manager.settled(batch.id);
    const last = await detail(batch.id);
    expect(last.pages.map((p) => p.rescanned)).toEqual([true, true, true, true]);
    expect(last.batch.pageCount).toBe(4);
  });

  it('without a script of its own, the virtual scanner feeds the very sheet again: same student, same card pages', async () => {
    const created = await createHostBatch();
    const students = ['张一', '李二', '王三'].map((name, i) => ({
      id: `st-${i + 1}`,
      name,
      number: `2026000${i + 1}`,
      className: '七年级(1)班',
    }));
    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 3, seed: 11, students },
      }),
    });
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);
    await until(async () => (await detail(batch.id)).batch.uploadedCount === 6, 30_000, 'six uploads');
    const before = (await detail(batch.id)).pages;

    // The teacher rescans the second student's sheet from its back, as the /scan screen asks (no script).
    const rescan = await fetch(`${agent.base}/scans/${batch.id}/pages/4/rescan`, {
      method: 'POST',
      headers: auth(),
      body: '{}',
    });
    expect(AgentBatchSchema.parse(await rescan.json()).rescanSeqs).toEqual([3, 4]);
    await agent.manager.settled(batch.id);
    await until(
      async () => (await detail(batch.id)).pages.every((p) => p.upload === 'uploaded'),
      30_000,
      'the rescanned sheet uploaded',
    );
    const after = await detail(batch.id);
    expect(after.batch).toMatchObject({ pageCount: 6, rescanSeqs: [], state: 'paused' });
    expect(after.pages.map((p) => [p.seq, p.side, p.rescanned])).toEqual([
      [1, 'front', false],
      [2, 'back', false],
      [3, 'front', true],
      [4, 'back', true],
      [5, 'front', false],
      [6, 'back', false],
    ]);
    // A new pass through the feeder (new images), of 李二's card, its front and its back.
    expect(after.pages[2]!.sha256).not.toBe(before[2]!.sha256);
    expect(after.pages[3]!.sha256).not.toBe(before[3]!.sha256);
    const workDir = [...scanner.refed.keys()].find((dir) => dir.includes(batch.id))!;
    expect(scanner.refed.get(workDir)!.map((x) => [x.student.name, x.pageIndex])).toEqual([
      ['李二', 0],
      ['李二', 1],
    ]);
    const onHost = await hostPages(created.batch.id);
    expect(onHost.map((p) => [p.seq, p.contentHash])).toEqual(after.pages.map((p) => [p.seq, p.sha256]));
  });
});
