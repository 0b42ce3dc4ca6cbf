import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { type Kysely, type Migration, Migrator, sql, type Transaction } from 'kysely';
import tar from 'tar-stream';
import type { Database } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';
import type { Tables } from '../../db/schema';
import type { FileStore } from '../../storage/file-store';
import { tagKeys } from '../resources/mappers';
import { writeStaleFacets } from '../resources/search/facet-rows';
import { suspendSearchIndexing } from '../resources/search/sqlite';
import {
  BACKED_UP_TABLES,
  type BackupHeader,
  backupHeaderSchema,
  BackupFormatError,
  decodeValue,
  FILE_ENTRY_PREFIX,
  FORMAT,
  FORMAT_VERSION,
  HEADER_ENTRY,
  type Manifest,
  MANIFEST_ENTRY,
  manifestSchema,
  MIGRATION_NAMES,
  migrationLevel,
  tableOfEntry,
} from './format';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
/** An entry being read from a tar (tar-stream does not export its type). */
type TarEntry = ReturnType<typeof tar.extract> extends AsyncIterable<infer E> ? E : never;
type Row = Record<string, unknown>;

/** The header and manifest are read into memory: larger ones are not ours. */
const HEADER_MAX_BYTES = 1024 * 1024;
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;
/** Parameters per insert, under both databases' limits (SQLite 32,766; PostgreSQL 65,535). */
const INSERT_PARAMETERS = 30_000;

/** The archive's entries in order; each must be read to its end (or resumed) before the next. */
async function* archiveEntries(file: string): AsyncGenerator<TarEntry> {
  const extract = tar.extract();
  const input = createReadStream(file);
  input.on('error', (err) => extract.destroy(err));
  input.pipe(extract);
  try {
    for await (const entry of extract) yield entry;
  } finally {
    input.destroy();
  }
}

async function readLimited(entry: AsyncIterable<unknown>, max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += (chunk as Buffer).length;
    if (size > max) throw new BackupFormatError(`${what} is larger than a backup's can be`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseJson<T>(bytes: Buffer, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupFormatError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BackupFormatError(`${what} is not a Resource Vault backup's`);
  return parsed.data;
}

/**
 * Reads the whole archive and checks it (the first of a restore's two passes; nothing is written):
 * the header first, of a format and migration level this app knows; every entry's size and SHA-256
 * as the manifest lists them; the manifest last. Throws BackupFormatError saying what is wrong.
 */
export async function verifyArchive(file: string): Promise<{ header: BackupHeader; manifest: Manifest }> {
  let header: BackupHeader | undefined;
  let manifest: Manifest | undefined;
  const seen: Manifest['entries'] = [];
  try {
    for await (const entry of archiveEntries(file)) {
      const name = entry.header.name;
      if (manifest) throw new BackupFormatError(`the archive goes on after its manifest (${name})`);
      if (name === MANIFEST_ENTRY) {
        manifest = parseJson(await readLimited(entry, MANIFEST_MAX_BYTES, 'the manifest'), manifestSchema, 'the manifest');
        continue;
      }
      const hash = createHash('sha256');
      let size = 0;
      let bytes: Buffer | undefined;
      if (!header) {
        if (name !== HEADER_ENTRY) throw new BackupFormatError(`the archive does not begin with ${HEADER_ENTRY}: not a Resource Vault backup`);
        bytes = await readLimited(entry, HEADER_MAX_BYTES, HEADER_ENTRY);
        hash.update(bytes);
        size = bytes.length;
        header = parseJson(bytes, backupHeaderSchema, HEADER_ENTRY);
        checkHeader(header);
      } else {
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
      }
      seen.push({ name, size, sha256: hash.digest('hex') });
    }
  } catch (err) {
    if (err instanceof BackupFormatError) throw err;
    throw new BackupFormatError(`the archive cannot be read (${(err as Error).message}): it is damaged or incomplete`);
  }
  if (!header) throw new BackupFormatError('the archive is empty');
  if (!manifest) throw new BackupFormatError('the archive has no manifest: it is incomplete (a backup that did not finish, or a truncated copy)');
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  if (listed.size !== manifest.entries.length || seen.length !== manifest.entries.length) {
    throw new BackupFormatError(`the archive holds ${seen.length} entries where its manifest lists ${manifest.entries.length}`);
  }
  for (const entry of seen) {
    const want = listed.get(entry.name);
    if (!want) throw new BackupFormatError(`${entry.name} is not in the manifest`);
    if (want.size !== entry.size || want.sha256 !== entry.sha256) throw new BackupFormatError(`${entry.name} is damaged: its checksum is not the manifest's`);
  }
  return { header, manifest };
}

function checkHeader(header: BackupHeader): void {
  if (header.format !== FORMAT || header.formatVersion > FORMAT_VERSION) {
    throw new BackupFormatError(`the archive is of backup format ${header.formatVersion}; this version of Resource Vault reads format ${FORMAT_VERSION}: restore it with a newer one`);
  }
  if (migrationLevel(header.migration) === 0) {
    throw new BackupFormatError(`the backup was made by a newer Resource Vault (${header.appVersion}, migration ${header.migration}): restore it with that version or a later one`);
  }
}

/** Where a restore writes: a database (migrated or not), a file store, and DATA_DIR for SQLite's session secret. */
export interface RestoreTarget {
  database: Database;
  files: FileStore;
  dataDir: string;
}

export interface RestoreSummary {
  from: { dialect: string; appVersion: string; migration: string; createdAt: string };
  rows: Record<string, number>;
  files: number;
  fileBytes: number;
  /** Migrations run after loading the rows (the backup was older than this app). */
  migrated: number;
}

/** The target's applied migrations (none: a new database). */
async function appliedMigrations(db: AnyDb): Promise<string[]> {
  try {
    return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
  } catch {
    return [];
  }
}

/** Tables whose rows make a site: a target holding any is not empty. */
const SITE_TABLES = ['admins', 'resources', 'announcements', 'files'] as const;

async function migrateTo(db: AnyDb, dialect: Database['dialect'], name: string): Promise<void> {
  const index = MIGRATION_NAMES.indexOf(name);
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.slice(0, index + 1).map(([n, m]) => [n, { up: (trx: AnyDb) => m.up(trx, dialect) }]),
  );
  const { error, results } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
}

/** Tables a forced restore empties besides the backed-up ones (what they hold belongs to the data replaced). */
const CLEARED_TOO = ['uploads', 'upload_locks', 'rate_limits', 'sign_in_challenges', 'webauthn_challenges'];

/**
 * Restores the archive `file` into `target` (the second pass, after verifyArchive): the target is
 * migrated to the backup's level, the rows are loaded in one transaction (a forced restore empties
 * the tables first, in it), sequences are moved past the restored ids, the files are put into the
 * store, and the newer migrations run. A failure while loading rows leaves the target as it was;
 * one while putting files leaves the rows restored: run it again with --force.
 */
export async function restoreArchive(
  file: string,
  target: RestoreTarget,
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<RestoreSummary> {
  const log = options.log ?? (() => {});
  const { header, manifest } = await verifyArchive(file);
  log(`Checked ${manifest.entries.length} entries of a backup made ${header.createdAt} on ${header.dialect} (Resource Vault ${header.appVersion}, migration ${header.migration}).`);
  const { database, files } = target;
  const db = database.db as AnyDb;
  const applied = await appliedMigrations(db);
  const backupLevel = migrationLevel(header.migration);
  const targetLast = applied[applied.length - 1];
  if (targetLast && migrationLevel(targetLast) > backupLevel) {
    throw new BackupFormatError(
      `the target database is migrated past the backup (${targetLast}, the backup ${header.migration}): restore into a new, empty database (it is migrated forward after the restore)`,
    );
  }
  if (applied.length > 0 && !options.force) {
    for (const table of SITE_TABLES) {
      const row = await db.selectFrom(table).select(sql`1`.as('one')).limit(1).executeTakeFirst();
      if (row) throw new BackupFormatError(`the target database is not empty (it has ${table}): restore into an empty one, or add --force to replace what it holds`);
    }
  }
  await migrateTo(db, database.dialect, header.migration);

  const entries = archiveEntries(file);
  let next = await entries.next();
  await buffer(next.value as TarEntry); // the header, read in the first pass
  next = await entries.next();
  const rows: Record<string, number> = {};
  let sessionSecret: string | undefined;
  await db.transaction().execute(async (trx) => {
    if (options.force) {
      for (const table of [...BACKED_UP_TABLES].reverse()) await trx.deleteFrom(table.name).execute();
      for (const table of CLEARED_TOO) await trx.deleteFrom(table).execute();
    }
    for (const table of BACKED_UP_TABLES) rows[table.name] = 0;
    const loaded = await prepareBulkLoad(trx, database.dialect);
    while (!next.done && tableOfEntry(next.value.header.name)) {
      const table = tableOfEntry(next.value.header.name)!;
      let parsed = (await buffer(next.value)).toString('utf8').split('\n').filter((line) => line !== '').map((line) => decodeRow(JSON.parse(line) as Row));
      rows[table] = (rows[table] ?? 0) + parsed.length;
      if (table === 'server_secrets' && database.dialect === 'sqlite') {
        // SQLite keeps the session secret in DATA_DIR (modules/auth/secret.ts), not in the database.
        sessionSecret = parsed.find((r) => r.name === 'session')?.value as string | undefined;
        parsed = parsed.filter((r) => r.name !== 'session');
      }
      await insertRows(trx, database.dialect, table, parsed);
      next = await entries.next();
    }
    await loaded();
    for (const [table, count] of Object.entries(manifest.rows)) {
      if ((rows[table] ?? 0) !== count) throw new BackupFormatError(`${table}: ${rows[table] ?? 0} rows read where the manifest counts ${count}`);
    }
    if (database.dialect === 'postgres') {
      for (const { name, serial } of BACKED_UP_TABLES) {
        if (!serial) continue;
        await sql`select setval(pg_get_serial_sequence(${name}, 'id'), coalesce((select max(id) from ${sql.table(name)}), 0) + 1, false)`.execute(trx);
      }
    }
  });
  log(`Restored ${Object.values(rows).reduce((a, b) => a + b, 0)} rows: ${Object.entries(rows).filter(([, n]) => n > 0).map(([t, n]) => `${t} ${n}`).join(', ')}.`);

  let restoredFiles = 0;
  let fileBytes = 0;
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  try {
    for (; !next.done; next = await entries.next()) {
      const entry = next.value;
      const name = entry.header.name;
      if (!name.startsWith(FILE_ENTRY_PREFIX)) {
        await buffer(entry);
        continue;
      }
      const key = name.slice(FILE_ENTRY_PREFIX.length);
      const size = entry.header.size ?? 0;
      const put = await files.put(key, Readable.from(entry), { maxBytes: size });
      if (put.sha256 !== listed.get(name)?.sha256) throw new BackupFormatError(`${name} changed between the check and the restore`);
      restoredFiles++;
      fileBytes += size;
    }
  } catch (err) {
    // The rows are committed by now: say so, and how to finish (a forced restore replaces them whole).
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`the rows are restored, but putting the files failed after ${restoredFiles} of them (${reason}): fix that, then restore again with --force`, { cause: err });
  }
  log(`Restored ${restoredFiles} files (${fileBytes} bytes).`);

  if (sessionSecret) await writeSessionSecret(target.dataDir, sessionSecret);
  const before = (await appliedMigrations(db)).length;
  await migrateToLatest(db, database.dialect);
  const migrated = (await appliedMigrations(db)).length - before;
  if (migrated > 0) log(`Ran ${migrated} newer migrations.`);
  // The filters' rows (format.ts LEFT_OUT_TABLES): each restored resource was marked, computed here.
  await writeStaleFacets(db as Kysely<Tables>);
  return {
    from: { dialect: header.dialect, appVersion: header.appVersion, migration: header.migration, createdAt: header.createdAt },
    rows,
    files: restoredFiles,
    fileBytes,
    migrated,
  };
}

/**
 * Before the rows are loaded (in the load's transaction): the backed-up tables' secondary indexes
 * are dropped, and SQLite's per-row search indexing suspended (search/sqlite.ts); the returned
 * function builds them all again once the rows are in, each from the whole table at once rather
 * than kept through a million inserts in random order (as pg_restore does). Indexes behind a
 * constraint (primary keys, unique constraints) stay: the rows are checked against them as they go in.
 * Restoring 1,000,000 resources into SQLite took 1,408 s with them kept (docs/performance.md, "Backup and restore").
 */
async function prepareBulkLoad(trx: Transaction<Tables>, dialect: Database['dialect']): Promise<() => Promise<void>> {
  const tables = BACKED_UP_TABLES.map((t) => t.name);
  const { rows: indexes } =
    dialect === 'sqlite'
      ? await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
          where type = 'index' and sql is not null and tbl_name in (${sql.join(tables)})`.execute(trx)
      : await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition from pg_indexes i
          where i.schemaname = current_schema() and i.tablename in (${sql.join(tables)})
          and not exists (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`.execute(trx);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(trx);
  const indexSearch = dialect === 'sqlite' ? await suspendSearchIndexing(trx) : async () => {};
  return async () => {
    await indexSearch();
    for (const { definition } of indexes) await sql.raw(definition).execute(trx);
  };
}

function decodeRow(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = decodeValue(v);
  return out;
}

async function insertRows(trx: Transaction<Tables>, dialect: Database['dialect'], table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  for (const row of rows) {
    // Derived on PostgreSQL only (format.ts DERIVED_COLUMNS): the tag keys, as the app stores them.
    if (table === 'resources' && dialect === 'postgres') row.tag_keys = tagKeys(JSON.parse(String(row.tags)) as string[]);
    // A job a process of the old site held runs again here.
    if (table === 'media_jobs' && row.state === 'processing') Object.assign(row, { state: 'queued', claim_token: null, claimed_by: null, lease_expires_at: null });
  }
  const columns = Object.keys(rows[0]!).length;
  const batch = Math.max(1, Math.floor(INSERT_PARAMETERS / columns));
  for (let i = 0; i < rows.length; i += batch) await (trx as AnyDb).insertInto(table).values(rows.slice(i, i + batch)).execute();
}

/** DATA_DIR/session-secret replaced whole (written aside, then renamed). */
async function writeSessionSecret(dataDir: string, secret: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'session-secret');
  const aside = `${file}.${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(aside, secret, { mode: 0o600 });
    await rename(aside, file);
  } finally {
    await rm(aside, { force: true });
  }
}
