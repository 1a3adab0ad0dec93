import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@zhzy/contracts';
import { AppError } from '../errors.js';
import { cpuMilliseconds, residentBytes } from '../process-memory.js';
import { ZipGuardError } from '../zip-guard.js';
import { XlsxError } from '../../modules/school/xlsx.js';
import type { JobArgs, JobName, JobResult } from './jobs.js';

// Document conversions (Word → HTML, Word import and export, PDF inspection and booklets, workbook reading) run in
// child processes, never on the host's event loop: a hostile document costs a child its time and memory, and the
// host keeps answering. Processes, not worker threads: a thread's resourceLimits cap only the V8 heap, while jszip,
// zlib and sharp allocate outside it. Each child starts with --max-old-space-size; the host also watches its
// resident memory and CPU time (/proc) and kills it past a limit: a job's time limit is CPU time, so a busy machine
// (the children run niced, below the host) does not stop a document that only waited for the CPU; a wall-clock
// limit (`wallFactor` times as long) stops a job that waits forever. ADR 0041.

/** Limits of one sandbox. */
export interface SandboxOptions {
  /** Child processes running at once; more jobs wait in line. */
  size?: number;
  /** V8 heap of a child, MB. */
  heapMb?: number;
  /** Resident memory of a child past which it is killed, MB. */
  rssMb?: number;
  /**
   * A job using more CPU time than this kills its child, ms (a job may ask for less or more); where the CPU time
   * cannot be read (no /proc), wall-clock time.
   */
  timeoutMs?: number;
  /** A job is stopped after this many times its time limit in wall-clock time, whatever CPU it used. */
  wallFactor?: number;
  /** An idle child exits after this long, ms. */
  idleMs?: number;
  /** The children's niceness (default 10: below the host). */
  nice?: number;
  /** The child's script (tests give a stand-in). */
  script?: string;
}

/** Why a child was stopped. */
export type SandboxStop = 'timeout' | 'memory' | 'crash';

/** A job stopped by the sandbox's limits (the document is too large or too complex to convert). */
export class SandboxLimitError extends Error {
  constructor(
    readonly stop: SandboxStop,
    detail: string,
  ) {
    super(detail);
    this.name = 'SandboxLimitError';
  }
}

type ToChild = { id: number; job: JobName; args: unknown[] };
type FromChild =
  | { type: 'ready' }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerialisedError };

/** An error thrown in the child, with its own fields, rebuilt as the same class in the host. */
export interface SerialisedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

const ERROR_CLASSES: Record<string, { prototype: Error }> = {
  AppError,
  ZipGuardError,
  XlsxError,
};

/** Rebuilds an error the child sent (AppError, ZipGuardError and XlsxError keep their class and fields). */
export function reviveError(e: SerialisedError): Error {
  const cls = ERROR_CLASSES[e.name];
  const error: Error = cls ? (Object.create(cls.prototype) as Error) : new Error(e.message);
  Object.assign(error, e.fields, { message: e.message, name: e.name });
  return error;
}

interface Task {
  id: number;
  job: JobName;
  args: unknown[];
  timeoutMs: number;
  done: (value: unknown) => void;
  fail: (error: Error) => void;
}

interface Child {
  process: ChildProcess;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  watch: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
  stopped: SandboxStop | null;
}

/** The niceness of the sandbox children: below the host, so a conversion never delays a request. */
const SANDBOX_NICE = 10;

/** The default `wallFactor`: 30 s of CPU time, 2 minutes on the clock. */
export const WALL_FACTOR = 4;

/** How often a running child's memory and CPU time are read, ms. */
const WATCH_MS = 100;

const DEFAULT_SCRIPT = fileURLToPath(new URL('./child.ts', import.meta.url));

/** Child processes that convert documents with a memory limit and a time limit. */
export class DocumentSandbox {
  readonly size: number;
  private readonly heapMb: number;
  private readonly rssBytes: number;
  private readonly timeoutMs: number;
  private readonly wallFactor: number;
  private readonly idleMs: number;
  private readonly nice: number;
  private readonly script: string;
  private readonly children: Child[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Children killed by a limit (for the log and the tests). */
  readonly stops: SandboxStop[] = [];
  /** The highest resident memory seen of a child, bytes. */
  peakRss = 0;

  constructor(options: SandboxOptions = {}) {
    this.size = Math.max(1, options.size ?? 2);
    this.heapMb = options.heapMb ?? 256;
    this.rssBytes = (options.rssMb ?? 768) * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.wallFactor = options.wallFactor ?? WALL_FACTOR;
    this.idleMs = options.idleMs ?? 30_000;
    this.nice = options.nice ?? SANDBOX_NICE;
    this.script = options.script ?? DEFAULT_SCRIPT;
  }

  /** Runs a job in a child; rejects with the job's own error, or SandboxLimitError when a limit stopped it. */
  run<N extends JobName>(
    job: N,
    args: JobArgs<N>,
    options: { timeoutMs?: number } = {},
  ): Promise<JobResult<N>> {
    if (this.closed) return Promise.reject(new Error('the document sandbox is closed'));
    return new Promise((done, fail) => {
      this.queue.push({
        id: this.nextId++,
        job,
        args,
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
        done: done as (value: unknown) => void,
        fail,
      });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.fail(new Error('the document sandbox is closed'));
    await Promise.all(this.children.slice().map((c) => this.kill(c, null)));
  }

  private spawn(): Child {
    const execArgv = [`--max-old-space-size=${this.heapMb}`];
    if (this.script.endsWith('.ts')) execArgv.push('--import', import.meta.resolve('tsx'));
    const process_ = fork(this.script, [], {
      execArgv,
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const child: Child = {
      process: process_,
      ready: false,
      task: null,
      timer: null,
      watch: null,
      idle: null,
      stopped: null,
    };
    this.children.push(child);
    // Conversions are background work: the kernel gives the host's event loop the CPU first (issue 21).
    if (process_.pid !== undefined) {
      try {
        if (this.nice !== 0) os.setPriority(process_.pid, this.nice);
      } catch {
        // Not permitted here: the child runs at the host's priority.
      }
    }
    process_.on('message', (m: FromChild) => this.onMessage(child, m));
    process_.on('exit', (code, signal) => this.onExit(child, `exit ${code ?? signal}`));
    process_.on('error', () => {
      // 'exit' follows and handles it.
    });
    return child;
  }

  private onMessage(c: Child, m: FromChild): void {
    if ('type' in m) {
      c.ready = true;
      this.pump();
      return;
    }
    const task = c.task;
    if (!task || task.id !== m.id) return;
    this.release(c);
    if (m.ok) task.done(m.value);
    else task.fail(reviveError(m.error));
    this.pump();
  }

  private onExit(c: Child, why: string): void {
    const i = this.children.indexOf(c);
    if (i >= 0) this.children.splice(i, 1);
    const task = c.task;
    this.release(c);
    if (c.idle) clearTimeout(c.idle);
    if (task) {
      const stop = c.stopped ?? 'crash';
      this.stops.push(stop);
      task.fail(new SandboxLimitError(stop, `document job ${task.job} stopped (${stop}, ${why})`));
    }
    this.pump();
  }

  private release(c: Child): void {
    if (c.timer) clearTimeout(c.timer);
    if (c.watch) clearInterval(c.watch);
    c.timer = null;
    c.watch = null;
    c.task = null;
  }

  private kill(c: Child, stop: SandboxStop | null): Promise<void> {
    c.stopped = stop;
    // Never handed another job between the kill and its exit.
    c.ready = false;
    return new Promise((resolve) => {
      if (c.process.exitCode !== null || c.process.signalCode !== null) return resolve();
      c.process.once('exit', () => resolve());
      c.process.kill('SIGKILL');
    });
  }

  private pump(): void {
    if (this.closed) return;
    while (this.queue.length > 0) {
      const c = this.children.find((x) => x.ready && !x.task && !x.stopped);
      if (!c) {
        const starting = this.children.filter((x) => !x.ready).length;
        for (let i = starting; i < this.queue.length && this.children.length < this.size; i++) this.spawn();
        return;
      }
      const task = this.queue.shift()!;
      if (c.idle) clearTimeout(c.idle);
      c.idle = null;
      c.process.ref();
      c.process.channel?.ref();
      c.task = task;
      const pid = c.process.pid;
      // The child's CPU time so far (its start-up and earlier jobs) is not this job's.
      const cpuAtStart = pid ? cpuMilliseconds(pid) : null;
      const wallMs = cpuAtStart === null ? task.timeoutMs : task.timeoutMs * this.wallFactor;
      c.timer = setTimeout(() => void this.kill(c, 'timeout'), wallMs);
      if (pid)
        c.watch = setInterval(() => {
          if (cpuAtStart !== null && c.task === task && !c.stopped) {
            const used = cpuMilliseconds(pid);
            if (used !== null && used - cpuAtStart > task.timeoutMs) void this.kill(c, 'timeout');
          }
          void residentBytes(pid).then((rss) => {
            this.peakRss = Math.max(this.peakRss, rss);
            if (rss > this.rssBytes && c.task === task) void this.kill(c, 'memory');
          });
        }, WATCH_MS);
      c.process.send({ id: task.id, job: task.job, args: task.args } satisfies ToChild);
    }
    // Children without work wait a while for the next job, then go; they never hold the host open.
    for (const c of this.children) {
      if (c.ready && !c.task && !c.idle) {
        c.process.unref();
        c.process.channel?.unref();
        c.idle = setTimeout(() => void this.kill(c, null), this.idleMs);
        c.idle.unref();
      }
    }
  }
}

/**
 * The Chinese refusal for a document stopped by a limit (413: too large or too complex to convert); other errors
 * pass through unchanged.
 */
export function limitRefusal(error: unknown): unknown {
  if (!(error instanceof SandboxLimitError)) return error;
  return new AppError('PAYLOAD_TOO_LARGE', MESSAGES.documentTooComplex, { detail: error.message });
}
