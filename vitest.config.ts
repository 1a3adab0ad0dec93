import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every workspace: each project keeps its own vitest.config.ts.
// Vitest's default is one worker fewer than the cores, which is one worker on the 2-core CI machine: most of the
// suite waits on PostgreSQL, Chromium and child processes rather than on its own CPU, so two files at a time halve
// the wall time there. Every test owns its database, port, temporary folder and cupsd, so files do not collide, and
// no check compares wall times measured apart (a neighbour file changes the machine between them): ADR 0070.
const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    maxWorkers: Math.max(2, cores - 1),
  },
});
