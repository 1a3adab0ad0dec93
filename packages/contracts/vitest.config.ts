import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'contracts',
    include: ['src/**/*.test.ts'],
    // A busy 2-core machine (CI runs two test files at a time) stretches the slowest schema walks past 5 s.
    testTimeout: 30_000,
  },
});
