import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'vitest';

// What a hostile upload does to everyone else (issue 21): while it is handled, the host's event loop delay (the host
// runs in the test process) and the time a real HTTP `/health` request over loopback takes, probed back to back.

export interface HostHealth {
  /** Longest the event loop was blocked, ms. */
  loopMaxMs: number;
  /** Slowest `/health` answer, ms. */
  healthMaxMs: number;
  /** `/health` requests answered. */
  probes: number;
  /** `/health` requests that failed or did not answer 200. */
  failures: number;
}

/** Starts watching a listening host; `stop` ends the watch and returns the figures. */
export function watchHost(baseUrl: string): { stop(): Promise<HostHealth> } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let stopped = false;
  let healthMaxMs = 0;
  let probes = 0;
  let failures = 0;
  const prober = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      probes += 1;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await prober;
      loop.disable();
      return { loopMaxMs: loop.max / 1e6, healthMaxMs, probes, failures };
    },
  };
}

/**
 * The host's figures over `ms` with nothing to do: on a loaded machine the process is not scheduled for a while now
 * and then, and a test measures what an upload adds to that.
 */
export async function idleHealth(baseUrl: string, ms: number): Promise<HostHealth> {
  const watch = watchHost(baseUrl);
  await new Promise((r) => setTimeout(r, ms));
  return watch.stop();
}

/** Runs `attack` while watching the host. */
export async function underWatch<T>(
  baseUrl: string,
  attack: () => Promise<T>,
): Promise<{ result: T; health: HostHealth }> {
  const watch = watchHost(baseUrl);
  try {
    const result = await attack();
    return { result, health: await watch.stop() };
  } catch (error) {
    await watch.stop();
    throw error;
  }
}

/** Issue 21's bounds: the event loop never blocked longer, `/health` never slower, than this beyond idle. */
export const LOOP_LIMIT_MS = 100;
export const HEALTH_LIMIT_MS = 200;

/**
 * Runs `attack` against the watched host and checks it stayed healthy: every `/health` answered, the event loop
 * blocked less than 100 ms and `/health` answered within 200 ms, beyond what this process shows idle on the machine as
 * it is now (measured just after, as long as the attack took). The figures line goes to `figures`.
 */
export async function watched<T>(
  baseUrl: string,
  what: string,
  attack: () => Promise<T>,
  figures: string[],
): Promise<T> {
  const started = performance.now();
  const { result, health } = await underWatch(baseUrl, attack);
  const tookMs = performance.now() - started;
  const idle = await idleHealth(baseUrl, Math.min(Math.max(tookMs, 1000), 10_000));
  figures.push(
    `${what}: event loop max ${health.loopMaxMs.toFixed(0)} ms, /health max ${health.healthMaxMs.toFixed(0)} ms ` +
      `over ${health.probes} probes in ${tookMs.toFixed(0)} ms (idle: ${idle.loopMaxMs.toFixed(0)} ms, ` +
      `${idle.healthMaxMs.toFixed(0)} ms)`,
  );
  expect(health.failures, what).toBe(0);
  expect(health.probes, what).toBeGreaterThan(0);
  expect(health.loopMaxMs, what).toBeLessThan(LOOP_LIMIT_MS + idle.loopMaxMs);
  expect(health.healthMaxMs, what).toBeLessThan(HEALTH_LIMIT_MS + idle.healthMaxMs);
  return result;
}
