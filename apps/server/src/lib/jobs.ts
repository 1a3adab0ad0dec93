// Background jobs behind one port: the embedded default runs them in this process; production (issue 11) puts them
// in a PostgreSQL-backed queue so any instance may pick them up. A job's payload must be plain JSON, and a handler
// must be idempotent: a queue may deliver a job again after a crash.

export type JobPayload = Record<string, unknown>;
export type JobHandler = (payload: JobPayload) => Promise<void>;

export interface JobQueue {
  /** Registers the handler of a job name (once per name, before jobs of that name can run). */
  work(name: string, handler: JobHandler, options?: { concurrency?: number }): void;
  /**
   * Queues a job; resolves once it is durably queued (not when it has run). A job of higher `priority` (default 0)
   * runs before waiting jobs of lower priority; equal priorities run in order.
   */
  enqueue(name: string, payload: JobPayload, options?: EnqueueOptions): Promise<void>;
  /** Resolves when no job is queued or running (tests and graceful shutdown). */
  drain(): Promise<void>;
  /** Stops taking jobs and waits for running ones. */
  close(): Promise<void>;
}

export interface EnqueueOptions {
  priority?: number;
}

interface Lane {
  handler: JobHandler;
  concurrency: number;
  running: number;
  queue: { payload: JobPayload; priority: number }[];
}

/**
 * Jobs in this process, per name with its own concurrency; a failing job is logged and dropped (its handler is
 * responsible for recording what failed in the database, where a teacher can see it).
 */
export class InProcessJobQueue implements JobQueue {
  private readonly lanes = new Map<string, Lane>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly onError: (name: string, error: unknown) => void = () => {}) {}

  work(name: string, handler: JobHandler, options: { concurrency?: number } = {}): void {
    if (this.lanes.has(name)) throw new Error(`job ${name} already has a handler`);
    this.lanes.set(name, {
      handler,
      concurrency: Math.max(1, options.concurrency ?? 1),
      running: 0,
      queue: [],
    });
  }

  enqueue(name: string, payload: JobPayload, options: EnqueueOptions = {}): Promise<void> {
    const lane = this.lanes.get(name);
    if (!lane) return Promise.reject(new Error(`no handler for job ${name}`));
    if (this.closed) return Promise.reject(new Error('the job queue is closed'));
    const priority = options.priority ?? 0;
    // After every waiting job of the same or a higher priority.
    let at = lane.queue.length;
    while (at > 0 && lane.queue[at - 1]!.priority < priority) at--;
    lane.queue.splice(at, 0, { payload, priority });
    queueMicrotask(() => this.pump(name, lane));
    return Promise.resolve();
  }

  private pump(name: string, lane: Lane): void {
    while (lane.running < lane.concurrency && lane.queue.length > 0) {
      const { payload } = lane.queue.shift()!;
      lane.running += 1;
      void lane
        .handler(payload)
        .catch((error: unknown) => this.onError(name, error))
        .finally(() => {
          lane.running -= 1;
          this.pump(name, lane);
          this.notifyIfIdle();
        });
    }
    this.notifyIfIdle();
  }

  private isIdle(): boolean {
    for (const lane of this.lanes.values()) if (lane.running > 0 || lane.queue.length > 0) return false;
    return true;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }
}
