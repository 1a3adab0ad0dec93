// The 扫描助手 updates itself (ADR 0055), for real: the Linux package installed with install.sh, a real host
// process serving a newer build from AGENT_PACKAGES_DIR, the installed agent scanning 4 pages to it. A manifest whose
// SHA-256 does not match is refused in Chinese and nothing changes; the right one is downloaded, swapped in and
// restarted with the spooled pages and the pairing kept; a build that cannot start is rolled back.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  AgentBatchDetailSchema,
  AgentHealthSchema,
  AgentUpdateAnswerSchema,
  PairingTokenSchema,
} from '@zhzy/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createHostBatch,
  freePort,
  hostPages,
  signInOverHttp,
  startHostProcess,
  type HostProcess,
} from './host-process.js';
import { tempDir, until } from './helpers.js';

const APP_DIR = path.resolve(import.meta.dirname, '..');
// Its own folder: other test files build packages of the same versions at the same time.
const OUT = path.join(APP_DIR, 'dist', 'packages-test', 'self-update');
const [OLD, NEW, BROKEN] = ['0.2.0', '0.2.1-test', '0.2.2-broken'];
const canRun = process.platform === 'linux' && process.arch === 'x64';

async function linuxPackage(version: string): Promise<string> {
  const { packageAgent } = (await import(path.join(APP_DIR, 'scripts', 'package.mjs'))) as {
    packageAgent: (o: { version: string; platforms: string[]; out: string }) => Promise<{
      packages: Record<string, { file: string }>;
    }>;
  };
  const out = path.join(OUT, version);
  const manifest = await packageAgent({ version, platforms: ['linux-x64'], out });
  return path.join(out, manifest.packages['linux-x64']!.file);
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Puts `tarball` into the host's packages folder with a manifest (a wrong SHA-256 when asked). */
function serve(dir: string, version: string, tarball: string, options: { badSha?: boolean } = {}) {
  const file = path.basename(tarball);
  fs.copyFileSync(tarball, path.join(dir, file));
  const sha = options.badSha
    ? crypto.createHash('sha256').update('something else').digest('hex')
    : sha256(tarball);
  const entry = { version, file, size: fs.statSync(tarball).size, sha256: sha };
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ version, packages: { 'linux-x64': entry } }),
  );
}

/** A package of `base`'s files that says it is `version` but whose agent exits at once (a bad build). */
function brokenPackage(base: string, work: string): string {
  const unpack = path.join(work, 'broken');
  fs.mkdirSync(unpack, { recursive: true });
  expect(spawnSync('tar', ['-xzf', base, '-C', unpack]).status).toBe(0);
  const top = fs.readdirSync(unpack)[0]!;
  const name = `zhzy-scan-agent-${BROKEN}-linux-x64`;
  fs.renameSync(path.join(unpack, top), path.join(unpack, name));
  const app = path.join(unpack, name, 'app');
  const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')) as { version: string };
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ ...pkg, version: BROKEN }));
  fs.writeFileSync(path.join(app, 'agent.mjs'), "console.error('broken build'); process.exit(1);\n");
  const file = path.join(work, `${name}.tar.gz`);
  expect(spawnSync('tar', ['-czf', file, '-C', unpack, name]).status).toBe(0);
  return file;
}

describe.runIf(canRun)('the 扫描助手 updates itself from the host (Linux package, real processes)', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('refuses a bad checksum, updates keeping spool and pairing, rolls back a build that cannot start', async () => {
    const tarballs = { [OLD]: await linuxPackage(OLD), [NEW]: await linuxPackage(NEW) };
    const home = tempDir('zhzy-update-home-');
    cleanup.push(home.remove);
    const packages = path.join(home.dir, 'host-packages');
    fs.mkdirSync(packages);
    const hostData = tempDir('zhzy-update-host-');
    cleanup.push(hostData.remove);
    const host: HostProcess = await startHostProcess({
      port: await freePort(),
      dataDir: hostData.dir,
      env: { AGENT_PACKAGES_DIR: packages },
    });
    cleanup.push(() => host.kill());

    const port = await freePort();
    const prefix = path.join(home.dir, 'zhzy-scan-agent');
    const dataDir = path.join(home.dir, '.local', 'state', 'zhzy-scan-agent');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.dir, ZHZY_AGENT_PREFIX: prefix };
    // Agents started by the finisher are not our children: end them through the pid file.
    cleanup.push(() => {
      const pid = Number(fs.readFileSync(path.join(dataDir, 'agent.pid'), 'utf8').trim() || 0);
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    });

    // Install the old build as a teacher's PC has it, and start it.
    const unpack = path.join(home.dir, 'unpack');
    fs.mkdirSync(unpack);
    expect(spawnSync('tar', ['-xzf', tarballs[OLD]!, '-C', unpack]).status).toBe(0);
    const installer = path.join(unpack, fs.readdirSync(unpack)[0]!, 'install.sh');
    const installed = spawnSync(installer, ['--host', host.baseUrl, '--demo', '--no-start'], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(installed.status, installed.stderr).toBe(0);
    const out = fs.openSync(path.join(home.dir, 'agent.log'), 'w');
    const agent: ChildProcess = spawn(path.join(prefix, 'zhzy-scan-agent'), ['start'], {
      env: {
        ...env,
        AGENT_PORT: String(port),
        LOG_LEVEL: 'warn',
        AGENT_ESCL_DISCOVERY: 'false',
        AGENT_DRIVERS: 'hotfolder',
      },
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    cleanup.push(() => void agent.kill('SIGKILL'));
    const base = `http://127.0.0.1:${port}`;
    const health = () =>
      fetch(`${base}/health`).then(
        async (r) => AgentHealthSchema.parse(await r.json()),
        () => null,
      );
    const waitVersion = (version: string, ms = 60_000) =>
      until(async () => (await health())?.version === version, ms, `the agent to answer as ${version}`);
    await waitVersion(OLD);
    const h = await health();
    expect(h?.packagePlatform).toBe('linux-x64');
    expect(h?.canUpdate).toBe(true);

    // Pair as the /scan page does, and scan 2 duplex demo sheets = 4 pages to the host.
    const origin = host.baseUrl;
    expect((await fetch(`${base}/pairing/request`, { method: 'POST', headers: { origin } })).status).toBe(
      200,
    );
    const code = /(\d{3})&nbsp;(\d{3})/.exec(await (await fetch(`${base}/pair`)).text());
    const paired = PairingTokenSchema.parse(
      await (
        await fetch(`${base}/pairing/confirm`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json' },
          body: JSON.stringify({ code: `${code![1]}${code![2]}` }),
        })
      ).json(),
    );
    const asPage = { origin, authorization: `Bearer ${paired.token}`, 'content-type': 'application/json' };
    const teacher = await signInOverHttp(host.baseUrl, 'demo-teacher');
    const created = await createHostBatch(host.baseUrl, teacher);
    const started = await fetch(`${base}/scans`, {
      method: 'POST',
      headers: asPage,
      body: JSON.stringify({
        settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
        host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
        virtual: { sheets: 2, seed: 7, pageIntervalMs: 0 },
      }),
    });
    expect(started.status, await started.clone().text()).toBe(200);
    const batchId = ((await started.json()) as { id: string }).id;
    const batch = async () =>
      AgentBatchDetailSchema.parse(
        await (await fetch(`${base}/scans/${batchId}`, { headers: asPage })).json(),
      );
    await until(
      async () => {
        const b = await batch();
        return b.pages.length === 4 && b.pages.every((p) => p.hostPageId !== null);
      },
      300_000,
      '4 pages at the host',
    );
    const before = await batch();
    const update = (body: unknown, headers: Record<string, string> = asPage) =>
      fetch(`${base}/update`, { method: 'POST', headers, body: JSON.stringify(body) });

    // Without pairing, from a foreign host, or with a malformed body: refused.
    expect(
      (await update({ host: host.baseUrl }, { origin, 'content-type': 'application/json' })).status,
    ).toBe(401);
    expect((await update({ host: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await update({ host: 'file:///etc/passwd' })).status).toBe(400);

    // 1. The host's manifest names a SHA-256 the download does not have: refused in Chinese, nothing changes.
    serve(packages, NEW, tarballs[NEW]!, { badSha: true });
    const bad = await update({ host: host.baseUrl, version: NEW });
    const badBody = (await bad.json()) as { message: string };
    expect(bad.status).toBe(422);
    expect(badBody.message).toContain('校验失败');
    expect(badBody.message).toContain('SHA-256');
    expect((await health())?.version).toBe(OLD);
    expect(agent.exitCode).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(prefix, 'app', 'package.json'), 'utf8')).version).toBe(OLD);
    expect(fs.existsSync(path.join(prefix, 'app.prev'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'update', 'stage'))).toBe(false);

    // 2. The right build: verified, swapped in, restarted — same pages, same pairing, old build kept for rollback.
    serve(packages, NEW, tarballs[NEW]!);
    const good = await update({ host: host.baseUrl, version: NEW });
    expect(good.status, await good.clone().text()).toBe(200);
    expect(AgentUpdateAnswerSchema.parse(await good.json())).toEqual({
      from: OLD,
      to: NEW,
      restarting: true,
    });
    await until(async () => agent.exitCode !== null, 20_000, 'the old agent to end');
    await waitVersion(NEW);
    expect(JSON.parse(fs.readFileSync(path.join(prefix, 'app.prev', 'package.json'), 'utf8')).version).toBe(
      OLD,
    );
    const result = path.join(dataDir, 'update', 'last.json');
    await until(async () => fs.existsSync(result), 10_000, 'the finisher to record the update');
    expect(JSON.parse(fs.readFileSync(result, 'utf8'))).toMatchObject({
      ok: true,
      from: OLD,
      to: NEW,
    });
    const after = await batch();
    expect(after.pages.map((p) => [p.seq, p.hostPageId])).toEqual(
      before.pages.map((p) => [p.seq, p.hostPageId]),
    );
    expect((await fetch(`${base}/scanners`, { headers: asPage })).status, 'the pairing survives').toBe(200);
    expect(fs.readFileSync(path.join(prefix, 'agent.conf'), 'utf8')).toContain(
      `AGENT_HOST_URLS=${host.baseUrl}`,
    );
    expect((await hostPages(host.baseUrl, teacher, created.batch.id)).length).toBe(4);
    const again = await update({ host: host.baseUrl });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toContain('已是最新版本');

    // 3. A build that cannot start: the finisher puts the previous one back and starts it again.
    serve(packages, BROKEN, brokenPackage(tarballs[NEW]!, home.dir));
    const broken = await update({ host: host.baseUrl });
    expect(broken.status, await broken.clone().text()).toBe(200);
    await until(
      async () => {
        try {
          return JSON.parse(fs.readFileSync(path.join(dataDir, 'update', 'last.json'), 'utf8')).to === BROKEN;
        } catch {
          return false;
        }
      },
      90_000,
      'the finisher to record the rollback',
    );
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'update', 'last.json'), 'utf8'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('已恢复到'),
    });
    await waitVersion(NEW);
    expect(JSON.parse(fs.readFileSync(path.join(prefix, 'app', 'package.json'), 'utf8')).version).toBe(NEW);
    expect((await batch()).pages).toHaveLength(4);
    expect((await fetch(`${base}/scanners`, { headers: asPage })).status).toBe(200);
  }, 900_000);
});
