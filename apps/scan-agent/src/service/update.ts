import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import {
  AgentPackagesManifestSchema,
  agentCalls,
  isNewerVersion,
  type AgentPackage,
  type AgentUpdateRequest,
} from '@zhzy/contracts';
import { z } from 'zod';
import { HostEnvelopeSchema, hostRequest, readBody } from '../http-client.js';
import { T } from '../i18n/zh-CN.js';
import { AgentError } from '../scan/manager.js';
import { AGENT_NODE_FLAGS, agentNodeArgs, type BundleFacts } from '../runtime.js';

/*
 * The agent's self-update (ADR 0055). `POST /update` downloads this installation's platform package from an
 * allowed host, checks its size and SHA-256 against the host's manifest and stages it in `<data>/update/`. Then a
 * finisher process (`agent.mjs finish-update`, started from the old bundle, detached) waits for the old agent to
 * end, swaps `app/` and `node` (keeping the old ones as `app.prev`/`node.prev`), starts the new agent and waits for
 * its /health to name the new version; otherwise it puts the old files back and starts the old agent again.
 * The spool, the token and the pairings live in the data folder and are never touched.
 */

export interface UpdateContext {
  dataDir: string;
  /** Origins the agent may talk to (allowed origins and host URLs). */
  allowedHosts: () => readonly string[];
  version: string;
  facts: BundleFacts | null;
  /** The installation folder (parent of `app/`), null when run from a checkout. */
  installDir: string | null;
}

export interface StagedUpdate {
  from: string;
  to: string;
  /** Unix: the unpacked package folder (holding `app/` and `node`); Windows: the verified installer. */
  staged: string;
  kind: 'tarball' | 'installer';
}

export const updateDir = (dataDir: string) => path.join(dataDir, 'update');
export const updateResultFile = (dataDir: string) => path.join(updateDir(dataDir), 'last.json');

/** A package.json or a /health answer, as far as the update reads it: its version. */
const VersionedSchema = z.object({ version: z.string().optional() });
/** A GET with the agent's host client; any status but 200 (a redirect too) is a failure. */
async function get(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<http.IncomingMessage> {
  const res = await hostRequest(url, { headers, timeoutMs });
  if (res.statusCode !== 200) {
    res.resume();
    throw new Error(`HTTP ${res.statusCode}`);
  }
  return res;
}

/** Downloads `url` to `file`, refusing more than `limit` bytes; answers the SHA-256 and the byte count. */
async function download(url: string, file: string, limit: number): Promise<{ sha256: string; size: number }> {
  // A package is stored compressed already; an encoded answer would only be decoded again.
  const res = await get(url, { 'accept-encoding': 'identity' }, 60_000).catch(() => null);
  if (!res) throw new AgentError(502, T.updateDownloadFailed);
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > limit) throw new AgentError(422, T.updateChecksum);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  } catch (error) {
    res.destroy();
    out.destroy();
    throw error instanceof AgentError ? error : new AgentError(502, T.updateDownloadFailed);
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return { sha256: hash.digest('hex'), size };
}

/** Reads the manifest of `origin` and picks this installation's package. */
async function manifestEntry(origin: string, platform: string): Promise<AgentPackage> {
  const body = await get(`${origin}/agent/download/manifest`, { accept: 'application/json' }, 30_000)
    .then(async (res) => HostEnvelopeSchema.parse(JSON.parse((await readBody(res)).toString('utf8'))))
    .catch(() => null);
  if (!body) throw new AgentError(502, T.updateNoManifest);
  const parsed = AgentPackagesManifestSchema.safeParse(body.data);
  if (!parsed.success) throw new AgentError(502, T.updateNoManifest);
  const entry = (parsed.data.packages as Record<string, AgentPackage | undefined>)[platform];
  if (!entry) throw new AgentError(404, T.updateNoPackage);
  return entry;
}

/** Downloads, verifies and stages the host's newer build. Nothing in the installation changes here. */
export async function stageUpdate(request: AgentUpdateRequest, ctx: UpdateContext): Promise<StagedUpdate> {
  if (!ctx.facts || !ctx.installDir) throw new AgentError(409, T.updateNotInstalled);
  const origin = new URL(request.host).origin;
  if (!ctx.allowedHosts().includes(origin)) throw new AgentError(403, T.hostNotAllowed);
  const entry = await manifestEntry(origin, ctx.facts.platform);
  if (request.version && request.version !== entry.version)
    throw new AgentError(409, T.updateVersionChanged(entry.version));
  if (!isNewerVersion(entry.version, ctx.version)) throw new AgentError(409, T.updateNotNewer(ctx.version));

  const dir = updateDir(ctx.dataDir);
  fs.rmSync(path.join(dir, 'stage'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'stage'), { recursive: true });
  const file = path.join(dir, 'stage', entry.file);
  try {
    const got = await download(
      `${origin}/agent/download/${encodeURIComponent(ctx.facts.platform)}`,
      file,
      entry.size,
    );
    if (got.size !== entry.size || got.sha256 !== entry.sha256) throw new AgentError(422, T.updateChecksum);
    if (ctx.facts.platform.startsWith('win32'))
      return { from: ctx.version, to: entry.version, staged: file, kind: 'installer' };
    const unpack = path.join(dir, 'stage', 'unpacked');
    fs.mkdirSync(unpack);
    const tar = spawnSync('tar', ['-xzf', file, '-C', unpack], { stdio: 'ignore', timeout: 300_000 });
    fs.rmSync(file, { force: true });
    const [top] = tar.status === 0 ? fs.readdirSync(unpack) : [];
    const staged = top ? path.join(unpack, top) : '';
    const stagedVersion = (() => {
      try {
        return VersionedSchema.parse(
          JSON.parse(fs.readFileSync(path.join(staged, 'app', 'package.json'), 'utf8')),
        ).version;
      } catch {
        return undefined;
      }
    })();
    if (
      !staged ||
      stagedVersion !== entry.version ||
      !fs.existsSync(path.join(staged, 'app', 'agent.mjs')) ||
      !fs.existsSync(path.join(staged, 'node'))
    )
      throw new AgentError(422, T.updateBadPackage);
    return { from: ctx.version, to: entry.version, staged, kind: 'tarball' };
  } catch (error) {
    fs.rmSync(path.join(dir, 'stage'), { recursive: true, force: true });
    throw error;
  }
}

/** The systemd user unit of the agent (`install-service --mode systemd`). */
export const SYSTEMD_UNIT = 'zhzy-scan-agent.service';
/** WinSW's service id (its `<id>.exe`/`<id>.xml` beside the agent in a /ALLUSERS install). */
const WINSW_ID = 'zhzy-scan-agent';
/** Windows: the old node.exe, copied for the finisher and a rollback (the installer replaces node.exe). */
const WINDOWS_PREV_NODE = 'node.prev.exe';
/** Set by that unit (`Environment=`): the agent runs under systemd, which supervises its restarts. */
export const SUPERVISOR_ENV = 'ZHZY_AGENT_SUPERVISOR';

export type Supervisor = 'systemd' | null;
export const supervisorOf = (env: NodeJS.ProcessEnv = process.env): Supervisor =>
  env[SUPERVISOR_ENV] === 'systemd' ? 'systemd' : null;

/**
 * Under the systemd unit the finisher must not be a process of the unit: when the agent exits for the update,
 * systemd stops the unit and ends every process left in its cgroup (KillMode=control-group) — the finisher mid-swap
 * included. So it runs as a transient unit of its own (`systemd-run --user`), with the agent's settings, and starts
 * the agent again through `systemctl --user start` (ADR 0055, "systemd"). Answers the systemd-run arguments.
 */
export function systemdRunArgs(finisher: string[], env: NodeJS.ProcessEnv, pid: number): string[] {
  const keep = Object.entries(env).filter(
    ([k, v]) => v !== undefined && (/^(AGENT_|XDG_)/.test(k) || k === 'LOG_LEVEL' || k === SUPERVISOR_ENV),
  );
  return [
    '--user',
    '--collect',
    '--quiet',
    `--unit=zhzy-scan-agent-update-${pid}`,
    ...keep.map(([k, v]) => `--setenv=${k}=${v}`),
    '--',
    ...finisher,
    '--supervisor',
    'systemd',
  ];
}

/** Starts the detached finisher from the running bundle; the caller then ends this agent. */
export function launchFinisher(
  update: StagedUpdate,
  ctx: UpdateContext,
  logFile: string,
  supervisor: Supervisor = supervisorOf(),
): void {
  if (update.kind === 'tarball' && supervisor === 'systemd') {
    const finisher = [
      process.execPath,
      ...agentNodeArgs(),
      process.argv[1]!,
      'finish-update',
      ...finisherFlags(update, ctx),
    ];
    const run = spawnSync('systemd-run', systemdRunArgs(finisher, process.env, process.pid), {
      stdio: 'ignore',
      timeout: 30_000,
    });
    if (run.status === 0) return;
    fs.appendFileSync(
      logFile,
      `systemd-run failed (${run.status ?? run.error?.message}): finisher started directly\n`,
    );
  }
  const log = fs.openSync(logFile, 'a');
  const finisher = (node: string, bundle: string, extra: string[] = []) => [
    node,
    [...agentNodeArgs(), bundle, 'finish-update', ...finisherFlags(update, ctx), ...extra],
  ];
  let args: (string | string[])[];
  if (update.kind === 'installer') {
    // Windows: the installer stops this agent (pid file), swaps node.exe and app\, keeps agent.conf and the data
    // folder, and starts the new build. A finisher run from a copy of this build (the installer replaces node.exe and
    // app\ under it) runs the installer, waits for the new build's /health and puts the copy back if it does not
    // answer. A service install (WinSW's zhzy-scan-agent.xml beside the agent) is upgraded as one: /ALLUSERS.
    const dir = ctx.installDir!;
    const service = fs.existsSync(path.join(dir, `${WINSW_ID}.xml`));
    try {
      keepWindowsBuild(dir);
      args = finisher(path.join(dir, WINDOWS_PREV_NODE), path.join(dir, 'app.prev', 'agent.mjs'), [
        '--installer',
        ...(service ? ['--service'] : []),
      ]);
    } catch (error) {
      fs.writeSync(
        log,
        `no copy of the old build for a rollback (${String(error)}): installer started directly\n`,
      );
      args = [update.staged, service ? ['/S', '/ALLUSERS'] : ['/S']];
    }
  } else args = finisher(process.execPath, process.argv[1]!);
  const child = spawn(args[0] as string, args[1] as string[], {
    detached: true,
    windowsHide: true,
    stdio: ['ignore', log, log],
  });
  child.on('error', () => undefined);
  child.unref();
  fs.closeSync(log);
}

/**
 * Windows: copies the running build (`app\` → `app.prev\`, node.exe → node.prev.exe) before its installer replaces it;
 * the finisher runs from the copy and puts it back if the new build does not answer.
 */
export function keepWindowsBuild(installDir: string, nodeExe = process.execPath): void {
  fs.rmSync(path.join(installDir, 'app.prev'), { recursive: true, force: true });
  fs.cpSync(path.join(installDir, 'app'), path.join(installDir, 'app.prev'), { recursive: true });
  fs.copyFileSync(nodeExe, path.join(installDir, WINDOWS_PREV_NODE));
}

const finisherFlags = (update: StagedUpdate, ctx: UpdateContext) => [
  '--pid',
  String(process.pid),
  '--staged',
  update.staged,
  '--install',
  ctx.installDir!,
  '--from',
  update.from,
  '--to',
  update.to,
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function healthVersion(port: number): Promise<string | null> {
  try {
    // The host client, not fetch: under Wine 8 fetch cannot connect, and the finisher would never see the new build.
    const res = await hostRequest(`http://127.0.0.1:${port}${agentCalls.health.path}`, {
      timeoutMs: 2_000,
      signal: AbortSignal.timeout(2_000),
    });
    const body = await readBody(res);
    return res.statusCode === 200
      ? (VersionedSchema.parse(JSON.parse(body.toString('utf8'))).version ?? null)
      : null;
  } catch {
    return null;
  }
}

/** Ends the agent named by the data folder's pid file (a build this process did not start). */
function stopByPidFile(dataDir: string): void {
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'agent.pid'), 'utf8').trim());
  } catch {
    return; // no agent runs
  }
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) process.kill(pid, 'SIGKILL');
}

export interface FinishOptions {
  pid: number;
  staged: string;
  installDir: string;
  from: string;
  to: string;
  port: number;
  dataDir: string;
  logFile: string;
  /** How long the new build has to answer /health with its version. */
  healthMs?: number;
  /** 'systemd': the agent is (re)started with `systemctl --user start` of its unit, not as a child of this process. */
  supervisor?: Supervisor;
  /**
   * Windows: `staged` is the verified installer; the finisher runs it (/S, with /ALLUSERS for a `service` install),
   * which swaps the files and starts the new build. The old build is `app.prev` and `node.prev.exe`.
   */
  installer?: { service: boolean };
  out: (line: string) => void;
}

/** The finisher: swap, start, health-check, roll back on failure. Answers whether the new build runs. */
export async function finishUpdate(o: FinishOptions): Promise<boolean> {
  for (let i = 0; i < 300 && alive(o.pid); i++) await sleep(100);
  if (alive(o.pid)) process.kill(o.pid, 'SIGKILL');
  for (let i = 0; i < 50 && alive(o.pid); i++) await sleep(100);
  const at = (name: string) => path.join(o.installDir, name);
  const systemctl = (...args: string[]) =>
    spawnSync('systemctl', ['--user', ...args], { stdio: 'ignore', timeout: 60_000 }).status === 0;
  const nodeFile = o.installer ? 'node.exe' : 'node';
  const start = (): { exited: () => boolean; kill: () => void } => {
    if (o.installer?.service) {
      // The WinSW service (it restarts node.exe on failure): started and stopped through its wrapper.
      const winsw = (cmd: string) =>
        spawnSync(at(`${WINSW_ID}.exe`), [cmd], { stdio: 'ignore', windowsHide: true, timeout: 60_000 })
          .status === 0;
      const started = winsw('start');
      return { exited: () => !started, kill: () => void winsw('stop') };
    }
    if (o.supervisor === 'systemd') {
      // The unit is inactive (the old agent exited 0, Restart=on-failure): start it on the swapped files.
      systemctl('reset-failed', SYSTEMD_UNIT);
      const started = systemctl('start', SYSTEMD_UNIT);
      return { exited: () => !started, kill: () => void systemctl('stop', SYSTEMD_UNIT) };
    }
    const child = spawnAgent();
    return {
      exited: () => child.exitCode !== null || child.signalCode !== null,
      kill: () => {
        if (child.pid && child.exitCode === null) {
          try {
            process.kill(child.pid, 'SIGKILL');
          } catch {
            /* gone already */
          }
        }
      },
    };
  };
  const spawnAgent = () => {
    const log = fs.openSync(o.logFile, 'a');
    const child = spawn(at(nodeFile), [...AGENT_NODE_FLAGS, at(path.join('app', 'agent.mjs')), 'start'], {
      detached: true,
      windowsHide: true,
      stdio: ['ignore', log, log],
    });
    child.on('error', () => undefined);
    child.unref();
    fs.closeSync(log);
    return child;
  };
  const waitFor = async (version: string, child: ReturnType<typeof start>) => {
    // A Windows build is started by the installer after its own run: a slow PC gets more time before a rollback.
    const end = Date.now() + (o.healthMs ?? (o.installer ? 120_000 : 30_000));
    while (Date.now() < end && !child.exited()) {
      if ((await healthVersion(o.port)) === version) return true;
      await sleep(200);
    }
    return false;
  };
  const record = (ok: boolean, message: string) => {
    fs.mkdirSync(updateDir(o.dataDir), { recursive: true });
    fs.writeFileSync(
      updateResultFile(o.dataDir),
      `${JSON.stringify({ ok, from: o.from, to: o.to, at: new Date().toISOString(), message })}\n`,
    );
    o.out(message);
  };

  if (o.installer) {
    // Windows: the installer swaps and starts the new build (hidden, or as the service); not a child of this process.
    const ran = spawnSync(o.staged, o.installer.service ? ['/S', '/ALLUSERS'] : ['/S'], {
      stdio: 'ignore',
      windowsHide: true,
      timeout: 600_000,
    });
    o.out(`installer ${path.basename(o.staged)} exited with ${ran.status ?? ran.error?.message}`);
    const installed = { exited: () => ran.status !== 0, kill: () => stopByPidFile(o.dataDir) };
    if (await waitFor(o.to, installed)) {
      fs.rmSync(path.join(updateDir(o.dataDir), 'stage'), { recursive: true, force: true });
      record(true, T.updateDone(o.from, o.to));
      return true;
    }
    // Roll back: stop whatever the installer started, put the old app\ and node.exe back, start the old build.
    if (o.installer.service) start().kill();
    installed.kill();
    fs.rmSync(at('app'), { recursive: true, force: true });
    fs.cpSync(at('app.prev'), at('app'), { recursive: true });
    fs.copyFileSync(at(WINDOWS_PREV_NODE), at('node.exe'));
    fs.rmSync(path.join(updateDir(o.dataDir), 'stage'), { recursive: true, force: true });
    await waitFor(o.from, start());
    record(false, T.updateRolledBack(o.to, o.from));
    return false;
  }

  // Swap: the old files stay as *.prev for a rollback (and until the next update).
  for (const name of ['app.prev', 'node.prev']) fs.rmSync(at(name), { recursive: true, force: true });
  fs.renameSync(at('app'), at('app.prev'));
  fs.renameSync(at('node'), at('node.prev'));
  fs.renameSync(path.join(o.staged, 'app'), at('app'));
  fs.renameSync(path.join(o.staged, 'node'), at('node'));
  fs.chmodSync(at('node'), 0o755);
  for (const f of ['zhzy-scan-agent', 'install.sh', 'agent.conf.example']) {
    if (fs.existsSync(path.join(o.staged, f))) fs.copyFileSync(path.join(o.staged, f), at(f));
  }
  fs.rmSync(path.join(updateDir(o.dataDir), 'stage'), { recursive: true, force: true });

  const child = start();
  if (await waitFor(o.to, child)) {
    record(true, T.updateDone(o.from, o.to));
    return true;
  }
  // Roll back: the new build did not come up.
  child.kill();
  fs.rmSync(at('app'), { recursive: true, force: true });
  fs.rmSync(at('node'), { force: true });
  fs.renameSync(at('app.prev'), at('app'));
  fs.renameSync(at('node.prev'), at('node'));
  const old = start();
  await waitFor(o.from, old);
  record(false, T.updateRolledBack(o.to, o.from));
  return false;
}
