import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
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
  const sqliteOnly = project.config.include.some((glob) => glob.startsWith('e2e/'));
  // vitest runs a global setup once per project: should a config have several, the projects of one
  // run share one run directory, so its templates and its demo media (test-utils.ts sharedDemoMedia)
  // are made once.
  const key = sqliteOnly ? 'sqlite-only' : 'all';
  let run = runs.get(key);
  if (!run) {
    const runDir = mkdtempSync(path.join(tmpdir(), 'rv-test-run-'));
    runs.set(key, (run = { runDir, templates: buildTestTemplates(runDir, { postgres: !sqliteOnly }), users: 0 }));
  }
  run.users++;
  project.provide('testTemplates', await run.templates);
  return async () => {
    if (--run.users > 0) return;
    runs.delete(key);
    rmSync(run.runDir, { recursive: true, force: true });
    const postgres = (await run.templates).postgres;
    if (postgres) await dropSchemas(process.env.TEST_DATABASE_URL!, postgres.schemaPrefix);
  };
}

/** The run's test schemas its workers kept for reuse (test-utils.ts, freshPostgresSchema) or left behind. */
async function dropSchemas(url: string, prefix: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string }>(`select nspname as name from pg_namespace where starts_with(nspname, $1)`, [prefix]);
    for (const { name } of rows) await c.query(`drop schema if exists ${name} cascade`);
  } finally {
    await c.end();
  }
}

/**
 * This vitest process's runs, by the templates they need: on globalThis, since each project may
 * load this file as a module of its own.
 */
const shared = globalThis as { rvTestRuns?: Map<string, { runDir: string; templates: Promise<TestTemplates>; users: number }> };
const runs = (shared.rvTestRuns ??= new Map());
