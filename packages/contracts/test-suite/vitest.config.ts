import { defineConfig } from 'vitest/config';

// Only for running the suite by hand against a live host; the server's tests run it on both databases.
export default defineConfig({
  test: {
    name: 'contract-live',
    include: ['test-suite/contract.test.ts'],
    root: new URL('..', import.meta.url).pathname,
  },
});
