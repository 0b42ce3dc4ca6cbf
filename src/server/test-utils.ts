import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from './app';
import { type Config, testConfig } from './config';
import type { App } from './context';
import { openDatabase, type Db } from './db/connection';
import { migrateToLatest } from './db/migrate';

/**
 * API tests run the same file on both databases:
 *   describe.each(TEST_DATABASES)('... on %s', (kind) => { const t = useTestApp(kind); ... })
 * PostgreSQL is TEST_DATABASE_URL (each app gets its own fresh schema) or, when unset, an
 * in-process PGlite — nothing is skipped.
 */
export const TEST_DATABASES = ['sqlite', 'postgres'] as const;
export type TestDatabaseKind = (typeof TEST_DATABASES)[number];

export interface TestApp {
  app: App;
  database: Db;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(kind: TestDatabaseKind, overrides: Partial<Config> = {}): Promise<TestApp> {
  let dropSchema: (() => Promise<void>) | undefined;
  let dbConfig: Config['database'];
  const url = process.env.TEST_DATABASE_URL;
  if (kind === 'sqlite') {
    dbConfig = { kind: 'sqlite', file: ':memory:' };
  } else if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const sep = url.includes('?') ? '&' : '?';
    dbConfig = { kind: 'postgres', url: `${url}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}` };
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  } else {
    dbConfig = { kind: 'pglite' };
  }
  const config = testConfig({ database: dbConfig, ...overrides });
  const database = await openDatabase(dbConfig);
  await migrateToLatest(database.db, database.dialect);
  const app = await buildApp(config, database);
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await dropSchema?.();
    },
  };
}

/**
 * Headers of a visitor's browser. Injected requests otherwise say `User-Agent: lightMyRequest`,
 * which isbot takes for a bot: its downloads would not count (modules/downloads).
 */
export const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
