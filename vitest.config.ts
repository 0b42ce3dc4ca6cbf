import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@': path.resolve(import.meta.dirname, 'src/client'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is cores - 1 workers: one on a 2-core machine, where much of a file's time is
    // spent waiting (ffmpeg, media-job polls, server starts). Three at once took the suite there from
    // 542–572 s to 396 s (docs/performance.md).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Migrates (and seeds) the test databases once per run; each test app copies them.
    globalSetup: ['src/server/test-global-setup.ts'],
  },
});
