import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { AgentBatchDetailSchema, AgentBatchSchema, MESSAGES } from '@zhzy/contracts';
import { TEST_PG_ADMIN_URL, startTestApp, type TestApp } from '@zhzy/server/testing';
import { VirtualScanner } from '../src/scanners/virtual/virtual-driver.js';
import { createHostBatch, hostPages, signInOverHttp } from './host-process.js';
import { scriptToken, startTestAgent, tempDir, until, type TestAgent } from './helpers.js';

/*
 * Fault injection: PostgreSQL terminates every connection of the host (pg_terminate_backend), again and again, while
 * teachers call the host and while the agent uploads a batch. The host answers each call either as usual or with a
 * Chinese 503 (never a 500), recovers by itself (new pooled connections, no restart), and every page reaches it
 * exactly once.
 */

const SHEETS = 8;

describe('nothing lost, nothing twice: the database connections dropped (PostgreSQL)', () => {
  const hostData = tempDir('zhzy-dbdrop-host-');
  let host: TestApp;
  let agent: TestAgent;
  let admin: pg.Client;
  let database: string;
  let terminated = 0;

  beforeAll(async () => {
    host = await startTestApp({ dialect: 'postgres', listen: true, env: { DATA_DIR: hostData.dir } });
    database = new URL(host.testDb.location).pathname.slice(1);
    admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
    await admin.connect();
    agent = await startTestAgent(
      { scanners: [new VirtualScanner()], uploader: { baseDelayMs: 100, maxDelayMs: 1_000 } },
      { AGENT_HOST_URLS: host.baseUrl },
    );
  }, 120_000);
  afterAll(async () => {
    await agent?.stop();
    await admin?.end();
    await host?.close();
    hostData.remove();
  });

  /** Cuts every connection the host holds to its database; answers how many it cut. */
  const dropConnections = async () => {
    const res = await admin.query<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    const cut = res.rows.filter((r) => r.ok).length;
    terminated += cut;
    return cut;
  };

  /** Drops the connections every `everyMs` until the returned function is called. */
  const storm = (everyMs: number) => {
    let on = true;
    const loop = (async () => {
      while (on) {
        await dropConnections();
        await new Promise((r) => setTimeout(r, everyMs));
      }
    })();
    return async () => {
      on = false;
      await loop;
    };
  };

  it('answers normal calls as usual or with a Chinese 503 while its connections are cut, then recovers by itself', async () => {
    const token = await signInOverHttp(host.baseUrl, 'demo-teacher');
    const call = async (url: string) => {
      const res = await fetch(`${host.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as { message: string } };
    };
    const urls = [
      '/system/user/info',
      '/teacher/paper/school?page=1&size=10',
      '/teacher/paper/mine?page=1&size=10',
    ];
    for (const url of urls) expect({ url, ...(await call(url)) }).toMatchObject({ url, status: 200 });

    // Idle connections cut: the next calls get new ones.
    expect(await dropConnections()).toBeGreaterThan(0);
    const afterCut = await Promise.all(urls.map(call));
    for (const a of afterCut) {
      if (a.status !== 200)
        expect(a).toEqual({
          status: 503,
          body: expect.objectContaining({ message: MESSAGES.databaseUnavailable }),
        });
    }

    // Connections cut while calls run, many times over.
    const stop = storm(5);
    const answers: { status: number; body: { message: string } }[] = [];
    for (let round = 0; round < 30; round++) answers.push(...(await Promise.all(urls.map(call))));
    await stop();
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503))
      expect(a.body.message).toBe(MESSAGES.databaseUnavailable);

    // Recovered without a restart: a pooled connection cut by the storm's last round may still fail its next call
    // (with the same Chinese 503), then the call is answered as usual.
    for (const url of urls) {
      await until(
        async () => {
          const a = await call(url);
          if (a.status !== 200) expect(a.body.message).toBe(MESSAGES.databaseUnavailable);
          return a.status === 200;
        },
        10_000,
        `${url} answered again`,
      );
    }
    console.info(
      `database drop, calls: ${answers.length} calls under ${terminated} cut connections: ${answers.filter((a) => a.status === 200).length} answered, ${answers.filter((a) => a.status === 503).length} with 503, 0 with 500`,
    );
  });

  it('loses and duplicates no page when the connections are cut during a batch of uploads', async () => {
    const token = await signInOverHttp(host.baseUrl, 'demo-teacher');
    const created = await createHostBatch(host.baseUrl, token);
    const headers = {
      authorization: `Bearer ${scriptToken(agent.dataDir)}`,
      'content-type': 'application/json',
    };
    const detail = async (id: string) =>
      AgentBatchDetailSchema.parse(await (await fetch(`${agent.base}/scans/${id}`, { headers })).json());
    const before = terminated;
    const stop = storm(20);
    const started = await fetch(`${agent.base}/scans`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: SHEETS, seed: 23 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());
    await agent.manager.settled(batch.id);
    // Half the pages in under the storm, then calm: the rest go through.
    await until(
      async () => (await detail(batch.id)).batch.uploadedCount >= SHEETS,
      120_000,
      'half the pages',
    );
    await stop();
    const cut = terminated - before;
    expect(cut).toBeGreaterThan(0);
    await until(
      async () => (await detail(batch.id)).batch.uploadedCount === SHEETS * 2,
      120_000,
      'every page uploaded',
    );
    const after = await detail(batch.id);
    expect(after.batch.failedCount).toBe(0);
    const rows = await host.testDb.db.kysely
      .selectFrom('scan_pages')
      .select(['id', 'seq', 'content_hash'])
      .where('batch_id', '=', created.batch.id)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.seq)).toEqual(after.pages.map((p) => p.seq));
    expect(rows.map((r) => r.content_hash)).toEqual(after.pages.map((p) => p.sha256));
    expect(new Set(rows.map((r) => r.content_hash)).size).toBe(SHEETS * 2);
    const listed = await hostPages(host.baseUrl, token, created.batch.id);
    expect(listed.map((p) => [p.seq, p.contentHash])).toEqual(after.pages.map((p) => [p.seq, p.sha256]));
    console.info(
      `database drop, uploads: ${cut} connections cut, ${SHEETS * 2} pages sent, lost ${SHEETS * 2 - rows.length}, duplicates ${rows.length - new Set(rows.map((r) => r.content_hash)).size}`,
    );
  });
});
