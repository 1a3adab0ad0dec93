import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One project: component tests in jsdom (src/), and the browser tests against the real host (e2e/, which
// switch themselves to the node environment per file).
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts', 'build/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 240_000,
    // A browser test polls for what the page shows until it holds: vitest's default gives up after 1 s, shorter than
    // a loaded machine takes to render or a host to answer. The poll ends as soon as the outcome holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
