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

/** vitest globalSetup (both configs): the database templates every test app copies, once per run. */
export default async function setup(project: TestProject) {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rv-test-run-'));
  project.provide('testTemplates', await buildTestTemplates(runDir));
  return () => rmSync(runDir, { recursive: true, force: true });
}
