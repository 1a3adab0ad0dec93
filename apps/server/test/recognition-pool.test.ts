import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageRecognition } from '@zhzy/contracts';
import { RecognitionPool, WorkerCrashError, WorkerMemoryError } from '../src/modules/recognition/pool.js';

// The worker pool alone, with a stand-in worker that crashes on command: a dead worker is replaced, its page is
// retried once on a fresh worker, and a page that kills two workers is reported, never retried for ever.

const script = fileURLToPath(new URL('./fixtures/crashing-worker.mjs', import.meta.url));
const noLayouts = async () => undefined;

describe('recognition worker pool', () => {
  let pool: RecognitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    delete process.env.ZHZY_CRASH_MARKER;
  });

  it('answers pages with their crops, from workers started with MALLOC_ARENA_MAX=2', async () => {
    pool = new RecognitionPool({ size: 2, script });
    await pool.warm();
    const outs = await Promise.all([1, 2, 3, 4].map((b) => pool!.recognise(new Uint8Array([b]), noLayouts)));
    expect(outs.map((o) => (o.result as unknown as { byte: number }).byte)).toEqual([1, 2, 3, 4]);
    expect((outs[0]!.result as unknown as { arena: string }).arena).toBe('2');
    expect(outs[0]!.images.get('crop-1')).toEqual(Buffer.from([1, 2, 3]));
    expect(new Set(outs.map((o) => (o.result as unknown as { pid: number }).pid)).size).toBe(2);
    expect(pool.memory().every((rss) => rss > 0)).toBe(true);
  });

  it("cuts a recognised page's crops in a worker, and reports a page whose crops kill two workers", async () => {
    pool = new RecognitionPool({ size: 1, script });
    const result = { crops: [{ id: 'crop:a' }, { id: 'crop:bb' }] } as unknown as PageRecognition;
    const images = await pool.cutCrops(new Uint8Array([9]), result);
    expect([...images]).toEqual([
      ['crop:a', Buffer.from([9, 6])],
      ['crop:bb', Buffer.from([9, 7])],
    ]);
    const bad = pool.cutCrops(new Uint8Array([0xff]), result);
    const next = pool.recognise(new Uint8Array([5]), noLayouts);
    await expect(bad).rejects.toBeInstanceOf(WorkerCrashError);
    expect((await next).result).toMatchObject({ byte: 5 });
  });

  it('replaces a worker that died and retries its page once', async () => {
    process.env.ZHZY_CRASH_MARKER = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-pool-')),
      'crashed',
    );
    pool = new RecognitionPool({ size: 1, script });
    const out = await pool.recognise(new Uint8Array([0xfe]), noLayouts);
    expect((out.result as unknown as { byte: number }).byte).toBe(0xfe);
    expect(pool.restarts).toBe(1);
  });

  it('gives up on a page that killed two workers, and the next page is read', async () => {
    pool = new RecognitionPool({ size: 1, script });
    const bad = pool.recognise(new Uint8Array([0xff]), noLayouts);
    const good = pool.recognise(new Uint8Array([7]), noLayouts);
    await expect(bad).rejects.toBeInstanceOf(WorkerCrashError);
    expect((await good).result).toMatchObject({ byte: 7 });
    expect(pool.restarts).toBe(2);
  });

  it('kills a worker past its memory limit, sends that page to a person at once, and reads the next page', async () => {
    pool = new RecognitionPool({ size: 1, script, memoryLimitMb: 200 });
    const hungry = pool.recognise(new Uint8Array([0xfd]), noLayouts);
    const next = pool.recognise(new Uint8Array([8]), noLayouts);
    await expect(hungry).rejects.toBeInstanceOf(WorkerMemoryError);
    expect((await next).result).toMatchObject({ byte: 8 });
    expect(pool.memoryKills).toBe(1);
    // Stopped near the limit: polled every 100 ms while growing 8 MB per 10 ms.
    expect(pool.peakRss).toBeGreaterThan(200 * 1024 * 1024);
  });
});
