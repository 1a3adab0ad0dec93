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
const roots = [path.join(here, 'dist', 'packages'), path.join(here, 'dist', 'packages-test', '0.2.0')];
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
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-bench-agent-'));
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
while (performance.now() - started < 30_000) {
  const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) {
    startMs = performance.now() - started;
    break;
  }
  await new Promise((r) => setTimeout(r, 20));
}
// Idle memory: RSS after 10 s without a request (the agent as it sits in the tray all day).
await new Promise((r) => setTimeout(r, 10_000));
const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN);
child.kill('SIGKILL');
fs.rmSync(data, { recursive: true, force: true });
const load = `${loadAtStart} → ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
console.log(
  `[bench:package] start-up to /health: ${startMs === null ? 'failed' : `${(startMs / 1000).toFixed(2)} s`} (goal ≤ 2 s) · idle RSS: ${(rssKb / 1024).toFixed(0)} MB (goal ≤ 80 MB) · load ${load}`,
);
