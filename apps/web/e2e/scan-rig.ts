import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, WEB_DIST, WEB_ROOT } from './browser';

const AGENT_DIR = path.resolve(WEB_ROOT, '../scan-agent');

/**
 * What a teacher's set-up for scanning is, started for one e2e file: a fresh host (SQLite, its own data folder,
 * serving the built web app, demo-teacher signed in for API checks), a real scan agent as its own process with the
 * virtual scanner only, and Debian's Chromium.
 */
export interface ScanRig {
  host: TestApp;
  headers: { authorization: string };
  browser: Browser;
  agentPort: number;
  /** The pairing code the agent shows its user (`scan-agent pair` asks for it with the local script token). */
  pairingCode(): Promise<string>;
  /** A host GET as demo-teacher, its `data`. */
  api<T>(url: string): Promise<T>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return address && typeof address === 'object' ? address.port : 0;
}

/** The agent as a teacher's PC runs it: its own process (tsx src/main.ts start), the virtual scanner only. */
async function startAgent(
  origin: string,
  port: number,
  dataDir: string,
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: AGENT_DIR,
    env: {
      ...process.env,
      AGENT_PORT: String(port),
      AGENT_DATA_DIR: dataDir,
      AGENT_ALLOWED_ORIGINS: origin,
      AGENT_DRIVERS: 'virtual',
      AGENT_ESCL_DISCOVERY: 'false',
      AGENT_PRINTERS: 'ipp',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`agent exited: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, stop };
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error(`agent did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts the rig (`name` labels its temporary folders) with the host's extra environment; `artifacts` is emptied. */
export async function startScanRig(
  name: string,
  hostEnv: Record<string, string>,
  artifacts: string,
): Promise<ScanRig> {
  ensureBuilt();
  const hostData = fs.mkdtempSync(path.join(os.tmpdir(), `zhzy-${name}-host-`));
  const agentData = fs.mkdtempSync(path.join(os.tmpdir(), `zhzy-${name}-agent-`));
  const cleanups: (() => Promise<void> | void)[] = [
    () => {
      for (const dir of [agentData, hostData]) fs.rmSync(dir, { recursive: true, force: true });
    },
  ];
  const close = async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  };
  try {
    const host = await startTestApp({
      dialect: 'sqlite',
      listen: true,
      env: { WEB_DIST, DATA_DIR: hostData, ...hostEnv },
    });
    cleanups.push(() => host.close());
    const headers = bearer((await apiSignIn(host.app, 'demo-teacher')).access_token);
    const agentPort = await freePort();
    const agent = await startAgent(host.baseUrl, agentPort, agentData);
    cleanups.push(agent.stop);
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.mkdirSync(artifacts, { recursive: true });
    return {
      host,
      headers,
      browser,
      agentPort,
      async pairingCode() {
        const token = fs.readFileSync(path.join(agentData, 'agent-token'), 'utf8').trim();
        const res = await fetch(`http://127.0.0.1:${agentPort}/pairing/code`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { code: string }).code;
      },
      async api<T>(url: string) {
        const res = await host.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200);
        return res.json<{ data: T }>().data;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
