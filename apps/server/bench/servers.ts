// Child process of the benchmark: a bare Fastify hello-world and the host on a fresh SQLite file,
// both on 127.0.0.1, so the load generator in the parent does not share their event loop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ host: '127.0.0.1', port: 0 });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-bench-'));
const host = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' }),
});
await host.listen({ host: '127.0.0.1', port: 0 });

const port = (s: { server: { address(): ReturnType<typeof hello.server.address> } }) => {
  const a = s.server.address();
  return a && typeof a === 'object' ? a.port : 0;
};
process.stdout.write(`${JSON.stringify({ hello: port(hello), host: port(host) })}\n`);

const stop = async () => {
  await hello.close();
  await host.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
