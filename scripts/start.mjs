// The README's start command after `npm ci`: build the web app, then run the host on the embedded default
// (SQLite and files under ./data, demo school seeded on first start) at http://localhost:${PORT:-3000}.
import { spawn } from 'node:child_process';
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
