import { defineConfig } from 'vitest/config';

// Rendering and reading whole pages takes seconds of CPU; on a busy 2-core machine the default 5 s is too short.
export default defineConfig({
  test: { name: 'answer-card', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
