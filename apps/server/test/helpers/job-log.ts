import { InProcessJobQueue, type EnqueueOptions, type JobHandler, type JobPayload, type JobQueue } from '../../src/lib/jobs.js';

// The host's own job queue (in this process, as the default host runs it) with a log of what it did, in order: when
// each job was queued, handed to its handler and finished. A test reads the order the host served work in, which
// holds on a busy machine, where wall times measured seconds apart do not.

export interface JobEvent {
  what: 'queued' | 'started' | 'finished';
  name: string;
  payload: JobPayload;
}

export class LoggedJobQueue implements JobQueue {
  readonly events: JobEvent[] = [];
  private readonly queue = new InProcessJobQueue();

  work(name: string, handler: JobHandler, options?: { concurrency?: number }): void {
    this.queue.work(
      name,
      async (payload) => {
        this.events.push({ what: 'started', name, payload });
        try {
          await handler(payload);
        } finally {
          this.events.push({ what: 'finished', name, payload });
        }
      },
      options,
    );
  }

  enqueue(name: string, payload: JobPayload, options?: EnqueueOptions): Promise<void> {
    this.events.push({ what: 'queued', name, payload });
    return this.queue.enqueue(name, payload, options);
  }

  drain(): Promise<void> {
    return this.queue.drain();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  /** Where in the log a job of `name` with `key` = `value` first did `what` (-1: not yet). */
  indexOf(what: JobEvent['what'], name: string, key: string, value: unknown): number {
    return this.events.findIndex((e) => e.what === what && e.name === name && e.payload[key] === value);
  }
}
