import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../db/connection';
import { openPglite } from './pglite';
import { migrateToLatest } from '../db/migrate';
import { seedDemoIfEmpty } from '../demo/seed';

/**
 * Test databases are migrated (and seeded) once per run, not once per test file: vitest's global
 * setup (global-setup.ts) builds these templates and every test app starts from a copy
 * (test-utils.ts, e2e/harness.ts). Decision: docs/decisions/300-test-database-templates.md.
 */
export interface TestTemplates {
  /** Hash of the migrations and the code they import: a template is only used for these. */
  hash: string;
  /** This run's directory (removed when the run ends): what test files share within one run. */
  runDir: string;
  /** A migrated SQLite database file. */
  sqlite: string;
  /** The same with the demo content (seeded during this run: its dates are relative to now). */
  sqliteSeeded: string;
  /** PGlite (no TEST_DATABASE_URL): the files of a migrated database (tarball for `loadDataDir`). */
  pglite?: string;
  /**
   * TEST_DATABASE_URL: SQL that creates a migrated schema named `schemaPlaceholder` (pg_dump of a
   * schema migrated at setup); absent when pg_dump is missing or refuses this server.
   */
  postgres?: PostgresTemplate;
}

export interface PostgresTemplate {
  sqlFile: string;
  schemaPlaceholder: string;
  /** Every test schema of this run is named with it, so the run's end drops any left (global-setup.ts). */
  schemaPrefix: string;
  /**
   * SQL that empties a used test schema named `schemaPlaceholder` back to the template's rows (every table's rows
   * deleted, the template's own put back, sequences restarted), for the worker's next test app: one round trip
   * instead of dropping a schema and creating another (test-utils.ts, decision 300). Absent when it failed on the
   * template itself (a user who is not a superuser, a row pg_dump wrote on more than one line): schemas are dropped.
   */
  resetSql?: string;
  /** The template's tables, columns, triggers and functions, counted: a used schema is only emptied for reuse if it still matches. */
  shape: string;
}

/** The query whose answer is a schema's `shape` (PostgresTemplate), with the schema's name as $1. */
export const SCHEMA_SHAPE_SQL = `select concat_ws('/',
  (select count(*) from pg_class where relnamespace = $1::regnamespace),
  (select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relnamespace = $1::regnamespace and a.attnum > 0 and not a.attisdropped),
  (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace),
  (select count(*) from pg_proc where pronamespace = $1::regnamespace)) as shape`;

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(SERVER_DIR, '../..');

/**
 * sha256 of the migration runner, every migration and every file they import (relative imports,
 * followed to the end), and the PGlite version: a template built by other code is never reused.
 */
export function migrationsHash(): string {
  const seen = new Set<string>();
  const queue = [path.join(SERVER_DIR, 'db/migrate.ts'), path.join(SERVER_DIR, 'db/connection.ts')];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+|\.)'/g)) {
      const resolved = resolveImport(path.dirname(file), m[1]);
      if (resolved) queue.push(resolved);
    }
  }
  const hash = createHash('sha256');
  for (const file of [...seen].sort()) hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  hash.update(JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

function resolveImport(dir: string, spec: string): string | undefined {
  const base = path.resolve(dir, spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') || candidate.endsWith('.tsx')) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Kept between runs (keyed by hash): the migrated PGlite template takes seconds to build. */
const CACHE_DIR = path.join(tmpdir(), 'resource-vault-test-templates');

/** Writes `data` to `file` atomically (other runs may read the same cache file meanwhile). */
function writeAtomically(file: string, data: Uint8Array | string) {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

/** Builds the templates this run needs into `runDir` (and the shared cache). */
export async function buildTestTemplates(runDir: string, options: { postgres?: boolean } = {}): Promise<TestTemplates> {
  const hash = migrationsHash();
  mkdirSync(CACHE_DIR, { recursive: true });
  const sqlite = path.join(runDir, `sqlite-${hash}.db`);
  const sqliteSeeded = path.join(runDir, `sqlite-seeded-${hash}.db`);
  const templates: TestTemplates = { hash, runDir, sqlite, sqliteSeeded };

  const memory = await openDatabase({ kind: 'sqlite', file: ':memory:' });
  try {
    await migrateToLatest(memory.db, memory.dialect);
    writeFileSync(sqlite, memory.sqlite!.serialize());
    await seedDemoIfEmpty(memory);
    writeFileSync(sqliteSeeded, memory.sqlite!.serialize());
  } finally {
    await memory.close();
  }

  const url = process.env.TEST_DATABASE_URL;
  if (options.postgres === false) {
    // (Browser tests run on SQLite only.)
  } else if (url) {
    templates.postgres = await buildPostgresTemplate(url, runDir, hash);
  } else {
    const file = path.join(CACHE_DIR, `pglite-${hash}.tar`);
    if (!existsSync(file)) {
      const lite = await openPglite();
      try {
        await migrateToLatest(lite.db, lite.dialect);
        writeAtomically(file, new Uint8Array(await (await lite.dumpDataDir()).arrayBuffer()));
      } finally {
        await lite.close();
      }
    }
    templates.pglite = file;
  }
  return templates;
}

/**
 * Migrates a schema of our own, dumps it as SQL with pg_dump, drops it. Replaying that SQL with
 * another schema name is one round trip, several times faster than running the migrations.
 */
async function buildPostgresTemplate(url: string, runDir: string, hash: string): Promise<PostgresTemplate | undefined> {
  const schema = `rv_template_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
    const database = await openDatabase({ kind: 'postgres', url: testSchemaUrl(url, schema) });
    try {
      await migrateToLatest(database.db, database.dialect);
    } finally {
      await database.close();
    }
    const { stdout } = await promisify(execFile)(
      'pg_dump',
      ['--schema', schema, '--no-owner', '--no-privileges', '--inserts', '--dbname', url],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // psql meta-commands (\restrict) are not SQL; comments are noise.
    const sqlText = stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
      .join('\n');
    const sqlFile = path.join(runDir, `postgres-${hash}.sql`);
    writeFileSync(sqlFile, sqlText);
    // The migrations' bookkeeping is never written by a test: kept as it is.
    const kept = (table: string) => table.startsWith('kysely_migration');
    const tables = (await admin.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1 order by 1', [schema])).rows.map((r) => r.name);
    const rows = sqlText.split('\n').filter((line) => line.startsWith(`INSERT INTO ${schema}.`) && !kept(line.slice(`INSERT INTO ${schema}.`.length)));
    const sequences = sqlText.split('\n').filter((line) => line.startsWith('SELECT pg_catalog.setval('));
    // Triggers (foreign keys, the data version's) stay quiet while the rows go: a superuser's setting; elsewhere the
    // reset fails and the schema is dropped instead.
    const resetSql = [
      'set session_replication_role = replica;',
      ...tables.filter((t) => !kept(t)).map((t) => `delete from ${schema}.${t};`),
      'set session_replication_role = default;',
      ...rows,
      ...sequences,
    ].join('\n');
    const { shape } = (await admin.query<{ shape: string }>(SCHEMA_SHAPE_SQL, [schema])).rows[0];
    // Tried once on the template itself, so a reset this server refuses is said here, not found by each test app.
    const works = await admin.query(resetSql).then(
      () => true,
      (err: Error) => console.warn(`PostgreSQL test schemas are dropped, not reused: ${err.message.split('\n')[0]}`),
    );
    return { sqlFile, schemaPlaceholder: schema, schemaPrefix: `t${randomBytes(4).toString('hex')}_`, resetSql: works ? resetSql : undefined, shape };
  } catch (err) {
    // No pg_dump, or one older than the server: each test app migrates its schema instead.
    console.warn(`PostgreSQL test template unavailable, migrating each schema: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}

/**
 * `url` for a test's sessions: search_path set to `schema`, and commits that do not wait for the WAL
 * to reach the disk (`synchronous_commit = off`). A test never outlives a crash of the server, and the
 * wait was most of a small write's time: 1.0 ms a commit against 0.24 ms without it, here.
 */
export function testSchemaUrl(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema} -c synchronous_commit=off`)}`;
}
