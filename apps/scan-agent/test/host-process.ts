import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { CreatedScanBatchSchema, ScanPageInfoSchema, TokenResponseSchema, envelope } from '@zhzy/contracts';
import { z } from 'zod';
import { DEMO_PASSWORD } from '@zhzy/server/testing';
import { until } from './helpers.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../../server');

/** A port nobody listens on now (the host is restarted on the same one). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return address && typeof address === 'object' ? address.port : 0;
}

export interface HostProcess {
  child: ChildProcess;
  baseUrl: string;
  /** SIGKILL: no shutdown hook runs, requests in flight are cut. */
  kill(): Promise<void>;
}

/**
 * The real host as its own process (`tsx src/server.ts`), as production runs it, on a given port and database:
 * `dataDir` holds the SQLite file (or only the stored files when `databaseUrl` points at PostgreSQL).
 */
export async function startHostProcess(options: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      WEB_DIST: '',
      LOG_LEVEL: 'error',
      SEED_DEMO_SCANS: 'false',
      SEED_DEMO_RESULTS: 'false',
      RECOGNITION_WORKERS: '1',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`host exited (${child.exitCode}): ${stderr}`);
      return fetch(`${baseUrl}/ready`).then(
        (r) => r.ok,
        () => false,
      );
    },
    120_000,
    'the host to be ready',
  );
  return {
    child,
    baseUrl,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const Token = TokenResponseSchema;
const Created = envelope(CreatedScanBatchSchema);
const Pages = envelope(z.array(ScanPageInfoSchema));

/**
 * A fetch that asks once more when the connection was closed before any answer came: the client may reuse a
 * keep-alive socket (from the start-up /health polls) just as the host closes it as idle, which a loaded machine
 * makes likely. Only for calls that are safe to repeat.
 */
async function fetchRetryingClosedSocket(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/** Signs a demo account in over HTTP. */
export async function signInOverHttp(baseUrl: string, username: string): Promise<string> {
  const res = await fetchRetryingClosedSocket(`${baseUrl}/oauth/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('zhzy-web:zhzy-web-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username, password: DEMO_PASSWORD }).toString(),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return Token.parse(await res.json()).access_token;
}

/** A scan batch on the host, with its upload token. */
export async function createHostBatch(baseUrl: string, token: string) {
  const res = await fetch(`${baseUrl}/teacher/scan/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceName: '虚拟扫描仪' }),
  });
  if (res.status !== 200) throw new Error(`batch failed: ${res.status} ${await res.text()}`);
  return Created.parse(await res.json()).data;
}

/** The host's own listing of a batch's pages (what the teacher's screen shows); tests poll it, so it is bounded. */
export async function hostPages(baseUrl: string, token: string, batchId: string) {
  const res = await fetch(`${baseUrl}/teacher/scan/batch/${batchId}/pages`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  return Pages.parse(await res.json()).data;
}
