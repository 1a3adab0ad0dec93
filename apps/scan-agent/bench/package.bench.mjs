// `npm run bench -w @zhzy/scan-agent` (second part): the installable agent's installer size, start-up time and idle
// memory (goals: installer ≤ 60 MB, start ≤ 2 s, idle ≤ 80 MB; ADR 0043). Measures the packages that
// `npm run package -w @zhzy/scan-agent` (or the installer test) built; start and memory are taken natively from the
// Linux package's runtime and bundle (the Windows bundle is the same JavaScript on node.exe).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const roots = [
  path.join(here, 'dist', 'packages'),
  path.join(here, 'dist', 'packages-test', 'installer', '0.2.0'),
];
const loadAtStart = os.loadavg()[0].toFixed(1);

const root = roots.find((r) => fs.existsSync(path.join(r, 'manifest.json')));
if (!root) {
  console.log('[bench:package] no package built yet: run `npm run package -w @zhzy/scan-agent` first');
  process.exit(0);
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
for (const [platform, p] of Object.entries(manifest.packages)) {
  const mb = p.size / 1e6;
  console.log(
    `[bench:package] ${platform} ${p.file}: ${mb.toFixed(1)} MB (goal ≤ 60 MB) ${mb <= 60 ? 'ok' : 'OVER'}`,
  );
}

const stages = roots.map((r) => path.join(r, '.stage')).filter((d) => fs.existsSync(d));
const stage = stages.find((d) => fs.readdirSync(d).some((x) => x.endsWith('-linux-x64')));
const linux = stage && fs.readdirSync(stage).find((d) => d.endsWith('-linux-x64'));
if (!stage || !linux) {
  console.log('[bench:package] no Linux package stage: start-up and memory not measured');
  process.exit(0);
}
const dir = path.join(stage, linux);
const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const RUNS = Number(process.env.RUNS ?? 3);
const TICK = 100; // USER_HZ of /proc/<pid>/stat on Linux
/** CPU seconds (user + system) a process has used so far: what the start costs, whatever else the machine runs. */
const cpuOf = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / TICK;
};
/** One start of the installed agent: wall time and CPU time to /health, RSS after 10 s idle. */
async function oneRun() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-bench-agent-'));
  const loadBefore = os.loadavg()[0];
  const started = performance.now();
  // Started as installed (the launcher script passes the agent's V8 flags, AGENT_NODE_FLAGS); `exec` keeps one pid.
  const child = spawn(path.join(dir, 'zhzy-scan-agent'), ['start'], {
    env: {
      PATH: process.env.PATH,
      HOME: data,
      AGENT_DATA_DIR: data,
      AGENT_PORT: String(port),
      AGENT_ESCL_DISCOVERY: 'false',
      AGENT_DRIVERS: 'hotfolder',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  let startMs = null;
  let cpuS = null;
  while (performance.now() - started < 30_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      startMs = performance.now() - started;
      cpuS = cpuOf(child.pid);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  // Idle memory: RSS after 10 s without a request (the agent as it sits in the tray all day).
  await new Promise((r) => setTimeout(r, 10_000));
  const rssKb = Number(
    /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN,
  );
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  fs.rmSync(data, { recursive: true, force: true });
  return { startMs, cpuS, rssMb: rssKb / 1024, load: loadBefore };
}

const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await oneRun());
for (const [i, r] of runs.entries())
  console.log(
    `[bench:package] run ${i + 1}: start-up to /health ${r.startMs === null ? 'failed' : `${(r.startMs / 1000).toFixed(2)} s`} ` +
      `(CPU ${r.cpuS === null ? '?' : `${r.cpuS.toFixed(2)} s`}) · idle RSS ${r.rssMb.toFixed(0)} MB · load ${r.load.toFixed(1)}`,
  );
const ok = runs.filter((r) => r.startMs !== null);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const startS = ok.length ? median(ok.map((r) => r.startMs)) / 1000 : null;
const cpuS = ok.length ? median(ok.map((r) => r.cpuS)) : null;
const rssMb = Math.max(...runs.map((r) => r.rssMb));
const load = `${loadAtStart} → ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
console.log(
  `[bench:package] start-up to /health (median of ${RUNS}): ${startS === null ? 'failed' : `${startS.toFixed(2)} s`} ` +
    `(goal ≤ 2 s) ${startS !== null && startS <= 2 ? 'ok' : 'OVER'}, CPU ${cpuS === null ? '?' : `${cpuS.toFixed(2)} s`} · ` +
    `idle RSS (largest): ${rssMb.toFixed(0)} MB (goal ≤ 80 MB) ${rssMb <= 80 ? 'ok' : 'OVER'} · load ${load}`,
);
