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
    // Migrates (and seeds) the test databases once per run; each test app copies them.
    globalSetup: ['src/server/test-global-setup.ts'],
  },
});
