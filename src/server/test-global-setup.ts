import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildTestTemplates, type TestTemplates } from './test-templates';

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplates: TestTemplates;
  }
}

/**
 * vitest globalSetup: the database templates every test app copies, once per run. The browser
 * tests (e2e/, SQLite only) need no PostgreSQL template.
 */
export default async function setup(project: TestProject) {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rv-test-run-'));
  const sqliteOnly = project.config.include.some((glob) => glob.startsWith('e2e/'));
  project.provide('testTemplates', await buildTestTemplates(runDir, { postgres: !sqliteOnly }));
  return () => rmSync(runDir, { recursive: true, force: true });
}
