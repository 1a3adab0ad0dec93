// The installable 扫描助手 end to end (ADR 0043): the Windows installer under Wine (when this machine can run it)
// and the Linux tarball natively run one scenario — install silently, start the installed agent, pair a page,
// scan 4 virtual pages to a real host, upgrade to a newer build, and find the spooled pages and the pairing kept.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  AgentBatchDetailSchema,
  AgentHealthSchema,
  AgentUpdateAnswerSchema,
  PairingTokenSchema,
  type AgentBatchDetail,
} from '@zhzy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const OUT = path.join(APP_DIR, 'dist', 'packages-test', 'installer');
const WINE = '/usr/lib/wine/wine64';
const [OLD, NEW] = ['0.2.0', '0.2.1-test'];
/** The build the installed Windows agent updates itself to (POST /update), after the installer upgrade to NEW. */
const NEWER = '0.2.2-test';
/** A Windows build whose agent exits at once: the self-update to it is rolled back to NEWER. */
const BROKEN = '0.2.3-broken';
const canRun = process.platform === 'linux' && process.arch === 'x64';
/**
 * The demo scanner's seed of each scenario. They must differ: the Windows agent under Wine and the Linux agent render
 * byte-identical pages from the same seed, and the one host (one school) keeps one copy of a page — the same sheet
 * uploaded into a second batch is refused (409 duplicateElsewhere, 「该页已上传到其他扫描批次」), so the second
 * scenario's pages never arrived (ADR 0055, session 16).
 */
const WINE_SEED = 7;
const LINUX_SEED = 8;

/** A fetch for a poll: it answers or fails within 15 s, so one stuck connection cannot use up a wait's whole bound. */
const poll = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });

/**
 * Waits until the host holds a scan's 4 pages and the agent has recorded the host's id of each. Fails at once, with
 * the host's reason, when the agent sets a page aside as refused, instead of waiting out the bound.
 */
async function fourPagesAtHost(o: {
  host: HostProcess;
  teacher: string;
  hostBatchId: string;
  agentBatch: () => Promise<AgentBatchDetail>;
  timeoutMs: number;
  what: string;
  /** More to say when it fails (the agent's log). */
  context?: () => string;
}) {
  const pages = async () =>
    (await o.agentBatch()).pages.map(
      (p) => `${p.seq}:${p.upload}${p.uploadError ? ` (${p.uploadError})` : ''}`,
    );
  try {
    await until(
      async () => {
        const refused = (await o.agentBatch()).pages.filter((p) => p.upload === 'failed');
        if (refused.length > 0) throw new Error(`the host refused pages: ${(await pages()).join(', ')}`);
        return (await hostPages(o.host.baseUrl, o.teacher, o.hostBatchId)).length === 4;
      },
      o.timeoutMs,
      `4 pages ${o.what} at the host`,
    );
    // The host stores a page before the agent records the host's id for it: wait for both.
    await until(
      async () => {
        const b = await o.agentBatch();
        return b.pages.length === 4 && b.pages.every((p) => p.hostPageId !== null);
      },
      60_000,
      `the agent ${o.what} to record the host id of all 4 pages`,
    );
  } catch (error) {
    const known = await pages().then(
      (list) => list.join(', '),
      (e: unknown) => `unreadable (${String(e)})`,
    );
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; the agent's pages: ${known}${o.context ? `; ${o.context()}` : ''}`,
    );
  }
}

interface Installed {
  /** Installs (or upgrades to) a version silently. */
  install(version: string, first: boolean): void;
  /** Starts the installed agent; its output goes to a file (Wine's node.exe cannot write to a pipe). */
  start(): ChildProcess;
  /** The agent's data folder (token, pairings, spool) on this machine's file system. */
  dataDir(): string;
  confFile(): string;
  stopAll(): Promise<void>;
}

async function packageFor(
  platform: string,
  version: string,
  patchApp?: (appDir: string) => void,
): Promise<string> {
  const { packageAgent } = (await import(path.join(APP_DIR, 'scripts', 'package.mjs'))) as {
    packageAgent: (o: {
      version: string;
      platforms: string[];
      out: string;
      patchApp?: (appDir: string) => void;
    }) => Promise<{
      packages: Record<string, { file: string }>;
    }>;
  };
  process.env.AGENT_PACKAGE_FAST = '1';
  const out = path.join(OUT, version);
  const manifest = await packageAgent({ version, platforms: [platform], out, patchApp });
  return path.join(out, manifest.packages[platform]!.file);
}

/**
 * Pairs as a teacher does: asks for a code, reads it from the agent's local pairing page (large digits) and
 * confirms it; the page token then opens the agent's API. Returns the headers the /scan page would send.
 */
async function pairThroughPage(base: string, origin: string) {
  expect((await fetch(`${base}/pairing/request`, { method: 'POST', headers: { origin } })).status).toBe(200);
  const code = /(\d{3})&nbsp;(\d{3})/.exec(await (await fetch(`${base}/pair`)).text());
  expect(code, 'the pairing page shows the code').not.toBeNull();
  const paired = PairingTokenSchema.parse(
    await (
      await fetch(`${base}/pairing/confirm`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ code: `${code![1]}${code![2]}` }),
      })
    ).json(),
  );
  const asPage = { origin, authorization: `Bearer ${paired.token}` };
  expect((await fetch(`${base}/scanners`, { headers: asPage })).status).toBe(200);
  return asPage;
}

async function scenario(
  target: Installed,
  host: HostProcess,
  port: number,
  seed: number,
  log: (s: string) => void,
) {
  const teacher = await signInOverHttp(host.baseUrl, 'demo-teacher');
  const created = await createHostBatch(host.baseUrl, teacher);
  const base = `http://127.0.0.1:${port}`;
  const script = () => ({
    authorization: `Bearer ${fs.readFileSync(path.join(target.dataDir(), 'agent-token'), 'utf8').trim()}`,
    'content-type': 'application/json',
  });
  const waitHealth = async (version: string) => {
    let seen = '';
    await until(
      async () => {
        const h = await poll(`${base}/health`).then(
          async (r) => AgentHealthSchema.parse(await r.json()),
          () => null,
        );
        seen = h?.version ?? seen;
        return h?.version === version;
      },
      180_000,
      `the installed agent ${version} to answer /health`,
    );
    log(`/health answers version ${seen}`);
  };

  target.install(OLD, true);
  let agent = target.start();
  const t0 = Date.now();
  await waitHealth(OLD);
  log(`started in ${Date.now() - t0} ms`);

  // Pairing as the web page does it: request, the code (shown on the local page), confirm → a page token.
  const origin = host.baseUrl;
  const asPage = await pairThroughPage(base, origin);

  // 2 duplex sheets of the demo scanner (enabled with /DEMO) = 4 pages at the real host.
  const started = await fetch(`${base}/scans`, {
    method: 'POST',
    headers: script(),
    body: JSON.stringify({
      settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
      host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
      virtual: { sheets: 2, seed, pageIntervalMs: 0 },
    }),
  });
  expect(started.status, await started.clone().text()).toBe(200);
  const batchId = ((await started.json()) as { id: string }).id;
  const agentBatch = async () =>
    AgentBatchDetailSchema.parse(
      await (await poll(`${base}/scans/${batchId}`, { headers: script() })).json(),
    );
  await fourPagesAtHost({
    host,
    teacher,
    hostBatchId: created.batch.id,
    agentBatch,
    timeoutMs: 300_000,
    what: 'from the agent',
  });
  const before = await agentBatch();
  expect(before.pages).toHaveLength(4);
  log('4 pages scanned by the installed agent arrived at the host');

  // Upgrade: the installer stops the running agent, swaps the files, keeps agent.conf and the data folder.
  target.install(NEW, false);
  const exited = await until(
    async () => agent.exitCode !== null || agent.signalCode !== null,
    20_000,
    'x',
  ).then(
    () => true,
    () => false,
  );
  if (!exited) {
    log('the upgrade did not end the old agent process: ended by the test');
    agent.kill('SIGKILL');
  }
  agent = target.start();
  await waitHealth(NEW);
  expect(fs.readFileSync(target.confFile(), 'utf8')).toContain(`AGENT_HOST_URLS=${host.baseUrl}`);
  const after = await agentBatch();
  expect(after.pages.map((p) => p.hostPageId)).toEqual(before.pages.map((p) => p.hostPageId));
  expect(
    (await fetch(`${base}/scanners`, { headers: asPage })).status,
    'the pairing survives the upgrade',
  ).toBe(200);
  expect((await hostPages(host.baseUrl, teacher, created.batch.id)).length).toBe(4);
  log('after the upgrade: same 4 spooled pages, pairing kept, settings kept');
  agent.kill('SIGKILL');
}

function wineAvailable(): string | null {
  if (!fs.existsSync(WINE)) {
    try {
      spawnSync(
        process.execPath,
        ['-e', "import('../../scripts/lib/system.mjs').then(m=>m.ensureAptPackages(['wine64']))"],
        {
          cwd: APP_DIR,
          stdio: 'inherit',
          timeout: 600_000,
        },
      );
    } catch {
      /* reported below */
    }
  }
  return fs.existsSync(WINE) ? null : 'Debian wine64 is not installed and could not be installed';
}

/**
 * Real Windows 10/11 ships bcryptprimitives.dll, whose ProcessPrng sharp's libvips-42.dll imports; Debian's Wine 8
 * does not (Wine 9 does). The test's Wine prefix gets what Windows has: a DLL of that name whose ProcessPrng is
 * forwarded to advapi32's SystemFunction036 (RtlGenRandom: fills the buffer with random bytes, as ProcessPrng does;
 * both take a pointer and a length in the same registers, and libvips' callers ignore the always-TRUE result). Built
 * with Debian's mingw-w64 binutils (installed like the other system tools). Emulating Windows, not the product: the
 * installer and the agent are the same bytes. Answers null when the DLL is in place, else why not.
 */
function bcryptPrimitivesInto(system32: string): string | null {
  const tool = (name: string) => `/usr/bin/x86_64-w64-mingw32-${name}`;
  if (!fs.existsSync(tool('dlltool'))) {
    spawnSync(
      process.execPath,
      [
        '-e',
        "import('../../scripts/lib/system.mjs').then(m=>m.ensureAptPackages(['binutils-mingw-w64-x86-64']))",
      ],
      { cwd: APP_DIR, stdio: 'inherit', timeout: 600_000 },
    );
  }
  if (!fs.existsSync(tool('dlltool'))) return 'Debian binutils-mingw-w64-x86-64 could not be installed';
  const work = tempDir('zhzy-bcryptprimitives-');
  try {
    const def = path.join(work.dir, 'bcryptprimitives.def');
    fs.writeFileSync(
      def,
      'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng = advapi32.SystemFunction036\n',
    );
    const exports = path.join(work.dir, 'exports.o');
    const dll = path.join(work.dir, 'bcryptprimitives.dll');
    for (const [cmd, args] of [
      [tool('dlltool'), ['-d', def, '-e', exports, '-D', 'bcryptprimitives.dll']],
      [tool('ld'), ['--dll', '-e', '0', '--image-base', '0x180000000', '-o', dll, exports]],
    ] as const) {
      const r = spawnSync(cmd, args, { encoding: 'utf8' });
      if (r.status !== 0) return `${path.basename(cmd)} failed: ${r.stderr}`;
    }
    fs.copyFileSync(dll, path.join(system32, 'bcryptprimitives.dll'));
    return null;
  } finally {
    work.remove();
  }
}

describe.runIf(canRun)('the installable 扫描助手', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  let host: HostProcess;
  /** The host's AGENT_PACKAGES_DIR: what it offers at /agent/download (the Windows self-update). */
  let hostPackages: string;
  beforeAll(async () => {
    const hostData = tempDir('zhzy-host-inst-');
    cleanup.push(hostData.remove);
    hostPackages = path.join(hostData.dir, 'agent-packages');
    fs.mkdirSync(hostPackages);
    host = await startHostProcess({
      port: await freePort(),
      dataDir: hostData.dir,
      env: { AGENT_PACKAGES_DIR: hostPackages },
    });
    cleanup.push(() => host.kill());
  }, 180_000);
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('Windows installer under Wine: silent install, 4 pages to the host, upgrade keeps spool and pairing', async () => {
    const missing = wineAvailable();
    if (missing) {
      console.warn(`[installer] Wine part skipped: ${missing}`);
      return;
    }
    const installers = {
      [OLD]: await packageFor('win32-x64', OLD),
      [NEW]: await packageFor('win32-x64', NEW),
      [NEWER]: await packageFor('win32-x64', NEWER),
      [BROKEN]: await packageFor('win32-x64', BROKEN, (app) =>
        fs.writeFileSync(path.join(app, 'agent.mjs'), "console.error('broken build'); process.exit(1);\n"),
      ),
    };
    if (!fs.existsSync(OUT)) fs.mkdirSync(OUT, { recursive: true });
    const prefix = tempDir('zhzy-wine-');
    const env = {
      ...process.env,
      WINEPREFIX: prefix.dir,
      WINEDEBUG: '-all',
      WINEDLLOVERRIDES: 'mscoree,mshtml=',
    };
    const wine = (args: string[], timeout = 300_000) =>
      spawnSync(WINE, args, { env, stdio: ['ignore', 'ignore', 'ignore'], timeout });
    wine(['wineboot', '--init']);
    // node.exe (Node 22) needs a Windows 10 prefix.
    wine(['winecfg', '/v', 'win10']);
    const noShim = bcryptPrimitivesInto(path.join(prefix.dir, 'drive_c', 'windows', 'system32'));
    const user = () => fs.readdirSync(path.join(prefix.dir, 'drive_c', 'users')).find((u) => u !== 'Public')!;
    const local = () => path.join(prefix.dir, 'drive_c', 'users', user(), 'AppData', 'Local');
    const port = await freePort();
    const logs: string[] = [];
    const children: ChildProcess[] = [];
    // Ends every Windows process of the prefix (the agents the installer and the finisher started hidden are no
    // children of the test) and waits for Wine to be gone, so nothing of this part runs on beside the Linux part.
    const endWine = () => {
      spawnSync('/usr/lib/wine/wineserver', ['-k'], { env, timeout: 60_000 });
      spawnSync('/usr/lib/wine/wineserver', ['-w'], { env, timeout: 60_000 });
      prefix.remove();
    };
    cleanup.push(endWine);
    const target: Installed = {
      install(version, first) {
        const args = first
          ? ['/S', '/NOSTART', '/DEMO', `/HOST=${host.baseUrl}`, `/PORT=${port}`]
          : ['/S', '/NOSTART'];
        const r = wine([installers[version]!, ...args]);
        expect(r.status, `installer ${version} exit code`).toBe(0);
      },
      start() {
        const dir = path.join(local(), 'Programs', 'zhzy-scan-agent');
        expect(fs.existsSync(path.join(dir, 'node.exe')), 'node.exe installed').toBe(true);
        const out = fs.openSync(path.join(prefix.dir, `agent-${children.length}.log`), 'w');
        const winDir = `C:\\users\\${user()}\\AppData\\Local\\Programs\\zhzy-scan-agent`;
        const child = spawn(WINE, [`${winDir}\\node.exe`, `${winDir}\\app\\agent.mjs`, 'start'], {
          env: { ...env, LOG_LEVEL: 'warn', AGENT_ESCL_DISCOVERY: 'false', AGENT_DRIVERS: 'hotfolder' },
          stdio: ['ignore', out, out],
        });
        fs.closeSync(out);
        children.push(child);
        return child;
      },
      dataDir: () => path.join(local(), 'zhzy-scan-agent'),
      confFile: () => path.join(local(), 'Programs', 'zhzy-scan-agent', 'agent.conf'),
      stopAll: async () => undefined,
    };
    try {
      // Probe: does the installed agent run under this Wine at all?
      target.install(OLD, true);
      const probe = target.start();
      const up = await until(
        async () => {
          if (probe.exitCode !== null) throw new Error('exited');
          return poll(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false,
          );
        },
        180_000,
        'the installed agent under Wine',
      ).then(
        () => true,
        () => false,
      );
      probe.kill('SIGKILL');
      await until(
        async () => probe.exitCode !== null || probe.signalCode !== null,
        20_000,
        'the probe to end',
      );
      expect(up, 'the installed agent answers /health under Wine (sharp is loaded on first use only)').toBe(
        true,
      );
      logs.push(
        '[wine] installed silently with /S /DEMO /HOST /PORT; node.exe starts the bundle; /health answers',
      );
      // Scanning needs sharp. Does its native module load under this Wine? Asked of node.exe directly (its answer
      // goes to a file: Wine's node.exe cannot write to a pipe).
      const appDir = `C:\\users\\${user()}\\AppData\\Local\\Programs\\zhzy-scan-agent\\app`;
      const answer = path.join(prefix.dir, 'sharp-probe.txt');
      const native = fs
        .readdirSync(
          path.join(
            local(),
            'Programs',
            'zhzy-scan-agent',
            'app',
            'node_modules',
            '@img',
            'sharp-win32-x64',
            'lib',
          ),
        )
        .find((f) => f.endsWith('.node'))!;
      wine([
        path.join(local(), 'Programs', 'zhzy-scan-agent', 'node.exe'),
        '-e',
        `const fs=require('fs');try{process.dlopen({exports:{}},${JSON.stringify(`${appDir}\\node_modules\\@img\\sharp-win32-x64\\lib\\${native}`)});fs.writeFileSync(${JSON.stringify(`Z:${answer.replaceAll('/', '\\')}`)},'ok')}catch(e){fs.writeFileSync(${JSON.stringify(`Z:${answer.replaceAll('/', '\\')}`)},String(e&&e.message))}`,
      ]);
      const sharpAnswer = fs.existsSync(answer) ? fs.readFileSync(answer, 'utf8') : '(no answer)';
      const sharpLoads = sharpAnswer === 'ok';
      logs.push(
        noShim === null
          ? '[wine] the prefix has bcryptprimitives.dll (ProcessPrng → advapi32.SystemFunction036), as Windows 10/11 has'
          : `[wine] no bcryptprimitives.dll for the prefix: ${noShim}`,
      );
      if (sharpLoads) logs.push("[wine] sharp's native module (libvips-42.dll) loads in node.exe");
      else {
        // Without the DLL (Debian's Wine 8.0 lacks it) libvips-42.dll cannot load: the agent cannot turn a scan into
        // pages. Everything else of the scenario runs under Wine: pairing over REST, a scan that fails with a clear
        // reason, the upgrade of the running agent keeping batch and pairing, the self-update.
        expect(sharpAnswer, 'the only known Wine gap is sharp’s native module').not.toBe('(no answer)');
        expect(noShim, 'sharp loads once the prefix has bcryptprimitives.dll').not.toBeNull();
        logs.push(`[wine] sharp's native module does not load under this Wine: ${sharpAnswer.slice(0, 200)}`);
      }
      {
        const dir = path.join(local(), 'Programs', 'zhzy-scan-agent');
        const conf = fs.readFileSync(target.confFile(), 'utf8');
        expect(conf).toContain(`AGENT_HOST_URLS=${host.baseUrl}`);
        expect(conf).toContain(`AGENT_PORT=${port}`);
        expect(conf).toContain('AGENT_DEMO=true');

        const base = `http://127.0.0.1:${port}`;
        let agent = target.start();
        const logIndex = children.length - 1;
        const health = async (version: string) =>
          until(
            async () =>
              poll(`${base}/health`).then(
                async (r) => AgentHealthSchema.parse(await r.json()).version === version,
                () => false,
              ),
            // Wine's first start of node.exe in a fresh prefix is slow on a busy machine.
            300_000,
            `the installed agent ${version} under Wine`,
          );
        await health(OLD);
        const origin = host.baseUrl;
        const asPage = await pairThroughPage(base, origin);
        logs.push('[wine] paired through the local page and /pairing/confirm; the page token is accepted');

        // The demo scanner's 2 duplex sheets = 4 pages, uploaded to the real host (node:http, ADR 0055).
        const script = () => ({
          authorization: `Bearer ${fs.readFileSync(path.join(target.dataDir(), 'agent-token'), 'utf8').trim()}`,
          'content-type': 'application/json',
        });
        const teacher = await signInOverHttp(host.baseUrl, 'demo-teacher');
        const created = await createHostBatch(host.baseUrl, teacher);
        const started = await fetch(`${base}/scans`, {
          method: 'POST',
          headers: script(),
          body: JSON.stringify({
            settings: { scannerIndex: 0, resolution: 100, adaptive: true, duplex: true },
            host: { baseUrl: host.baseUrl, batchId: created.batch.id, uploadToken: created.uploadToken },
            virtual: { sheets: 2, seed: WINE_SEED, pageIntervalMs: 0 },
          }),
        });
        expect(started.status, await started.clone().text()).toBe(200);
        const batchId = ((await started.json()) as { id: string }).id;
        const batch = async () =>
          AgentBatchDetailSchema.parse(
            await (await poll(`${base}/scans/${batchId}`, { headers: script() })).json(),
          );
        const agentLog = () => fs.readFileSync(path.join(prefix.dir, `agent-${logIndex}.log`), 'utf8');
        let hostIds: (string | null)[] = [];
        if (sharpLoads) {
          await fourPagesAtHost({
            host,
            teacher,
            hostBatchId: created.batch.id,
            agentBatch: batch,
            timeoutMs: 600_000,
            what: 'from the agent under Wine',
            context: () => `agent log: ${agentLog().slice(-1500)}`,
          });
          hostIds = (await batch()).pages.map((p) => p.hostPageId);
          logs.push('[wine] 4 pages scanned by the installed agent under Wine arrived at the real host');
        } else {
          let notice = '';
          await until(
            async () => {
              notice = (await batch()).batch.lastNotice?.message ?? '';
              return notice.includes('sharp');
            },
            120_000,
            'the scan under Wine to fail with a reason naming sharp',
          );
          expect(notice).toContain('无法加载图像处理模块（sharp）');
          expect((await batch()).pages).toHaveLength(0);
          expect((await hostPages(host.baseUrl, teacher, created.batch.id)).length).toBe(0);
          await until(async () => agentLog().includes('scan failed'), 20_000, 'the agent log to say why');
          expect(agentLog()).toContain('sharp');
          logs.push(`[wine] scan started, batch spooled; it failed with the notice: ${notice.slice(0, 160)}`);
          logs.push(`[wine] NOT RUN under Wine: the 4 pages to the host (sharp cannot load: ${noShim})`);
        }

        // Upgrade while the agent runs: the installer stops it (agent.mjs stop), swaps app/, keeps conf and data.
        target.install(NEW, false);
        const exited = await until(
          async () => agent.exitCode !== null || agent.signalCode !== null,
          30_000,
          'the installer to stop the running agent',
        ).then(
          () => true,
          () => false,
        );
        if (!exited) {
          logs.push('[wine] the upgrade did not end the old agent process: ended by the test');
          agent.kill('SIGKILL');
        }
        expect(JSON.parse(fs.readFileSync(path.join(dir, 'app', 'package.json'), 'utf8')).version).toBe(NEW);
        expect(fs.readFileSync(target.confFile(), 'utf8')).toBe(conf);
        for (const f of ['node.exe', 'SumatraPDF.exe', 'start-hidden.vbs', 'uninstall.exe'])
          expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
        agent = target.start();
        await health(NEW);
        expect((await batch()).batch.id, 'the spooled batch survives the upgrade').toBe(batchId);
        expect(
          (await batch()).pages.map((p) => p.hostPageId),
          'the spooled pages (with their host ids) survive the upgrade',
        ).toEqual(hostIds);
        expect(
          (await fetch(`${base}/scanners`, { headers: asPage })).status,
          'the pairing survives the upgrade under Wine',
        ).toBe(200);
        logs.push(
          `[wine] upgrade with /S ${exited ? 'stopped the running agent' : ''}; ${NEW} answers /health; batch, pairing and agent.conf kept`,
        );

        // Self-update (ADR 0055): the installed agent learns of NEWER from the host, downloads the installer from the
        // allowed host, checks its SHA-256 and runs it with /S: the installer stops the agent, swaps app/ and starts
        // it hidden again (wscript start-hidden.vbs) — no test process starts the new one.
        const newer = installers[NEWER];
        const file = path.basename(newer);
        fs.copyFileSync(newer, path.join(hostPackages, file));
        const offer = (sha256: string) =>
          fs.writeFileSync(
            path.join(hostPackages, 'manifest.json'),
            JSON.stringify({
              version: NEWER,
              packages: { 'win32-x64': { version: NEWER, file, size: fs.statSync(newer).size, sha256 } },
            }),
          );
        const h = AgentHealthSchema.parse(await (await fetch(`${base}/health`)).json());
        expect(h.packagePlatform).toBe('win32-x64');
        expect(h.canUpdate, 'an installed agent started with `start` can update itself').toBe(true);
        const update = () =>
          fetch(`${base}/update`, {
            method: 'POST',
            headers: { ...asPage, 'content-type': 'application/json' },
            body: JSON.stringify({ host: host.baseUrl, version: NEWER }),
          });
        // A manifest whose SHA-256 does not match the installer: refused in Chinese, nothing changes.
        offer(crypto.createHash('sha256').update('another file').digest('hex'));
        const refused = await update();
        expect(refused.status, await refused.clone().text()).toBe(422);
        expect(await refused.text()).toContain('SHA-256 不符');
        expect(AgentHealthSchema.parse(await (await fetch(`${base}/health`)).json()).version).toBe(NEW);
        const stage = path.join(target.dataDir(), 'update', 'stage');
        expect(fs.existsSync(stage) ? fs.readdirSync(stage) : [], 'nothing staged after a refusal').toEqual(
          [],
        );
        logs.push('[wine] self-update with a wrong SHA-256 in the manifest: 422 in Chinese, still ' + NEW);

        offer(crypto.createHash('sha256').update(fs.readFileSync(newer)).digest('hex'));
        const accepted = await update();
        expect(accepted.status, await accepted.clone().text()).toBe(200);
        expect(AgentUpdateAnswerSchema.parse(await accepted.json())).toMatchObject({
          from: NEW,
          to: NEWER,
          restarting: true,
        });
        await until(
          async () => agent.exitCode !== null || agent.signalCode !== null,
          120_000,
          'the agent to end itself for the update',
        );
        const installedVersion = () =>
          (JSON.parse(fs.readFileSync(path.join(dir, 'app', 'package.json'), 'utf8')) as { version: string })
            .version;
        await until(
          async () =>
            poll(`${base}/health`).then(
              async (r) => AgentHealthSchema.parse(await r.json()).version === NEWER,
              () => false,
            ),
          300_000,
          'the agent started by the update installer to answer as ' + NEWER,
        ).catch((error: unknown) => {
          // Which step did not happen under Wine: the installer's swap, or its start of the agent.
          const swapped =
            fs.existsSync(path.join(dir, 'app', 'package.json')) && installedVersion() === NEWER;
          throw new Error(
            swapped
              ? `the installer swapped in ${NEWER} but the agent was not started again (wscript start-hidden.vbs): ${String(error)}`
              : `the update installer did not swap the files (still ${installedVersion()}): ${String(error)}`,
          );
        });
        expect(installedVersion()).toBe(NEWER);
        // The finisher (run from app.prev\ and node.prev.exe) saw the new build answer and says so.
        const lastFile = path.join(target.dataDir(), 'update', 'last.json');
        const lastOf = () =>
          fs.existsSync(lastFile)
            ? (JSON.parse(fs.readFileSync(lastFile, 'utf8')) as { ok: boolean; to: string; message: string })
            : null;
        await until(async () => lastOf()?.to === NEWER, 180_000, 'the finisher to record the update');
        expect(lastOf()).toMatchObject({ ok: true, message: `扫描助手已从 ${NEW} 更新到 ${NEWER}` });
        expect(fs.readFileSync(target.confFile(), 'utf8'), 'agent.conf kept by the self-update').toBe(conf);
        expect((await batch()).batch.id, 'the spooled batch survives the self-update').toBe(batchId);
        expect((await batch()).pages.map((p) => p.hostPageId)).toEqual(hostIds);
        expect(
          (await fetch(`${base}/scanners`, { headers: asPage })).status,
          'the pairing survives the self-update under Wine',
        ).toBe(200);
        logs.push(
          `[wine] self-update ${NEW} → ${NEWER}: manifest read, installer downloaded from the allowed host, SHA-256 checked, ` +
            'installer /S swapped app/ and started the agent hidden; batch, pairing and agent.conf kept',
        );

        // Rollback on Windows: a build whose agent exits at once. The finisher (run from app.prev\ and node.prev.exe)
        // runs its installer, sees no /health from it and puts the old app\ and node.exe back, then starts it.
        const broken = installers[BROKEN];
        fs.copyFileSync(broken, path.join(hostPackages, path.basename(broken)));
        fs.writeFileSync(
          path.join(hostPackages, 'manifest.json'),
          JSON.stringify({
            version: BROKEN,
            packages: {
              'win32-x64': {
                version: BROKEN,
                file: path.basename(broken),
                size: fs.statSync(broken).size,
                sha256: crypto.createHash('sha256').update(fs.readFileSync(broken)).digest('hex'),
              },
            },
          }),
        );
        const toBroken = await fetch(`${base}/update`, {
          method: 'POST',
          headers: { ...asPage, 'content-type': 'application/json' },
          body: JSON.stringify({ host: host.baseUrl, version: BROKEN }),
        });
        expect(toBroken.status, await toBroken.clone().text()).toBe(200);
        expect(AgentUpdateAnswerSchema.parse(await toBroken.json())).toMatchObject({
          from: NEWER,
          to: BROKEN,
        });
        await until(
          async () => lastOf()?.to === BROKEN,
          600_000,
          'the finisher to record the outcome of the update to the broken build',
        );
        const last = lastOf()!;
        expect(last.ok).toBe(false);
        expect(last.message).toContain(`已恢复到 ${NEWER}`);
        await health(NEWER);
        expect(installedVersion(), 'the old app\\ is back').toBe(NEWER);
        expect(fs.readFileSync(target.confFile(), 'utf8'), 'agent.conf kept by the rollback').toBe(conf);
        expect(
          (await batch()).pages.map((p) => p.hostPageId),
          'the spool survives the rollback',
        ).toEqual(hostIds);
        expect(
          (await fetch(`${base}/scanners`, { headers: asPage })).status,
          'pairing kept by the rollback',
        ).toBe(200);
        logs.push(
          `[wine] self-update ${NEWER} → ${BROKEN} (agent exits at once): the finisher ran its installer, saw no /health, ` +
            `put app\\ and node.exe back and started ${NEWER}; last.json: ${last.message}; batch, pairing, agent.conf kept`,
        );
      }
    } finally {
      console.log(logs.join('\n'));
      for (const c of children) c.kill('SIGKILL');
      for (let i = 0; i < children.length; i++) {
        const f = path.join(prefix.dir, `agent-${i}.log`);
        if (fs.existsSync(f)) fs.copyFileSync(f, path.join(OUT, `wine-agent-${i}.log`));
      }
      endWine();
    }
  }, 1_800_000);

  it('Linux tarball natively: install.sh, 4 pages to the host, upgrade keeps spool and pairing', async () => {
    const tarballs = { [OLD]: await packageFor('linux-x64', OLD), [NEW]: await packageFor('linux-x64', NEW) };
    const home = tempDir('zhzy-linux-home-');
    cleanup.push(home.remove);
    const port = await freePort();
    const prefix = path.join(home.dir, 'zhzy-scan-agent');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.dir, ZHZY_AGENT_PREFIX: prefix };
    const children: ChildProcess[] = [];
    const logs: string[] = [];
    const target: Installed = {
      install(version, first) {
        const unpack = path.join(home.dir, `unpack-${version}`);
        fs.mkdirSync(unpack, { recursive: true });
        expect(spawnSync('tar', ['-xzf', tarballs[version]!, '-C', unpack]).status).toBe(0);
        const dir = path.join(unpack, fs.readdirSync(unpack)[0]!);
        const args = first ? ['--host', host.baseUrl, '--demo', '--no-start'] : ['--no-start'];
        const r = spawnSync(path.join(dir, 'install.sh'), args, { env, encoding: 'utf8', timeout: 120_000 });
        expect(r.status, r.stderr).toBe(0);
      },
      start() {
        const out = fs.openSync(path.join(home.dir, `agent-${children.length}.log`), 'w');
        const child = spawn(path.join(prefix, 'zhzy-scan-agent'), ['start'], {
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
        children.push(child);
        return child;
      },
      dataDir: () => path.join(home.dir, '.local', 'state', 'zhzy-scan-agent'),
      confFile: () => path.join(prefix, 'agent.conf'),
      stopAll: async () => undefined,
    };
    try {
      await scenario(target, host, port, LINUX_SEED, (s) => logs.push(`[linux] ${s}`));
    } finally {
      console.log(logs.join('\n'));
      for (const c of children) c.kill('SIGKILL');
    }
  }, 1_200_000);
});
