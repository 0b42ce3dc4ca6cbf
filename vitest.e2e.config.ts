import { defineConfig } from 'vitest/config';
import { SERVER_RENDERER } from './vitest.config.ts';

/**
 * Browser tests: three files at a time, each with its own server and Chromium. The suite is CPU-bound on
 * this 2-core machine (Chromium is two thirds of it), but its files also wait (a schedule coming due, a
 * poll, a debounce): a third file fills those waits. Here 2 → 3 at once: 326–362 → 305 s; 4: 340 s
 * (docs/performance.md, "Test suite").
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: true,
    maxWorkers: 3,
    testTimeout: 60_000,
    // Polls wait for the app, which on a busy 2-core machine can take seconds (vitest's default is 1 s).
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 120_000,
    // One retry for a test that fails: a real fault fails twice and is reported; a timing race on a
    // loaded 2-core machine (each one found is fixed, see git log) no longer throws away a whole run.
    retry: 1,
    reporters: ['default', './e2e/flaky-reporter.ts'],
    pool: 'forks',
    // Test files share their worker's modules, as the unit tests do (vitest.config.ts): importing the
    // server's module graph afresh was about 2.5 s of CPU per file. Each file starts its own server
    // and Chromium (harness.ts) and closes them.
    isolate: false,
    // Node loads the built server renderer itself (see vitest.config.ts).
    server: { deps: { external: [SERVER_RENDERER] } },
    // The seeded SQLite database each server starts from, built once per run.
    globalSetup: ['src/server/testing/global-setup.ts'],
  },
});
