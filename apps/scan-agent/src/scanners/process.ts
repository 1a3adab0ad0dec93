import { spawn } from 'node:child_process';
import readline from 'node:readline';

/** How a finished tool exited. */
export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  cwd?: string;
  /** Sees standard error as it arrives (a tool that hangs after saying it is done can then be killed). */
  onStderr?: (chunk: string) => void;
}

/** A running tool whose standard output is read line by line as it comes. */
export interface LineProcess {
  lines: AsyncIterable<string>;
  /** Resolves when the process has exited (stdout holds nothing: it went to `lines`). */
  exit: Promise<ProcessResult>;
  /** Asks the tool to stop (SIGTERM, then SIGKILL after a grace period). */
  stop(): void;
  /** Ends the tool at once (SIGKILL). */
  kill(): void;
}

/**
 * Runs external tools with argument arrays only, never through a shell. The drivers for Windows take a fake
 * of this in tests, replaying recorded outputs.
 */
export interface ProcessRunner {
  run(command: string, args: readonly string[], options: RunOptions): Promise<ProcessResult>;
  lines(command: string, args: readonly string[], options: RunOptions): LineProcess;
}

const STDERR_CAP = 64 * 1024;
const STDOUT_CAP = 16 * 1024 * 1024;
const KILL_GRACE_MS = 5_000;
const GROUP_KILL = process.platform !== 'win32';

/** The real runner (`child_process.spawn` with `shell: false`). */
export const systemRunner: ProcessRunner = {
  run(command, args, options) {
    const proc = systemRunner.lines(command, args, options);
    let stdout = '';
    const reading = (async () => {
      for await (const line of proc.lines) if (stdout.length < STDOUT_CAP) stdout += `${line}\n`;
    })();
    return Promise.all([proc.exit, reading]).then(([result]) => ({ ...result, stdout }));
  },

  lines(command, args, options) {
    const child = spawn(command, [...args], {
      shell: false,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group on POSIX, so a stop also ends what the tool started (wrapper scripts, helpers).
      detached: GROUP_KILL,
      env: options.env ?? process.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stderr = '';
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const signalAll = (signal: NodeJS.Signals) => {
      if (GROUP_KILL && child.pid) {
        try {
          process.kill(-child.pid, signal);
          return;
        } catch {
          // The group is gone already; fall back to the child itself.
        }
      }
      child.kill(signal);
    };
    let stopped = false;
    const stop = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopped = true;
      signalAll('SIGTERM');
      killTimer ??= setTimeout(() => signalAll('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_CAP) stderr += chunk;
      options.onStderr?.(chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    timer.unref();
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const exit = new Promise<ProcessResult>((resolve) => {
      let spawnError: Error | undefined;
      child.on('error', (error) => {
        spawnError = error;
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (killTimer) clearTimeout(killTimer);
        options.signal?.removeEventListener('abort', onAbort);
        if (spawnError) stderr += `${stderr ? '\n' : ''}${spawnError.message}`;
        resolve({ code: spawnError ? -1 : code, signal, stdout: '', stderr, timedOut });
      });
    });
    const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    const kill = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopped = true;
      signalAll('SIGKILL');
    };
    // A stopped tool whose output is still held open by something it left behind must not keep us waiting.
    child.on('exit', () => {
      if (!stopped) return;
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1_000).unref();
    });
    return { lines: rl, exit, stop, kill };
  },
};
