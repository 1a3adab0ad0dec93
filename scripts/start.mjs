// The README's start command after `npm ci`: build the web app, then run the host on the embedded default
// (SQLite and files under ./data, demo school seeded on first start) at http://localhost:${PORT:-3000}.
// When the 扫描助手 installers the host offers on /scan are missing or older than the agent's version, they are
// built in the background (nice'd, after the host is up), so a teacher can sign in at once and download the agent
// a few minutes later; AGENT_PACKAGES=off skips that.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './lib/system.mjs';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);

process.env.TURBO_TELEMETRY_DISABLED = '1';
run(path.join(root, 'node_modules', '.bin', 'turbo'), [
  'run',
  'build',
  '--filter=@zhzy/web',
  '--output-logs=errors-only',
]);

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
const packaging = buildAgentPackages();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    packaging?.kill(signal);
    server.kill(signal);
  });
server.on('exit', (code, signal) => {
  packaging?.kill('SIGTERM');
  process.exit(code ?? (signal ? 1 : 0));
});

/** Starts building the agent's installers when the host's folder has none of this version; null when it has. */
function buildAgentPackages() {
  if (process.env.AGENT_PACKAGES === 'off') return null;
  const agent = path.join(root, 'apps', 'scan-agent');
  const out = process.env.AGENT_PACKAGES_DIR ?? path.join(agent, 'dist', 'packages');
  const version = JSON.parse(fs.readFileSync(path.join(agent, 'package.json'), 'utf8')).version;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    if (manifest.version === version) return null;
  } catch {
    // No manifest yet: build.
  }
  fs.mkdirSync(path.join(root, 'data'), { recursive: true });
  const logFile = path.join(root, 'data', 'agent-packages.log');
  const log = fs.openSync(logFile, 'a');
  console.log(
    `[start] building the 扫描助手 installers ${version} in the background (a few minutes, first start only); log: ${path.relative(root, logFile)}`,
  );
  const child = spawn(
    'nice',
    ['-n', '10', process.execPath, path.join(agent, 'scripts', 'package.mjs'), '--out', out],
    { cwd: agent, stdio: ['ignore', log, log] },
  );
  child.on('exit', (code, signal) => {
    if (code === 0) console.log('[start] the 扫描助手 installers are ready: /scan offers 下载扫描助手');
    else if (!signal)
      console.log(
        `[start] building the 扫描助手 installers failed (exit ${code}); see ${path.relative(root, logFile)} and run \`npm run package -w @zhzy/scan-agent\``,
      );
  });
  return child;
}
