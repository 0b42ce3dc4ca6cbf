import { defineConfig } from 'vitest/config';

/** Browser tests: one file at a time (2 cores: the server, Chromium and the test share them). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
