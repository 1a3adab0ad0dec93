import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentBatchDetailSchema, AgentBatchSchema, CreatedScanBatchSchema, envelope } from '@zhzy/contracts';
import { DIALECTS, bearer, signIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { scriptToken, tempDir, until } from './helpers.js';

const APP_DIR = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return address && typeof address === 'object' ? address.port : 0;
}

/** A proxy in front of the host that can hold each upload's answer after the host committed it. */
async function startProxy(target: string) {
  const state = { holdMs: 0, holding: 0, answered: [] as { status: number; duplicate: boolean | null }[] };
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const k of ['content-type', 'authorization', 'idempotency-key'])
        if (typeof req.headers[k] === 'string') headers[k] = req.headers[k];
      let upstream: Response;
      try {
        upstream = await fetch(`${target}${req.url}`, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
      } catch {
        res.destroy();
        return;
      }
      const body = Buffer.from(await upstream.arrayBuffer());
      if (req.url?.endsWith('/page')) {
        let duplicate: boolean | null = null;
        try {
          duplicate =
            (JSON.parse(body.toString('utf8')) as { data?: { duplicate?: boolean } }).data?.duplicate ?? null;
        } catch {
          duplicate = null;
        }
        state.answered.push({ status: upstream.status, duplicate });
        if (state.holdMs) {
          state.holding++;
          await new Promise((r) => setTimeout(r, state.holdMs));
          state.holding--;
        }
      }
      if (res.destroyed || req.socket.destroyed) return;
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  return {
    url,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the real agent as its own process (tsx src/main.ts), as a teacher's PC would. */
async function startAgentProcess(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: APP_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`agent exited: ${stderr}`);
      return fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
    },
    30_000,
    'agent to listen',
  );
  return child;
}

const UploadAnswer = envelope(CreatedScanBatchSchema);

describe.each(DIALECTS)('nothing lost, nothing twice: the agent killed mid-batch (host on %s)', (dialect) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('uploads every spooled page exactly once after SIGKILL during scanning and during an upload, then a restart', async () => {
    const hostData = tempDir('zhzy-host-');
    cleanup.push(hostData.remove);
    const host: TestApp = await startTestApp({ dialect, listen: true, env: { DATA_DIR: hostData.dir } });
    cleanup.push(() => host.close());
    const teacher = bearer((await signIn(host.app, 'demo-teacher')).access_token);
    const created = UploadAnswer.parse(
      (
        await host.app.inject({
          method: 'POST',
          url: '/teacher/scan/batch',
          headers: teacher,
          payload: { subjectTeacher: false, deviceName: '虚拟扫描仪' },
        })
      ).json(),
    ).data;

    const proxy = await startProxy(host.baseUrl);
    cleanup.push(() => proxy.close());
    proxy.state.holdMs = 1_500;

    const data = tempDir('zhzy-agent-proc-');
    cleanup.push(data.remove);
    const port = await freePort();
    const env = {
      AGENT_PORT: String(port),
      AGENT_DATA_DIR: data.dir,
      AGENT_DRIVERS: '',
      AGENT_VIRTUAL_SCANNER: 'true',
      AGENT_ESCL_DISCOVERY: 'false',
      AGENT_HOST_URLS: proxy.url,
      LOG_LEVEL: 'error',
    };
    const first = await startAgentProcess(env, port);
    cleanup.push(() => {
      first.kill('SIGKILL');
    });
    const base = `http://127.0.0.1:${port}`;
    const auth = () => ({
      authorization: `Bearer ${scriptToken(data.dir)}`,
      'content-type': 'application/json',
    });
    const started = await fetch(`${base}/scans`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: proxy.url, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 8, seed: 11, pageIntervalMs: 250 },
      }),
    });
    expect(started.status).toBe(200);
    const batch = AgentBatchSchema.parse(await started.json());

    // Kill while the host has committed an upload whose answer the agent has not received, and while scanning.
    await until(
      () =>
        proxy.state.answered.filter((a) => a.status === 200 && a.duplicate === false).length >= 3 &&
        proxy.state.holding > 0,
      60_000,
      'an upload held after the host committed it',
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const journal = fs.readFileSync(path.join(data.dir, 'spool', batch.id, 'journal.ndjson'), 'utf8');
    const spooledBeforeKill = journal.split('\n').filter((l) => l.includes('"t":"page"')).length;
    // Three pages the host committed were spooled first; scanning may or may not have run ahead of the uploads.
    expect(spooledBeforeKill).toBeGreaterThanOrEqual(3);
    expect(spooledBeforeKill).toBeLessThan(16);

    proxy.state.holdMs = 0;
    const second = await startAgentProcess(env, port);
    cleanup.push(() => {
      second.kill('SIGKILL');
    });
    let detail = AgentBatchDetailSchema.parse(
      await (await fetch(`${base}/scans/${batch.id}`, { headers: auth() })).json(),
    );
    await until(
      async () => {
        detail = AgentBatchDetailSchema.parse(
          await (await fetch(`${base}/scans/${batch.id}`, { headers: auth() })).json(),
        );
        return detail.batch.uploadedCount === detail.batch.pageCount;
      },
      60_000,
      'every page uploaded after the restart',
    );
    expect(detail.batch.state).toBe('paused');
    expect(detail.batch.lastNotice?.kind).toBe('interrupted');
    expect(detail.pages.length).toBeGreaterThanOrEqual(spooledBeforeKill);

    const rows = await host.testDb.db.kysely
      .selectFrom('scan_pages')
      .select(['id', 'seq', 'content_hash'])
      .where('batch_id', '=', created.batch.id)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.seq)).toEqual(detail.pages.map((p) => p.seq));
    expect(rows.map((r) => r.content_hash)).toEqual(detail.pages.map((p) => p.sha256));
    expect(new Set(rows.map((r) => r.content_hash)).size).toBe(rows.length);
    expect(detail.pages.map((p) => p.hostPageId)).toEqual(rows.map((r) => r.id));
    // The page whose answer was lost went again and the host answered the first copy.
    expect(proxy.state.answered.some((a) => a.status === 200 && a.duplicate === true)).toBe(true);
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  });
});
