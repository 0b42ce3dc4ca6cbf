import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from './app';
import { type Config, testConfig } from './config';
import type { App } from './context';
import { openDatabase, openPglite, openSqliteCopy, type Database } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedDemoIfEmpty } from './db/seed/seed';
import type { TestTemplates } from './test-templates';
import { withSearchPath } from './test-templates';

/**
 * API tests run the same file on both databases:
 *   describe.each(TEST_DATABASES)('... on %s', (kind) => { let t: TestApp; beforeAll(async () => { t = await createTestApp(kind); }); ... })
 * PostgreSQL is TEST_DATABASE_URL (each app gets its own fresh schema) or, when unset, an
 * in-process PGlite — nothing is skipped. Each app's database is a copy of a template migrated
 * once per run (test-templates.ts); `seedDemo: true` gives it the demo content too.
 */
export const TEST_DATABASES = ['sqlite', 'postgres'] as const;
export type TestDatabaseKind = (typeof TEST_DATABASES)[number];

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The run's templates (undefined outside a vitest run with the global setup). */
function templates(): TestTemplates | undefined {
  try {
    return inject('testTemplates');
  } catch {
    return undefined;
  }
}

/** Template files read once per worker process. */
const fileCache = new Map<string, Buffer>();
function readCached(file: string): Buffer {
  let data = fileCache.get(file);
  if (!data) fileCache.set(file, (data = readFileSync(file)));
  return data;
}

/**
 * A fresh, migrated database of `kind` (with the demo content when `seeded`) and its config.
 * Without templates it migrates (and seeds) in place.
 */
export async function createTestDatabase(
  kind: TestDatabaseKind,
  seeded = false,
): Promise<{ database: Database; dbConfig: Config['database']; drop?: () => Promise<void> }> {
  const tpl = templates();
  const url = process.env.TEST_DATABASE_URL;
  let database: Database;
  let dbConfig: Config['database'];
  let drop: (() => Promise<void>) | undefined;
  let ready = false;
  if (kind === 'sqlite') {
    dbConfig = { kind: 'sqlite', file: ':memory:' };
    if (tpl) {
      database = openSqliteCopy(readCached(seeded ? tpl.sqliteSeeded : tpl.sqlite));
      ready = true;
      seeded = false;
    } else database = await openDatabase(dbConfig);
  } else if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      if (tpl?.postgres) {
        await admin.query(readCached(tpl.postgres.sqlFile).toString('utf8').replaceAll(tpl.postgres.schemaPlaceholder, schema));
        ready = true;
      } else await admin.query(`create schema ${schema}`);
    } finally {
      await admin.end();
    }
    dbConfig = { kind: 'postgres', url: withSearchPath(url, schema) };
    database = await openDatabase(dbConfig);
    drop = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  } else {
    dbConfig = { kind: 'pglite' };
    if (tpl?.pglite) {
      database = await openPglite(new Blob([new Uint8Array(readCached(tpl.pglite))]));
      ready = true;
    } else database = await openDatabase(dbConfig);
  }
  if (!ready) await migrateToLatest(database.db, database.dialect);
  if (seeded) await seedDemoIfEmpty(database);
  return { database, dbConfig, drop };
}

/** A test app on a fresh database; `overrides.seedDemo` fills it with the demo content. */
export async function createTestApp(kind: TestDatabaseKind, overrides: Partial<Config> = {}): Promise<TestApp> {
  const { database, dbConfig, drop } = await createTestDatabase(kind, overrides.seedDemo === true);
  const config = testConfig({ database: dbConfig, ...overrides });
  const app = await buildApp(config, database);
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await drop?.();
    },
  };
}

/**
 * Headers of a visitor's browser. Injected requests otherwise say `User-Agent: lightMyRequest`,
 * which isbot takes for a bot: its downloads would not count (modules/downloads).
 */
export const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
