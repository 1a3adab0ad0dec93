import { defineConfig } from 'vitest/config';

// One run over every workspace: each project keeps its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
