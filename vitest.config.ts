import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that each run in a process of its own. Three time real sockets against sub-second server
 * limits: after other files in the same process, chunks.test.ts's 408s did not come (the sweep did
 * not cut the stalled chunk), and the two robustness files failed that way once before. The session
 * secret's PostgreSQL instances, started at once as main.ts starts them, failed there twice in four
 * runs ("schema … does not exist" while migrating). Neither is explained yet.
 */
const ISOLATED = [
  'src/server/modules/files/chunks.test.ts',
  'src/server/robustness/slow-clients.test.ts',
  'src/server/robustness/streamed-body.test.ts',
  'src/server/modules/auth/session-secret.test.ts',
];

/**
 * The built client's server renderer (dist/client/ssr/render.js, 3.5 MB, imported by the SPA module):
 * loaded by Node as the server loads it, not through Vite's transform (both test configs). Transformed,
 * it was 18.5 MB with its inline source map, read again by the test process for every app that
 * imported it (docs/performance.md, "Session 10").
 */
export const SERVER_RENDERER = /\/dist\/client\/ssr\//;

export default defineConfig({
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@': path.resolve(import.meta.dirname, 'src/client'),
    },
  },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    server: { deps: { external: [SERVER_RENDERER] } },
    // Vitest's default is cores - 1 workers: one on a 2-core machine, where much of a file's time is
    // spent waiting (ffmpeg, media-job polls, server starts). Three at once took the suite there from
    // 542–572 s to 396 s (docs/performance.md).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Migrates (and seeds) the test databases once per run; each test app copies them.
    globalSetup: ['src/server/test-global-setup.ts'],
    projects: [
      {
        extends: true,
        // Test files share their worker's modules: each file importing (and warming up) the app's
        // module graph afresh was about 2 s of CPU per file, a third of the suite's CPU
        // (docs/performance.md). Files clean up after themselves (servers closed, spies and fake
        // timers restored).
        test: { name: 'unit', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'unit-isolated', isolate: true, include: ISOLATED } },
    ],
  },
});
