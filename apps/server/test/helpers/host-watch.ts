import { spawn } from 'node:child_process';
import { once } from 'node:events';
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
  /**
   * Longest event loop delay of a process doing nothing on the same machine over the same span, ms: how long the
   * machine itself left a process unscheduled (a busy CI box), as opposed to what the host did.
   */
  machineLoopMaxMs: number;
}

// The idle neighbour: measures its own event loop delay until its stdin ends, then prints the maximum.
const NEIGHBOUR = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
process.stdout.write('ready\\n');
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  h.disable();
  process.stdout.write(JSON.stringify({ max: h.max / 1e6 }) + '\\n');
});
`;

/** Starts the idle neighbour; `stop` returns its longest event loop delay. */
async function startNeighbour(): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, ['-e', NEIGHBOUR], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  while (!out.includes('ready')) await once(child.stdout, 'data');
  return {
    async stop() {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      return (JSON.parse(out.slice(out.indexOf('\n') + 1)) as { max: number }).max;
    },
  };
}

/** Starts watching a listening host; `stop` ends the watch and returns the figures. */
export async function watchHost(baseUrl: string): Promise<{ stop(): Promise<HostHealth> }> {
  const neighbour = await startNeighbour();
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
      const machineLoopMaxMs = await neighbour.stop();
      return { loopMaxMs: loop.max / 1e6, healthMaxMs, probes, failures, machineLoopMaxMs };
    },
  };
}

/**
 * The host's figures over `ms` with nothing to do: on a loaded machine the process is not scheduled for a while now
 * and then, and a test measures what an upload adds to that.
 */
export async function idleHealth(baseUrl: string, ms: number): Promise<HostHealth> {
  const watch = await watchHost(baseUrl);
  await new Promise((r) => setTimeout(r, ms));
  return watch.stop();
}

/** Runs `attack` while watching the host. */
export async function underWatch<T>(
  baseUrl: string,
  attack: () => Promise<T>,
): Promise<{ result: T; health: HostHealth }> {
  const watch = await watchHost(baseUrl);
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
 * What the machine alone accounts for: the larger of this process's figures idle (measured just after, as long as
 * the attack took) and an idle neighbour process's event loop delay during the attack.
 */
export function machineSlack(idle: HostHealth, during: HostHealth): { loopMs: number; healthMs: number } {
  return {
    loopMs: Math.max(idle.loopMaxMs, during.machineLoopMaxMs),
    healthMs: Math.max(idle.healthMaxMs, during.machineLoopMaxMs),
  };
}

/**
 * Runs `attack` against the watched host and checks it stayed healthy: every `/health` answered, the event loop
 * blocked less than 100 ms and `/health` answered within 200 ms, beyond what the machine alone accounts for
 * (`machineSlack`). The figures line goes to `figures`.
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
      `${idle.healthMaxMs.toFixed(0)} ms; an idle neighbour's event loop meanwhile: ` +
      `${health.machineLoopMaxMs.toFixed(0)} ms)`,
  );
  const slack = machineSlack(idle, health);
  expect(health.failures, what).toBe(0);
  expect(health.probes, what).toBeGreaterThan(0);
  expect(health.loopMaxMs, what).toBeLessThan(LOOP_LIMIT_MS + slack.loopMs);
  expect(health.healthMaxMs, what).toBeLessThan(HEALTH_LIMIT_MS + slack.healthMs);
  return result;
}
