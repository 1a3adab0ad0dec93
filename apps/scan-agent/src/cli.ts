import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AgentBatchListSchema,
  AgentHealthSchema,
  PAPER_SIZE_CODES,
  PairingCodeSchema,
  ScannerListSchema,
  agentCalls,
  type PaperSizeName,
  type ScannerSource,
} from '@zhzy/contracts';
import { buildAgent } from './app.js';
import { dataDirOf, loadAgentConfig, type AgentConfig } from './config.js';
import { T } from './i18n/zh-CN.js';
import { AGENT_NODE_FLAGS, bundleDir, bundleFacts, isMainModule } from './runtime.js';
import {
  agentLogFile,
  ensureRunning,
  openPairingPage,
  pidFileOf,
  stopAgent,
  writePidFile,
} from './service/control.js';
import { finishUpdate } from './service/update.js';
import { normalisePage } from './pages/normalise.js';
import { driversFromConfig } from './scanners/drivers.js';
import { PAPER_MM, type Scanner } from './scanners/port.js';
import { nextSteps, serviceFile, type ServiceMode } from './service/install.js';
import { writeFileDurable } from './spool/durable.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Drivers for `list` and `scan` (tests); otherwise from the configuration. */
  scanners?: Scanner[];
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

function parseFlags(args: string[]): { flags: Map<string, string | true>; rest: string[] } {
  const flags = new Map<string, string | true>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      rest.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) flags.set(a.slice(2), args[++i]!);
    else flags.set(a.slice(2), true);
  }
  return { flags, rest };
}

async function readToken(config: AgentConfig): Promise<string> {
  return (await fs.readFile(path.join(dataDirOf(config), 'agent-token'), 'utf8').catch(() => '')).trim();
}

/** Calls the running agent with the script token; null when it is not running. */
async function callAgent(config: AgentConfig, method: string, url: string): Promise<unknown> {
  const token = await readToken(config);
  try {
    const res = await fetch(`http://127.0.0.1:${config.AGENT_PORT}${url}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.json();
    if (!res.ok) throw new Error((body as { message?: string }).message ?? `HTTP ${res.status}`);
    return body;
  } catch (error) {
    if (error instanceof TypeError || (error as { name?: string }).name === 'TimeoutError') return null;
    throw error;
  }
}

/** Lists scanners without a running agent, numbered like the agent numbers them. */
async function listLocally(
  scanners: Scanner[],
): Promise<{ source: ScannerSource; scanner: Scanner; nativeId: string }[]> {
  const found: { source: ScannerSource; scanner: Scanner; nativeId: string }[] = [];
  for (const scanner of scanners) {
    const devices = await scanner.list(AbortSignal.timeout(20_000)).catch(() => []);
    for (const d of devices) {
      const caps = await scanner.capabilities(d.id).catch(() => null);
      found.push({
        scanner,
        nativeId: d.id,
        source: {
          id: found.length,
          text: d.name,
          deviceId: `${scanner.driver}:${d.id}`,
          driver: scanner.driver,
          feeder: caps ? caps.sources.some((s) => s !== 'flatbed') : false,
          duplex: caps ? caps.sources.includes('feederDuplex') : false,
        },
      });
    }
  }
  return found;
}

const printSources = (io: CliIo, sources: ScannerSource[]) => {
  if (sources.length === 0) io.out(T.cliNoScanners);
  for (const s of sources)
    io.out(`${s.id}\t${s.text}\t${s.driver}${s.duplex ? '\t双面' : s.feeder ? '\t进纸器' : ''}`);
};

function serviceContext(env: Record<string, string | undefined>) {
  const bundled = bundleDir();
  // Installed: `<install>/app/agent.mjs` run by the node beside it; from source: `src/cli.ts` through tsx.
  const appDir = bundled ? path.dirname(bundled) : path.resolve(import.meta.dirname, '..');
  const keep = Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[0].startsWith('AGENT_') && typeof e[1] === 'string',
    ),
  );
  return {
    home: env.HOME ?? os.homedir(),
    nodePath: process.execPath,
    cliPath: bundled ? path.join(bundled, 'agent.mjs') : path.join(appDir, 'src', 'cli.ts'),
    ...(bundled ? { nodeArgs: [...AGENT_NODE_FLAGS] } : {}),
    appDir,
    env: keep,
    ...(env.XDG_CONFIG_HOME ? { configHome: env.XDG_CONFIG_HOME } : {}),
  };
}

/**
 * `scan-agent start | status | list | scan --out DIR | pair | install-service | uninstall-service`.
 * Returns the exit code, or null for `start` (the process keeps running).
 */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number | null> {
  const [command = 'help', ...args] = argv;
  const { flags } = parseFlags(args);
  const config = loadAgentConfig(io.env);

  switch (command) {
    case 'start': {
      if (typeof process.getuid === 'function' && process.getuid() === 0) io.err(T.cliRootWarning);
      const agent = await buildAgent(config, {
        showPairingCode: io.out,
        // POST /update: the finisher swaps the files once this process is gone (ADR 0055).
        exitForUpdate: async () => {
          await agent.close().catch(() => undefined);
          await fs.rm(pidFileOf(config), { force: true });
          process.exit(0);
        },
      });
      await agent.app.listen({ host: '127.0.0.1', port: config.AGENT_PORT });
      const address = agent.app.server.address();
      io.out(T.cliListening(address && typeof address === 'object' ? address.port : config.AGENT_PORT));
      await writePidFile(config);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          void agent.close().then(() => process.exit(0));
        });
      }
      return null;
    }
    case 'status': {
      const health = await callAgent(config, 'GET', agentCalls.health.path);
      if (!health) {
        io.out(T.cliNotRunning);
        return 3;
      }
      const h = AgentHealthSchema.parse(health);
      io.out(T.cliRunning(h.version, config.AGENT_PORT));
      const list = await callAgent(config, 'GET', agentCalls.batches.path);
      for (const b of list ? AgentBatchListSchema.parse(list).batches : []) {
        io.out(
          `${b.createdAt}\t${b.source.text}\t${b.state}\t${b.pageCount}页（已上传${b.uploadedCount}${b.failedCount ? `，失败${b.failedCount}` : ''}）`,
        );
      }
      return 0;
    }
    case 'list': {
      const running = await callAgent(config, 'GET', `${agentCalls.scanners.path}?refresh=1`);
      if (running) printSources(io, ScannerListSchema.parse(running).sources);
      else
        printSources(
          io,
          (await listLocally(io.scanners ?? (await driversFromConfig(config)))).map((f) => f.source),
        );
      return 0;
    }
    case 'scan': {
      const out = flags.get('out');
      if (typeof out !== 'string') {
        io.err(T.cliUsage);
        return 2;
      }
      const found = await listLocally(io.scanners ?? (await driversFromConfig(config)));
      const index = Number(flags.get('scanner') ?? 0);
      const chosen = found[index];
      if (!chosen) {
        io.err(T.reselectScanner);
        return 1;
      }
      const paperName = (typeof flags.get('paper') === 'string' ? flags.get('paper') : 'A4') as PaperSizeName;
      const paperSize = PAPER_SIZE_CODES[paperName] ?? PAPER_SIZE_CODES.A4;
      const adaptive = flags.has('adaptive');
      const caps = await chosen.scanner.capabilities(chosen.nativeId);
      const wanted = flags.has('simplex') ? ['feeder', 'flatbed'] : ['feederDuplex', 'feeder', 'flatbed'];
      const source = (wanted.find((w) => caps.sources.includes(w as never)) ??
        caps.sources[0] ??
        'flatbed') as 'flatbed';
      await fs.mkdir(out, { recursive: true });
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'zhzy-scan-'));
      const limit = flags.has('pages') ? Number(flags.get('pages')) : Infinity;
      let pages = 0;
      const controller = new AbortController();
      try {
        for await (const event of chosen.scanner.scan(
          chosen.nativeId,
          {
            source,
            colorMode: flags.has('grey') ? 'grey' : 'color',
            resolution: Number(flags.get('dpi') ?? 300),
            paper: adaptive ? null : (PAPER_MM[paperSize] ?? null),
            workDir: work,
          },
          controller.signal,
        )) {
          if (event.type === 'notice') {
            io.out(event.message);
            continue;
          }
          const raw = event.page.file ?? event.page.data!;
          const page = await normalisePage(raw, {
            paperSize,
            adaptive,
            autoDeskew: true,
            ...(event.page.dpi ? { dpi: event.page.dpi } : {}),
          });
          const name = event.page.name.replace(/\.[^.]*$/, '') + '.jpg';
          await writeFileDurable(path.join(out, name), page.jpeg, 0o644);
          pages++;
          io.out(`${name}\t${page.width}×${page.height}${page.blank ? '\t空白页' : ''}`);
          if (event.page.file) await fs.rm(event.page.file, { force: true });
          if (pages >= limit) {
            controller.abort();
            break;
          }
        }
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
      io.out(T.cliScanDone(pages, out));
      return 0;
    }
    case 'pair': {
      const code = await callAgent(config, 'POST', agentCalls.pairingCode.path);
      if (!code) {
        io.out(T.cliNotRunning);
        return 3;
      }
      const c = PairingCodeSchema.parse(code);
      io.out(T.cliPairCode(c.code, new Date(c.expiresAt).toLocaleTimeString('zh-CN')));
      return 0;
    }
    case 'install-service':
    case 'uninstall-service': {
      const mode = (flags.get('mode') ?? (process.platform === 'win32' ? 'winsw' : 'systemd')) as ServiceMode;
      if (!['systemd', 'xdg', 'winsw'].includes(mode)) {
        io.err(T.cliUsage);
        return 2;
      }
      const { file, content } = serviceFile(mode, serviceContext(io.env));
      if (command === 'uninstall-service') {
        await fs.rm(file, { force: true });
        io.out(T.cliServiceRemoved(file));
        return 0;
      }
      // Windows services are IT's to install: print the definition; write it only when asked.
      if (flags.has('dry-run') || (mode === 'winsw' && !flags.has('write'))) {
        io.out(content);
        return 0;
      }
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileDurable(file, content, 0o644);
      io.out(T.cliServiceWritten(file));
      for (const step of nextSteps(mode)) io.out(step);
      return 0;
    }
    case 'open':
      // The Start-menu entry: start the agent when it is not running, then show the pairing page.
      return openPairingPage(config, io);
    case 'launch':
      // Sign-in autostart (no window): start in the background with output to agent.log, unless running.
      if (await ensureRunning(config)) return 0;
      io.err(T.cliStartFailed(agentLogFile(config)));
      return 1;
    case 'finish-update': {
      // Started by POST /update from the old bundle, detached: swap, start, health-check, roll back (ADR 0055).
      const get = (k: string) => (typeof flags.get(k) === 'string' ? (flags.get(k) as string) : '');
      const done = await finishUpdate({
        pid: Number(get('pid')),
        staged: get('staged'),
        installDir: get('install'),
        from: get('from'),
        to: get('to'),
        port: config.AGENT_PORT,
        dataDir: dataDirOf(config),
        logFile: agentLogFile(config),
        supervisor: get('supervisor') === 'systemd' ? 'systemd' : null,
        ...(flags.has('installer') ? { installer: { service: flags.has('service') } } : {}),
        out: io.out,
      });
      return done ? 0 : 1;
    }
    case 'stop':
      // The installer before an upgrade or an uninstall; the spool survives any stop (pages are fsynced first).
      return stopAgent(config, io);
    case 'help':
    case '--help':
      io.out(T.cliUsage);
      return 0;
    default:
      io.err(T.cliUnknownCommand(command));
      io.err(T.cliUsage);
      return 2;
  }
}

// Run directly: `tsx src/cli.ts <command>` (any OS; the bundle starts through main.ts instead).
if (!bundleFacts() && isMainModule(import.meta.url, process.argv[1])) {
  const code = await runCli(process.argv.slice(2));
  if (code !== null) process.exit(code);
}
