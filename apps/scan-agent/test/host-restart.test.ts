import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentBatchDetailSchema, AgentBatchSchema } from '@zhzy/contracts';
import { DIALECTS, openTestDb } from '@zhzy/server/testing';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { createHostBatch, freePort, hostPages, signInOverHttp, startHostProcess } from './host-process.js';
import { scriptToken, startTestAgent, until } from './helpers.js';

/*
 * Fault injection: the host process is killed (SIGKILL) while the agent is uploading a batch, then started again on
 * the same port and database. The agent waits the host out and sends what is left; a page whose upload the host
 * committed just before dying is answered as the first copy. Every page reaches the host exactly once.
 */

const SHEETS = 10;

describe.each(DIALECTS)('nothing lost, nothing twice: the host killed mid-upload (%s)', (dialect) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('uploads every page exactly once across a SIGKILL of the host and its restart on the same port and database', async () => {
    const testDb = await openTestDb(dialect);
    cleanup.push(() => testDb.cleanup());
    const dataDir =
      dialect === 'sqlite' ? testDb.location : fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-restart-files-'));
    if (dialect !== 'sqlite') cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const hostOptions = {
      port,
      dataDir,
      ...(dialect === 'postgres' ? { databaseUrl: testDb.location } : {}),
    };
    let host = await startHostProcess(hostOptions);
    cleanup.push(() => host.kill());
    const teacher = await signInOverHttp(host.baseUrl, 'demo-teacher');
    const created = await createHostBatch(host.baseUrl, teacher);

    const agent = await startTestAgent(
      { scanners: [new VirtualScanner()], uploader: { baseDelayMs: 200, maxDelayMs: 2_000 } },
      { AGENT_HOST_URLS: host.baseUrl },
    );
    cleanup.push(() => agent.stop());
    const headers = {
      authorization: `Bearer ${scriptToken(agent.dataDir)}`,
      'content-type': 'application/json',
    };
    const detail = async (id: string) =>
      AgentBatchDetailSchema.parse(await (await fetch(`${agent.base}/scans/${id}`, { headers })).json());
    const rowsOnHost = () =>
      testDb.db.kysely
        .selectFrom('scan_pages')
        .select(['id', 'seq', 'content_hash'])
        .where('batch_id', '=', created.batch.id)
        .orderBy('seq')
        .execute();

    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: SHEETS, seed: 17 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());

    // Kill the host while the agent is sending: some pages are in, more are waiting.
    await until(async () => (await rowsOnHost()).length >= 3, 60_000, 'three pages on the host');
    await host.kill();
    const before = await detail(batch.id);
    const onHostAtKill = (await rowsOnHost()).length;
    expect(onHostAtKill).toBeLessThan(SHEETS * 2);
    expect(before.batch.uploadedCount).toBeLessThan(SHEETS * 2);

    // The agent keeps scanning into its spool while the host is down, and keeps trying.
    await agent.manager.settled(batch.id);
    expect((await detail(batch.id)).batch.pageCount).toBe(SHEETS * 2);

    host = await startHostProcess(hostOptions);
    await until(
      async () => (await detail(batch.id)).batch.uploadedCount === SHEETS * 2,
      120_000,
      'every page uploaded after the restart',
    );
    const after = await detail(batch.id);
    const rows = await rowsOnHost();
    expect(rows.map((r) => r.seq)).toEqual(after.pages.map((p) => p.seq));
    expect(rows.map((r) => r.content_hash)).toEqual(after.pages.map((p) => p.sha256));
    expect(new Set(rows.map((r) => r.content_hash)).size).toBe(SHEETS * 2);
    expect(after.pages.map((p) => p.hostPageId)).toEqual(rows.map((r) => r.id));
    // The teacher's listing on the restarted host says the same.
    const listed = await hostPages(
      host.baseUrl,
      await signInOverHttp(host.baseUrl, 'demo-teacher'),
      created.batch.id,
    );
    expect(listed.map((p) => [p.seq, p.contentHash])).toEqual(after.pages.map((p) => [p.seq, p.sha256]));
    console.info(
      `host restart (${dialect}): 1 SIGKILL with ${onHostAtKill} of ${SHEETS * 2} pages in, ${SHEETS * 2} pages sent, lost ${SHEETS * 2 - rows.length}, duplicates ${rows.length - new Set(rows.map((r) => r.content_hash)).size}`,
    );
  }, 300_000);
});
