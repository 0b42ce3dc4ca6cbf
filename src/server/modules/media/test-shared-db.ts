import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../config';
import { type Database, openDatabase } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import type { TestDatabaseKind } from '../../test-utils';

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
    const a = await openDatabase(config);
    await migrateToLatest(a.db, a.dialect);
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
    const a = await openDatabase({ kind: 'pglite' });
    await migrateToLatest(a.db, a.dialect);
    return { a, b: a, close: () => a.close() };
  }
  const schema = `t_jobs_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await admin(`create schema ${schema}`);
  const config: DatabaseConfig = { kind: 'postgres', url: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` };
  const a = await openDatabase(config);
  await migrateToLatest(a.db, a.dialect);
  const b = await openDatabase(config);
  return {
    a,
    b,
    childConfig: config,
    async close() {
      await a.close();
      await b.close();
      await admin(`drop schema if exists ${schema} cascade`);
    },
  };
}

