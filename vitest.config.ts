import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The built client's server renderer (dist/client/ssr/render.js, 3.5 MB, imported by the SPA module):
 * loaded by Node as the server loads it, not through Vite's transform (both test configs). Transformed,
 * it was 18.5 MB with its inline source map, read again by the test process for every app that
 * imported it (docs/performance.md, "Test suite").
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
    // 542–572 s to 396 s (docs/performance.md, "Test suite").
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Migrates (and seeds) the test databases once per run; each test app copies them.
    globalSetup: ['src/server/testing/global-setup.ts'],
    // Before each file: passwords hashed at a test-only cost (the file says why).
    setupFiles: ['src/server/testing/test-setup.ts'],
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // Test files share their worker's modules: each file importing (and warming up) the app's
    // module graph afresh was about 2 s of CPU per file, a third of the suite's CPU
    // (docs/performance.md, "Test suite"). Files clean up after themselves (servers closed,
    // spies and fake timers restored). Vitest restores every vi.spyOn again after each file, so a spy
    // must never wrap something a test put in place for a while (a fake timer, say): see auth.test.ts.
    isolate: false,
  },
});
