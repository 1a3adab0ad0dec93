import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { residentBytes } from '../../lib/process-memory.js';
import type { CardLayout, PageRecognition } from '@zhzy/contracts';

// A pool of child processes that run the recogniser, one page at a time each. Processes, not threads: libvips and
// zxing keep native memory a worker thread cannot give back, and a page that crashes the decoder takes down one
// worker, never the host. Each worker starts with MALLOC_ARENA_MAX=2 and sharp.concurrency(1) (see the recogniser's
// notes: glibc arenas otherwise double the RSS under libvips).

/** Messages from the pool to a worker. */
export type ToWorker =
  | { type: 'page'; id: number; bytes: Uint8Array; dpi?: number; hint?: CardHint }
  /** Cut the crops of a page recognised earlier (its stored result) from its file. */
  | { type: 'crops'; id: number; bytes: Uint8Array; result: PageRecognition }
  | { type: 'layout'; id: number; reqId: number; layout: CardLayout | null };

/** Messages from a worker to the pool. */
export type FromWorker =
  | { type: 'ready'; rss: number }
  | { type: 'resolve'; id: number; reqId: number; cardId: string; version: number }
  | { type: 'result'; id: number; result: PageRecognition; images: [string, Uint8Array][]; rss: number }
  | { type: 'error'; id: number; message: string };

/** The card the rest of a batch agrees on, tried for a page whose code cannot be read (see `recognisePage`). */
export interface CardHint {
  cardId: string;
  version: number;
  page: number;
}

export interface RecognisedOutput {
  result: PageRecognition;
  images: Map<string, Buffer>;
}

/** Looks up a card layout for a worker (the host's database lives in this process). */
export type PoolResolver = (cardId: string, version: number) => Promise<CardLayout | undefined>;

/** Raised when a page killed its worker twice: recorded as an exception, the batch goes on. */
export class WorkerCrashError extends Error {
  constructor(readonly detail: string) {
    super(`recognition worker died twice on this page: ${detail}`);
  }
}

/**
 * Raised when a page took its worker past the memory limit: the worker is replaced and the page goes to a person
 * at once (reading it again would cost as much again).
 */
export class WorkerMemoryError extends WorkerCrashError {
  constructor(readonly rss: number) {
    super(`over the memory limit (${Math.round(rss / 1024 / 1024)} MB resident)`);
  }
}

export interface PoolOptions {
  /** Worker processes; default the number of cores. */
  size?: number;
  /** The worker's script (tests give a crashing one). */
  script?: string;
  /** A page that takes longer than this kills its worker (counted as a crash). */
  pageTimeoutMs?: number;
  /** How many times a page is retried on a fresh worker after its worker died. */
  retries?: number;
  /** Resident memory of a worker past which it is killed and its page sent to a person, MB. */
  memoryLimitMb?: number;
}

interface Task {
  id: number;
  bytes: Uint8Array;
  /** A crops task: the page's stored result. */
  crops?: PageRecognition;
  dpi: number | undefined;
  hint: CardHint | undefined;
  resolveLayout: PoolResolver;
  attempts: number;
  done: (out: RecognisedOutput) => void;
  fail: (error: Error) => void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** Polls the worker's resident memory while it works. */
  watch: NodeJS.Timeout | null;
  /** Killed for its memory: the resident size seen. */
  overMemory: number | null;
  rss: number;
}

const DEFAULT_SCRIPT = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Node options that let a worker run TypeScript sources (the host runs its workspaces as source, ADR 0004). */
function execArgvFor(script: string): string[] {
  if (!script.endsWith('.ts')) return [];
  return ['--import', import.meta.resolve('tsx')];
}

export class RecognitionPool {
  readonly size: number;
  private readonly script: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly memoryLimit: number;
  private readonly workers: Worker[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers replaced after dying (for the log and the tests). */
  restarts = 0;
  /** Workers killed past the memory limit. */
  memoryKills = 0;
  /** The highest resident memory seen of a busy worker, bytes. */
  peakRss = 0;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism());
    this.script = options.script ?? DEFAULT_SCRIPT;
    this.timeoutMs = options.pageTimeoutMs ?? 120_000;
    this.retries = options.retries ?? 1;
    this.memoryLimit = (options.memoryLimitMb ?? 1024) * 1024 * 1024;
  }

  /** Resident memory of each live worker, bytes, as each last reported it. */
  memory(): number[] {
    return this.workers.map((w) => w.rss);
  }

  /** Recognises one page in a worker; rejects with WorkerCrashError when the page killed its worker twice. */
  recognise(
    bytes: Uint8Array,
    resolveLayout: PoolResolver,
    dpi?: number,
    hint?: CardHint,
  ): Promise<RecognisedOutput> {
    if (this.closed) return Promise.reject(new Error('the recognition pool is closed'));
    return new Promise((done, fail) => {
      this.queue.push({ id: this.nextId++, bytes, dpi, hint, resolveLayout, attempts: 0, done, fail });
      this.pump();
    });
  }

  /**
   * Cuts the crops of a page recognised without crop images (the host's way) from its file, in a worker: the crop
   * images by crop id. Rejects with WorkerCrashError when the page killed its worker twice.
   */
  cutCrops(bytes: Uint8Array, result: PageRecognition): Promise<Map<string, Buffer>> {
    if (this.closed) return Promise.reject(new Error('the recognition pool is closed'));
    return new Promise((done, fail) => {
      this.queue.push({
        id: this.nextId++,
        bytes,
        crops: result,
        dpi: undefined,
        hint: undefined,
        resolveLayout: () => Promise.resolve(undefined),
        attempts: 0,
        done: (out) => done(out.images),
        fail,
      });
      this.pump();
    });
  }

  /** Starts every worker now (otherwise they start with the first page). */
  async warm(): Promise<void> {
    while (this.workers.length < this.size) this.spawn();
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.ready) return resolve();
            const check = (m: FromWorker) => {
              if (m.type === 'ready') {
                w.child.off('message', check);
                resolve();
              }
            };
            w.child.on('message', check);
            w.child.once('exit', () => resolve());
          }),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.fail(new Error('the recognition pool is closed'));
    await Promise.all(
      this.workers.splice(0).map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
            w.child.once('exit', () => resolve());
            w.child.kill();
          }),
      ),
    );
  }

  private spawn(): Worker {
    const child = fork(this.script, [], {
      execArgv: execArgvFor(this.script),
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = {
      child,
      ready: false,
      task: null,
      timer: null,
      watch: null,
      overMemory: null,
      rss: 0,
    };
    this.workers.push(worker);
    child.on('message', (m: FromWorker) => this.onMessage(worker, m));
    child.on('exit', (code, signal) => this.onExit(worker, `exit ${code ?? signal}`));
    child.on('error', () => {
      // 'exit' follows and handles it.
    });
    return worker;
  }

  private onMessage(w: Worker, m: FromWorker): void {
    if (m.type === 'ready') {
      w.ready = true;
      w.rss = m.rss;
      this.pump();
      return;
    }
    const task = w.task;
    if (!task || m.id !== task.id) return;
    if (m.type === 'resolve') {
      task.resolveLayout(m.cardId, m.version).then(
        (layout) => this.send(w, { type: 'layout', id: task.id, reqId: m.reqId, layout: layout ?? null }),
        () => this.send(w, { type: 'layout', id: task.id, reqId: m.reqId, layout: null }),
      );
      return;
    }
    this.finish(w);
    w.task = null;
    if (m.type === 'result') {
      w.rss = m.rss;
      task.done({
        result: m.result,
        images: new Map(m.images.map(([k, v]) => [k, Buffer.from(v.buffer, v.byteOffset, v.length)])),
      });
    } else task.fail(new Error(m.message));
    this.pump();
  }

  private onExit(w: Worker, why: string): void {
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    this.finish(w);
    const task = w.task;
    w.task = null;
    if (this.closed) return;
    this.restarts += 1;
    if (task) {
      task.attempts += 1;
      if (w.overMemory !== null) task.fail(new WorkerMemoryError(w.overMemory));
      else if (task.attempts > this.retries) task.fail(new WorkerCrashError(why));
      else this.queue.unshift(task);
    }
    this.pump();
  }

  private finish(w: Worker): void {
    if (w.timer) clearTimeout(w.timer);
    if (w.watch) clearInterval(w.watch);
    w.timer = null;
    w.watch = null;
  }

  private send(w: Worker, m: ToWorker): void {
    if (w.child.connected) w.child.send(m);
  }

  private pump(): void {
    if (this.closed) return;
    while (this.queue.length > 0) {
      const w = this.workers.find((x) => x.ready && !x.task);
      if (!w) {
        // Start as many workers as the waiting pages need (they become ready in the background).
        const starting = this.workers.filter((x) => !x.ready).length;
        for (let i = starting; i < this.queue.length && this.workers.length < this.size; i++) this.spawn();
        return;
      }
      const task = this.queue.shift()!;
      w.task = task;
      const worker = w;
      w.timer = setTimeout(() => worker.child.kill('SIGKILL'), this.timeoutMs);
      // libvips and zxing allocate outside V8's heap: resident memory is watched from here, and a page that takes
      // its worker past the limit is stopped there.
      const pid = w.child.pid;
      if (pid)
        w.watch = setInterval(() => {
          void residentBytes(pid).then((rss) => {
            this.peakRss = Math.max(this.peakRss, rss);
            if (rss > this.memoryLimit && worker.task === task && worker.overMemory === null) {
              worker.overMemory = rss;
              this.memoryKills += 1;
              worker.child.kill('SIGKILL');
            }
          });
        }, 100);
      this.send(
        w,
        task.crops
          ? { type: 'crops', id: task.id, bytes: task.bytes, result: task.crops }
          : {
              type: 'page',
              id: task.id,
              bytes: task.bytes,
              ...(task.dpi ? { dpi: task.dpi } : {}),
              ...(task.hint ? { hint: task.hint } : {}),
            },
      );
    }
  }
}
