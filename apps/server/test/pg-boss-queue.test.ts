import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossJobQueue } from '../src/lib/pg-boss-queue.js';
import { openTestDb, type TestDb } from './helpers/index.js';

// The production queue on the real PostgreSQL: two queues on one database stand for two host instances.
describe('the PostgreSQL-backed job queue (pg-boss)', () => {
  let testDb: TestDb;
  const queues: PgBossJobQueue[] = [];
  const open = async (options: { retryLimit?: number } = {}) => {
    const queue = await PgBossJobQueue.start({
      connectionString: testDb.location,
      schema: 'pgboss',
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      poolSize: 2,
      ...options,
    });
    queues.push(queue);
    return queue;
  };

  beforeAll(async () => {
    testDb = await openTestDb('postgres');
  });
  afterAll(async () => {
    for (const q of queues) await q.close();
    await testDb.cleanup();
  });

  it('runs a job queued on one instance on another that has its handler, with its payload intact', async () => {
    const a = await open();
    const b = await open();
    const seen: unknown[] = [];
    b.work('test.echo', async (payload) => {
      seen.push(payload);
    });
    await a.enqueue('test.echo', { pageId: 'p-1', nested: { score: 4.5, tags: ['选择题'] } });
    await b.drain();
    expect(seen).toEqual([{ pageId: 'p-1', nested: { score: 4.5, tags: ['选择题'] } }]);
    expect(await a.pending('test.echo')).toBe(0);
  });

  it('runs each job exactly once when every instance works the same queue', async () => {
    const a = await open();
    const b = await open();
    const runs: number[] = [];
    const handler = (who: string) => async (payload: Record<string, unknown>) => {
      await new Promise((r) => setTimeout(r, 20));
      runs.push(payload.n as number);
      by[who] = (by[who] ?? 0) + 1;
    };
    const by: Record<string, number> = {};
    a.work('test.once', handler('a'), { concurrency: 2 });
    b.work('test.once', handler('b'), { concurrency: 2 });
    await Promise.all(Array.from({ length: 40 }, (_, n) => a.enqueue('test.once', { n })));
    await a.drain();
    expect(runs.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect((by.a ?? 0) + (by.b ?? 0)).toBe(40);
  });

  it('retries a failed job (the handler is idempotent) and leaves it failed after the last try', async () => {
    const a = await open({ retryLimit: 1 });
    const tries: Record<string, number> = {};
    a.work('test.flaky', async (payload) => {
      const id = payload.id as string;
      tries[id] = (tries[id] ?? 0) + 1;
      if (id === 'always' || tries[id] === 1) throw new Error(`failure ${tries[id]}`);
    });
    await a.enqueue('test.flaky', { id: 'once' });
    await a.enqueue('test.flaky', { id: 'always' });
    await a.drain();
    expect(tries).toEqual({ once: 2, always: 2 });
  }, 30_000);

  it('lets a running job finish when the instance closes, and refuses new jobs after', async () => {
    const a = await open();
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    a.work('test.slow', async () => {
      started();
      await new Promise((r) => setTimeout(r, 800));
      finished = true;
    });
    await a.enqueue('test.slow', {});
    await running;
    await a.close();
    expect(finished).toBe(true);
    await expect(a.enqueue('test.slow', {})).rejects.toThrow(/closed/);
  });
});
