import PgBoss from 'pg-boss';
import type { EnqueueOptions, JobHandler, JobPayload, JobQueue } from './jobs.js';

export interface PgBossQueueOptions {
  /** The deployment's PostgreSQL (the queue's tables live in their own schema there). */
  connectionString: string;
  /** Schema of pg-boss's tables (JOB_QUEUE_SCHEMA). */
  schema: string;
  /** How often an idle worker looks for jobs (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
  /** Tries after a failure before a job is left failed (the handler is idempotent, so a retry is safe). */
  retryLimit?: number;
  /** Seconds before the first retry (doubling after each failure). */
  retryDelaySeconds?: number;
  /** Connections of the queue's own pool. */
  poolSize?: number;
  /** Seconds `close()` waits for running jobs. */
  closeTimeoutSeconds?: number;
  onError?: (name: string, error: unknown) => void;
}

/**
 * Jobs in PostgreSQL (pg-boss): any instance may queue a job and any instance that has the job's handler may run it,
 * each job once (`SKIP LOCKED`), retried after a failure or a crash. Used with JOB_QUEUE=pg-boss, i.e. whenever several
 * stateless instances share one database.
 */
export class PgBossJobQueue implements JobQueue {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly handlers = new Set<string>();
  private readonly loops: Promise<void>[] = [];
  private readonly sleepers = new Set<() => void>();
  private running = 0;
  private closed = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: PgBossQueueOptions,
  ) {}

  /** Connects, creating or upgrading pg-boss's schema when needed. */
  static async start(options: PgBossQueueOptions): Promise<PgBossJobQueue> {
    const boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema,
      max: options.poolSize ?? 4,
      application_name: 'zhzy-jobs',
      // Finished jobs are kept a week for inspection, then archived and deleted by pg-boss's maintenance.
      archiveCompletedAfterSeconds: 7 * 24 * 3600,
    });
    boss.on('error', (error) => options.onError?.('pg-boss', error));
    await boss.start();
    return new PgBossJobQueue(boss, options);
  }

  /**
   * Creates the job's queue once (pg-boss 10 needs a queue before a job is sent or worked). Instances booting together
   * may create the same queue at once and deadlock in PostgreSQL: the loser tries again.
   */
  private queue(name: string): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      ready = this.createQueue(name).catch((error: unknown) => {
        this.queues.delete(name);
        throw error;
      });
      this.queues.set(name, ready);
    }
    return ready;
  }

  private async createQueue(name: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(name, {
          name,
          retryLimit: this.options.retryLimit ?? 2,
          retryDelay: this.options.retryDelaySeconds ?? 5,
          retryBackoff: true,
        });
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  }

  work(name: string, handler: JobHandler, options: { concurrency?: number } = {}): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} already has a handler`);
    this.handlers.add(name);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop(name, handler));
  }

  /**
   * One worker: fetch a job (`SKIP LOCKED`), run it, mark it completed or failed, and fetch the next at once; when
   * the queue is empty, sleep the polling interval (a job queued by this instance wakes it early).
   */
  private async loop(name: string, handler: JobHandler): Promise<void> {
    const poll = (this.options.pollingIntervalSeconds ?? 2) * 1000;
    try {
      await this.queue(name);
    } catch (error) {
      this.options.onError?.(name, error);
      return;
    }
    while (!this.closed) {
      let job: PgBoss.Job<JobPayload> | undefined;
      try {
        job = (await this.boss.fetch<JobPayload>(name, { batchSize: 1 }))?.[0];
      } catch (error) {
        if (this.closed) return;
        this.options.onError?.(name, error);
      }
      if (!job) {
        await this.sleep(poll);
        continue;
      }
      this.running += 1;
      try {
        await handler(job.data);
        await this.boss.complete(name, job.id);
      } catch (error) {
        this.options.onError?.(name, error);
        const message = error instanceof Error ? error.message : String(error);
        await this.boss.fail(name, job.id, { message }).catch(() => undefined);
      } finally {
        this.running -= 1;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private wake(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  async enqueue(name: string, payload: JobPayload, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('the job queue is closed');
    await this.queue(name);
    await this.boss.send(name, payload, options.priority ? { priority: options.priority } : {});
    this.wake();
  }

  /** Jobs queued, retrying or running for a name, across every instance. */
  async pending(name: string): Promise<number> {
    return (await this.boss.getQueueSize(name, { before: 'completed' })) ?? 0;
  }

  /** Resolves when no job of a known name is queued, retrying or running anywhere in the deployment. */
  async drain(): Promise<void> {
    for (;;) {
      const names = [...this.queues.keys()];
      const counts = await Promise.all(names.map((n) => this.pending(n)));
      if (this.running === 0 && counts.every((c) => c === 0)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Jobs this instance is running now (metrics). */
  get active(): number {
    return this.running;
  }

  /**
   * Stops fetching jobs and waits for this instance's running ones; past the timeout they are left to pg-boss, which
   * hands them to another instance once they expire.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wake();
    const timeout = (this.options.closeTimeoutSeconds ?? 30) * 1000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.loops),
      new Promise((r) => {
        timer = setTimeout(r, timeout);
      }),
    ]);
    clearTimeout(timer);
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
