import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@zhzy/contracts';
import { AppError } from '../src/lib/errors.js';
import { DocumentSandbox, SandboxLimitError, WALL_FACTOR, limitRefusal } from '../src/lib/sandbox/pool.js';

// The document sandbox's time limit is the child's CPU time: a conversion that computes past it is stopped (the
// hostile document's case), one that only waited for a busy machine's CPU is not; a job that waits forever is
// stopped by a wall-clock limit `wallFactor` times as long (4 by default). Stopped jobs answer the teacher 413.
// Where a job must not be stopped, the wall-clock limit is set far away: a niced child on a loaded machine may wait
// long for the CPU, which is the point of the CPU-time limit. The stand-in runs at the host's priority: its jobs
// test the limits, and a niced child on a loaded test machine would wait minutes for its few hundred ms of CPU.

const script = fileURLToPath(new URL('./helpers/sandbox-stand-in.mjs', import.meta.url));
// The stand-in's jobs are not the real ones: the pool's typing names the real jobs only.
type AnyRun = (job: string, args: unknown[], options?: { timeoutMs?: number }) => Promise<unknown>;

const base = { size: 1, script, nice: 0 };

describe('document sandbox time limit', { timeout: 180_000 }, () => {
  let sandbox: DocumentSandbox;
  const run = (...a: Parameters<AnyRun>) => (sandbox.run as unknown as AnyRun)(...a);
  afterEach(async () => {
    await sandbox.close();
  });

  it('stops a job that computes past its time limit, and says the document is too complex', async () => {
    sandbox = new DocumentSandbox({ ...base, timeoutMs: 400 });
    const error = await run('burn', [60_000]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).stop).toBe('timeout');
    const refusal = limitRefusal(error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).message).toBe(MESSAGES.documentTooComplex);
    expect(sandbox.stops).toEqual(['timeout']);
  });

  it('lets a job finish that took longer than its limit on the clock but used little CPU', async () => {
    sandbox = new DocumentSandbox({ ...base, timeoutMs: 400, wallFactor: 1_000 });
    // Three times the limit on the clock, well inside the wall-clock limit; almost no CPU.
    expect(await run('wait', [1_200])).toBe('waited');
    expect(sandbox.stops).toEqual([]);
    // The same child computes 300 ms twice, each within its 400 ms: CPU spent before a job is not counted for it.
    expect(await run('burn', [300])).toBe(true);
    expect(await run('burn', [300])).toBe(true);
    expect(sandbox.stops).toEqual([]);
  });

  it('stops a job that never answers after the wall-clock limit', async () => {
    sandbox = new DocumentSandbox({ ...base, timeoutMs: 200 });
    const started = Date.now();
    const error = await run('hang', []).catch((e: unknown) => e);
    expect((error as SandboxLimitError).stop).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200 * WALL_FACTOR - 50);
    expect(sandbox.stops).toEqual(['timeout']);
  });

  it('answers the next job after a child was stopped', async () => {
    sandbox = new DocumentSandbox({ ...base, timeoutMs: 300, wallFactor: 1_000 });
    await expect(run('burn', [60_000])).rejects.toBeInstanceOf(SandboxLimitError);
    expect(await run('wait', [10])).toBe('waited');
  });
});
