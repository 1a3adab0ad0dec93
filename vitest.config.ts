import { defineConfig } from 'vitest/config';

// One run over every workspace: each project keeps its own vitest.config.ts. Test files run one at a time on the
// 2-core CI machine (vitest's default, cores − 1): two at a time halved the wall time but the host's fairness checks,
// which compare a school's wait with the same machine idle, then measured their neighbour instead (ADR 0070).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
