import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type Kysely, type Migration, Migrator } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config } from '../config';
import { testConfig } from './test-config';
import type { App } from '../context';
import { openSqlite, type Database } from '../db/connection';
import { openPglite, openTestDatabase } from './pglite';
import { migrateToLatest } from '../db/migrate';
import { MIGRATIONS } from '../db/migrations';
import { seedDemoIfEmpty } from '../demo/seed';
import type { DemoMedia } from '../demo/media/demo-media';
import type { MediaTools } from '../media/ffmpeg';
import type { PostgresTemplate, TestTemplates } from './test-templates';
import { SCHEMA_SHAPE_SQL, testSchemaUrl } from './test-templates';

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
      database = openSqlite(':memory:', readCached(seeded ? tpl.sqliteSeeded : tpl.sqlite));
      ready = true;
      seeded = false;
    } else database = await openTestDatabase(dbConfig);
  } else if (url) {
    const fresh = await freshPostgresSchema(url);
    ready = fresh.migrated;
    dbConfig = { kind: 'postgres', url: fresh.url };
    database = await openTestDatabase(dbConfig);
    // A seeded schema holds ~35,000 rows: dropped, not emptied for reuse.
    drop = seeded ? fresh.drop : fresh.release;
  } else {
    dbConfig = { kind: 'pglite' };
    if (tpl?.pglite) {
      database = await openPglite(new Blob([new Uint8Array(readCached(tpl.pglite))]));
      ready = true;
    } else database = await openTestDatabase(dbConfig);
  }
  if (!ready) await migrateToLatest(database.db, database.dialect);
  if (seeded) await seedDemoIfEmpty(database);
  return { database, dbConfig, drop };
}

/** This worker's emptied schemas of closed test apps, each ready for its next test app (`release` below). */
const spareSchemas: string[] = [];

/**
 * A new schema on the PostgreSQL at `url` (TEST_DATABASE_URL): migrated from the run's template when
 * there is one and `empty` is not asked for (`migrated`), else empty. `url` of the result sets every
 * session's search_path to it. `drop` drops it; `release` (once nothing is connected to it) empties it
 * back to the template's rows for this worker's next test app, or drops it when it cannot: a schema a
 * test changed the shape of (a trigger it added), or a server where the reset is refused.
 */
export async function freshPostgresSchema(
  url: string,
  { empty = false } = {},
): Promise<{ url: string; migrated: boolean; drop: () => Promise<void>; release: () => Promise<void> }> {
  const template = empty ? undefined : templates()?.postgres;
  const drop = (schema: string) => async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  };
  const answer = (schema: string, migrated: boolean) => ({
    url: testSchemaUrl(url, schema),
    migrated,
    drop: drop(schema),
    release: async () => {
      if (template && (await emptied(url, schema, template))) spareSchemas.push(schema);
      else await drop(schema)();
    },
  });
  const spare = template ? spareSchemas.pop() : undefined;
  if (spare) return answer(spare, true);
  const schema = `${template?.schemaPrefix ?? 't_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    if (template) await admin.query(readCached(template.sqlFile).toString('utf8').replaceAll(template.schemaPlaceholder, schema));
    else await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  return answer(schema, template !== undefined);
}

/** Whether `schema` still has the template's shape and was emptied back to its rows (test-templates.ts, resetSql). */
async function emptied(url: string, schema: string, template: PostgresTemplate): Promise<boolean> {
  if (!template.resetSql) return false;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { shape } = (await c.query<{ shape: string }>(SCHEMA_SHAPE_SQL, [schema])).rows[0];
    if (shape !== template.shape) return false;
    await c.query(template.resetSql.replaceAll(template.schemaPlaceholder, schema));
    return true;
  } catch {
    return false;
  } finally {
    await c.end();
  }
}

/**
 * A fresh database of `kind` as it was before migration `until` shipped (only the migrations before it
 * have run), for tests of what that migration does to data written the old way.
 */
export async function openDatabaseBefore(kind: TestDatabaseKind, until: string): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  let database: Database;
  let dropSchema = async () => {};
  if (kind === 'sqlite') database = await openTestDatabase({ kind: 'sqlite', file: ':memory:' });
  else if (!url) database = await openTestDatabase({ kind: 'pglite' });
  else {
    const fresh = await freshPostgresSchema(url, { empty: true });
    database = await openTestDatabase({ kind: 'postgres', url: fresh.url });
    dropSchema = fresh.drop;
  }
  const index = MIGRATIONS.findIndex(([name]) => name === until);
  if (index < 0) throw new Error(`no migration ${until}`);
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.slice(0, index).map(([name, m]) => [name, { up: (trx: Kysely<unknown>) => m.up(trx, database.dialect) }]),
  );
  const { error } = await new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
  return {
    database,
    async drop() {
      await database.close();
      await dropSchema();
    },
  };
}

/**
 * Writes a migrated SQLite database to `file` (a copy of the run's template) and says so; false
 * outside a vitest run with templates, where the caller migrates it.
 */
export function writeMigratedSqlite(file: string): boolean {
  const tpl = templates();
  if (!tpl) return false;
  writeFileSync(file, readCached(tpl.sqlite));
  return true;
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
/** `token` with its last character changed: always a different string, so always refused (a fixed suffix such as "AA" is the original one time in 256). */
export function tampered(token: string): string {
  return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
}

export const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };

/** The run's demo media: what the first `ensureDemoMedia` call made, and where. */
export interface SharedDemoMedia {
  /** A DATA_DIR whose demo-media/ holds them (point a test app's dataDir's demo-media/ here). */
  dataDir: string;
  /** The first call's answer, whichever test file made it: `generated` says it made them. */
  first: DemoMedia;
}

const LOCK_WAIT_MS = 10 * 60_000;

/**
 * The demo media (made with ffmpeg, the slowest thing the suite does: ~25 s of CPU) made once per run
 * and shared by the test files that need them: the first file to ask runs `ensureDemoMedia` on an
 * empty folder of the run's directory, the others wait for it and get its answer. Under `npm test`
 * the unit and the browser runs share one set (`RV_TEST_SHARED_DIR`, scripts/test.mjs). Outside a
 * vitest run (no templates) each process makes its own. `variant` names another set made with other
 * `tools` (`'no-ffmpeg'`: the media a machine without ffmpeg makes, 2–3 s of CPU with sharp).
 */
export async function sharedDemoMedia(tools: MediaTools, variant: 'with-ffmpeg' | 'no-ffmpeg' = 'with-ffmpeg'): Promise<SharedDemoMedia> {
  const { ensureDemoMedia } = await import('../demo/media/demo-media');
  const shared = process.env.RV_TEST_SHARED_DIR ?? templates()?.runDir;
  const name = variant === 'with-ffmpeg' ? 'demo-media' : `demo-media-${variant}`;
  const dir = shared ? path.join(shared, name) : mkdtempSync(path.join(tmpdir(), `rv-${name}-`));
  const dataDir = path.join(dir, 'data');
  const answer = path.join(dir, 'first.json');
  await fs.mkdir(dir, { recursive: true });
  const end = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return { dataDir, first: JSON.parse(await fs.readFile(answer, 'utf8')) as DemoMedia };
    } catch {
      // Not made yet.
    }
    let locked = false;
    try {
      await fs.mkdir(path.join(dir, 'lock'));
      locked = true;
    } catch {
      // Another file is making them.
    }
    if (locked) {
      try {
        const first = await ensureDemoMedia(dataDir, tools);
        await fs.writeFile(`${answer}.partial`, JSON.stringify(first));
        await fs.rename(`${answer}.partial`, answer);
        return { dataDir, first };
      } finally {
        await fs.rm(path.join(dir, 'lock'), { recursive: true, force: true });
      }
    }
    if (Date.now() > end) throw new Error('the demo media were not made in time by another test file');
    await delay(500);
  }
}
