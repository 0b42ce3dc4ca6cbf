import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../config';
import { type Database, openDatabase } from '../db/connection';
import { openTestDatabase } from './pglite';
import { migrateToLatest } from '../db/migrate';
import { freshPostgresSchema, type TestDatabaseKind, writeMigratedSqlite } from './test-utils';

/** Test-only: one database opened twice, as two instances of the server would. */

/** Two handles on one database (two instances' connections), and the config a child process opens it with. */
export interface Shared {
  a: Database;
  b: Database;
  /** Undefined for in-process PGlite, which no other process can reach. */
  childConfig?: DatabaseConfig;
  close(): Promise<void>;
}

export async function openShared(kind: TestDatabaseKind): Promise<Shared> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-jobs-'));
    const config: DatabaseConfig = { kind: 'sqlite', file: path.join(dir, 'jobs.db') };
    // A copy of the run's migrated template (test-templates.ts) when there is one.
    const migrated = writeMigratedSqlite(config.file);
    const a = await openDatabase(config);
    if (!migrated) await migrateToLatest(a.db, a.dialect);
    const b = await openDatabase(config);
    return {
      a,
      b,
      childConfig: config,
      async close() {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const a = await openTestDatabase({ kind: 'pglite' });
    await migrateToLatest(a.db, a.dialect);
    return { a, b: a, close: () => a.close() };
  }
  const fresh = await freshPostgresSchema(url);
  const config: DatabaseConfig = { kind: 'postgres', url: fresh.url };
  const a = await openDatabase(config);
  if (!fresh.migrated) await migrateToLatest(a.db, a.dialect);
  const b = await openDatabase(config);
  return {
    a,
    b,
    childConfig: config,
    async close() {
      await a.close();
      await b.close();
      await fresh.drop();
    },
  };
}

