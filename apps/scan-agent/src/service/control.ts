import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { agentCalls } from '@zhzy/contracts';
import { dataDirOf, type AgentConfig } from '../config.js';
import { T } from '../i18n/zh-CN.js';
import { agentNodeArgs } from '../runtime.js';
import { writeFileDurable } from '../spool/durable.js';
import { hostRequest } from '../http-client.js';

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const pidFileOf = (config: AgentConfig) => path.join(dataDirOf(config), 'agent.pid');
export const agentLogFile = (config: AgentConfig) => path.join(dataDirOf(config), 'agent.log');

/** Written once the agent listens: `stop` (the installer) ends this process. */
export async function writePidFile(config: AgentConfig): Promise<void> {
  await fs.promises.mkdir(dataDirOf(config), { recursive: true });
  await writeFileDurable(pidFileOf(config), `${process.pid}\n`, 0o600);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

async function healthy(config: AgentConfig): Promise<boolean> {
  try {
    // The agent's host client (node:http): fetch cannot connect under Wine 8 (ADR 0055).
    const res = await hostRequest(`http://127.0.0.1:${config.AGENT_PORT}${agentCalls.health.path}`, {
      timeoutMs: 2_000,
      signal: AbortSignal.timeout(2_000),
    });
    res.resume();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** Ends the running agent (from its pid file) and waits until it is gone. */
export async function stopAgent(config: AgentConfig, io: Io): Promise<number> {
  const pid = Number((await fs.promises.readFile(pidFileOf(config), 'utf8').catch(() => '')).trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    if (!(await until(() => !alive(pid), 10_000))) process.kill(pid, 'SIGKILL');
    await until(() => !alive(pid), 5_000);
  }
  await fs.promises.rm(pidFileOf(config), { force: true });
  io.out(T.cliStopped);
  return 0;
}

/** Starts the agent in the background (no window; output to agent.log) unless it answers already. */
export async function ensureRunning(config: AgentConfig): Promise<boolean> {
  if (await healthy(config)) return true;
  await fs.promises.mkdir(dataDirOf(config), { recursive: true });
  const log = fs.openSync(agentLogFile(config), 'a');
  const script = process.argv[1]!;
  const child = spawn(process.execPath, [...agentNodeArgs(), script, 'start'], {
    detached: true,
    windowsHide: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  fs.closeSync(log);
  return until(() => healthy(config), 20_000);
}

const opener = (): [string, string[]] =>
  process.platform === 'win32'
    ? ['explorer.exe', []]
    : process.platform === 'darwin'
      ? ['open', []]
      : ['xdg-open', []];

/** The Start-menu entry: the agent running, then the pairing page in the default browser. */
export async function openPairingPage(config: AgentConfig, io: Io): Promise<number> {
  const url = `http://127.0.0.1:${config.AGENT_PORT}/pair`;
  if (!(await ensureRunning(config))) {
    io.err(T.cliStartFailed(agentLogFile(config)));
    return 1;
  }
  io.out(T.cliOpenPage(url));
  const [cmd, args] = opener();
  spawn(cmd, [...args, url], { detached: true, stdio: 'ignore', windowsHide: true })
    .on('error', () => undefined)
    .unref();
  return 0;
}
