import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import tar from 'tar-stream';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { FileNotFoundError, type FileStore } from '../../storage/file-store';
import { mediaKey } from '../../storage/keys';
import { parseStoredImage } from '../files/stored';
import { APP_VERSION } from '../system/status';
import {
  BACKED_UP_TABLES,
  type BackupHeader,
  DERIVED_COLUMNS,
  encodeValue,
  FORMAT,
  FORMAT_VERSION,
  fileEntry,
  HEADER_ENTRY,
  isFtsShadowTable,
  LEFT_OUT_TABLES,
  type Manifest,
  MANIFEST_ENTRY,
  TABLE_PART_BYTES,
  tablePartEntry,
} from './format';

/** What a backup reads: the database, the file store, and the session secret its sessions are hashed with. */
export interface BackupSource {
  database: Database;
  files: FileStore;
  /** The secret in use (SESSION_SECRET, DATA_DIR/session-secret or the database's): archived so sessions and second-factor keys keep working after a restore. */
  sessionSecret: string;
}

export interface BackupSummary {
  migration: string;
  rows: Record<string, number>;
  files: number;
  fileBytes: number;
  /** How many keys the rows name that the store lacked, and the first MISSING_LISTED of them in key order. */
  missingFileCount: number;
  missingFiles: string[];
}

/** Missing files named in the summary and the manifest: enough to act on, without one line per row of a broken store. */
export const MISSING_LISTED = 1000;

type Row = Record<string, unknown>;

/** One consistent read of the database: the tables it has, and each one's rows in key order. */
interface Snapshot {
  tables: string[];
  migration: string;
  rows(table: string, key: readonly string[]): AsyncIterable<Row>;
}

/** PostgreSQL rows read a page at a time, after the last key read (never OFFSET). */
const PG_PAGE = 2000;

/**
 * Runs `work` over one read snapshot. SQLite: a connection of its own (the app's one connection
 * may be inside a write transaction), held in one read transaction, its rows read by cursor —
 * better-sqlite3 steps a statement as asked, so memory stays flat without paging. PostgreSQL: one
 * pooled connection in a REPEATABLE READ READ ONLY transaction, rows read by keyset pages.
 */
async function withSnapshot<T>(database: Database, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  if (database.dialect === 'sqlite') {
    const main = database.sqlite!;
    // An in-memory database (tests) has no file to open twice: a copy of it is a snapshot too.
    const conn = main.memory ? new SQLite(main.serialize()) : new SQLite(main.name, { fileMustExist: true });
    try {
      conn.pragma('busy_timeout = 5000');
      conn.pragma('query_only = true');
      conn.exec('begin');
      const tables = (conn.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as { name: string }[]).map((r) => r.name);
      const migration = lastMigration(conn.prepare('select name from kysely_migration order by name').all() as { name: string }[]);
      const result = await work({
        tables,
        migration,
        async *rows(table, key) {
          yield* conn.prepare(`select * from ${ident(table)} order by ${key.map(ident).join(', ')}`).iterate() as Iterable<Row>;
        },
      });
      conn.exec('commit');
      return result;
    } finally {
      conn.close();
    }
  }
  return database.db.connection().execute(async (conn) => {
    await sql`begin isolation level repeatable read read only`.execute(conn);
    try {
      const tables = (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(conn)).rows.map((r) => r.name);
      const migration = lastMigration((await sql<{ name: string }>`select name from kysely_migration order by name`.execute(conn)).rows);
      const result = await work({ tables, migration, rows: (table, key) => pgRows(conn, table, key) });
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

async function* pgRows(conn: Kysely<Tables>, table: string, key: readonly string[]): AsyncIterable<Row> {
  const keyList = sql.join(key.map((k) => sql.id(k)));
  let last: unknown[] | undefined;
  for (;;) {
    const after = last ? sql`where (${keyList}) > (${sql.join(last.map((v) => sql`${v}`))})` : sql``;
    const { rows } = await sql<Row>`select * from ${sql.table(table)} ${after} order by ${keyList} limit ${PG_PAGE}`.execute(conn);
    yield* rows;
    if (rows.length < PG_PAGE) return;
    const tail = rows[rows.length - 1]!;
    last = key.map((k) => tail[k]);
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

function lastMigration(rows: { name: string }[]): string {
  const last = rows[rows.length - 1]?.name;
  if (!last) throw new Error('the database has no migrations applied: nothing to back up');
  return last;
}

/** Keys of hosted files a row names (files: the bytes and a thumbnail's variants; media owners: their key). */
function fileKeysOf(table: string, row: Row): string[] {
  if (table === 'files') {
    const variants = parseStoredImage((row.image as string | null) ?? null)?.variants ?? [];
    return [row.key as string, ...variants.map((v) => mediaKey(v.fileName))];
  }
  if (table === 'media_owners' || table === 'site_media_owners') return [row.key as string];
  return [];
}

/**
 * The hosted files' keys the rows name, each once, read back in key order: kept in a temporary
 * SQLite database on disk (SQLite's own temporary file, gone when closed), so a backup's memory
 * does not grow with the number of files its rows name (decision 452).
 */
function fileKeySet() {
  const db = new SQLite('');
  db.pragma('journal_mode = off');
  db.pragma('synchronous = off');
  db.exec('create table k (key text primary key) without rowid');
  const insert = db.prepare('insert or ignore into k (key) values (?)');
  const insertAll = db.transaction((keys: string[]) => {
    for (const key of keys) insert.run(key);
  });
  let pending: string[] = [];
  const flush = () => {
    insertAll(pending);
    pending = [];
  };
  return {
    add(key: string) {
      pending.push(key);
      if (pending.length >= 1000) flush();
    },
    *sorted(): Iterable<string> {
      flush();
      for (const row of db.prepare('select key from k order by key').iterate() as Iterable<{ key: string }>) yield row.key;
    },
    close: () => db.close(),
  };
}

/** Writes entries into a tar pack, each one's SHA-256 taken from the bytes written. */
function entryWriter(pack: tar.Pack, mtime: Date) {
  const entries: Manifest['entries'] = [];
  return {
    entries,
    async add(name: string, size: number, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
      const hash = createHash('sha256');
      let written = 0;
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name, size, mtime, mode: 0o600 }, (err) => (err ? reject(err) : resolve()));
        (async () => {
          for await (const chunk of chunks) {
            hash.update(chunk);
            written += chunk.length;
            if (!entry.write(chunk)) await once(entry, 'drain');
          }
          entry.end(() => {});
        })().catch((err: unknown) => {
          entry.destroy(err as Error);
          reject(err as Error);
        });
      });
      if (written !== size) throw new Error(`${name}: ${written} bytes read where ${size} were announced`);
      entries.push({ name, size, sha256: hash.digest('hex') });
    },
  };
}

/**
 * Writes a backup archive (format.ts) to `out`: the tables from one read snapshot, then the hosted
 * files those rows name, streamed from the store, then the manifest. Resolves once `out` has
 * taken every byte; the caller makes the result durable and gives it its name.
 */
export async function writeBackup(source: BackupSource, out: Writable, options: { now?: Date } = {}): Promise<BackupSummary> {
  const createdAt = options.now ?? new Date();
  const pack = tar.pack();
  const piped = pipeline(pack, out);
  // An error of the output stops the writing at once (an entry waiting on 'drain' would wait forever).
  const failed = piped.then(
    () => new Promise<never>(() => {}),
    (err: unknown) => Promise.reject(err as Error),
  );
  const writer = entryWriter(pack, createdAt);
  const keys = fileKeySet();
  const work = async (): Promise<BackupSummary> => {
    const rows: Record<string, number> = {};
    const migration = await withSnapshot(source.database, async (snapshot) => {
      const unknown = snapshot.tables.filter((t) => !BACKED_UP_TABLES.some((b) => b.name === t) && !(t in LEFT_OUT_TABLES) && !isFtsShadowTable(t));
      if (unknown.length > 0) throw new Error(`the database has tables this backup does not know (${unknown.join(', ')}): add them to modules/backups/format.ts`);
      const header: BackupHeader = {
        format: FORMAT,
        formatVersion: FORMAT_VERSION,
        appVersion: APP_VERSION,
        migration: snapshot.migration,
        dialect: source.database.dialect,
        createdAt: createdAt.toISOString(),
        tables: BACKED_UP_TABLES.map((t) => t.name),
      };
      const headerBytes = Buffer.from(JSON.stringify(header, null, 2));
      await writer.add(HEADER_ENTRY, headerBytes.length, [headerBytes]);
      for (const { name, key } of BACKED_UP_TABLES) {
        const derived = DERIVED_COLUMNS[name] ?? [];
        let part = 1;
        let lines: Buffer[] = [];
        let size = 0;
        const flush = async () => {
          if (lines.length === 0) return;
          // One buffer a part: the tar stream's cost is per write, not per byte.
          await writer.add(tablePartEntry(name, part++), size, [Buffer.concat(lines, size)]);
          lines = [];
          size = 0;
        };
        let count = 0;
        let secretWritten = false;
        const addRow = async (row: Row) => {
          for (const k of fileKeysOf(name, row)) keys.add(k);
          const out: Row = {};
          for (const [column, value] of Object.entries(row)) if (!derived.includes(column)) out[column] = encodeValue(value);
          const line = Buffer.from(`${JSON.stringify(out)}\n`);
          lines.push(line);
          size += line.length;
          count++;
          if (size >= TABLE_PART_BYTES) await flush();
        };
        for await (const row of snapshot.rows(name, key)) {
          // The secret in use, whichever home it has on the source (decision 440).
          if (name === 'server_secrets' && row.name === 'session') {
            await addRow({ ...row, value: source.sessionSecret });
            secretWritten = true;
          } else await addRow(row);
        }
        if (name === 'server_secrets' && !secretWritten) await addRow({ name: 'session', value: source.sessionSecret, created_at: createdAt.toISOString() });
        await flush();
        rows[name] = count;
      }
      return snapshot.migration;
    });

    // The files after the snapshot: their bytes never change under a key (uploads/<id>, media/<hash>),
    // and a file the rows name is kept for a day after they stop naming it (files/sweep.ts).
    let files = 0;
    let fileBytes = 0;
    let missingFileCount = 0;
    const missingFiles: string[] = [];
    for (const key of keys.sorted()) {
      let got;
      try {
        got = await source.files.get(key);
      } catch (err) {
        if (err instanceof FileNotFoundError) {
          if (missingFileCount++ < MISSING_LISTED) missingFiles.push(key);
          continue;
        }
        throw err;
      }
      await writer.add(fileEntry(key), got.size, got.body);
      files++;
      fileBytes += got.size;
    }
    const manifest: Manifest = { format: FORMAT, entries: writer.entries, rows, files, fileBytes, missingFileCount, missingFiles };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await writer.add(MANIFEST_ENTRY, manifestBytes.length, [manifestBytes]);
    pack.finalize();
    await piped;
    return { migration, rows, files, fileBytes, missingFileCount, missingFiles };
  };
  try {
    return await Promise.race([work(), failed]);
  } catch (err) {
    pack.destroy(err as Error);
    await piped.catch(() => {});
    throw err;
  } finally {
    keys.close();
  }
}

/** The name an archive has while it is written: a file with it is never a backup. */
export const partialName = (file: string) => `${file}.partial`;

/**
 * Writes a backup to `file`: under `file.partial` (a leftover one from a killed run is replaced),
 * flushed to disk, then renamed. A process killed before the rename leaves only the `.partial`.
 */
export async function backupToFile(source: BackupSource, file: string, options: { now?: Date } = {}): Promise<BackupSummary & { bytes: number }> {
  const partial = partialName(file);
  await rm(partial, { force: true });
  let summary: BackupSummary;
  try {
    summary = await writeBackup(source, createWriteStream(partial, { mode: 0o600 }), options);
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  const { size: bytes } = await stat(partial);
  await rename(partial, file);
  // The rename itself made durable: the folder's entry.
  const dir = await open(path.dirname(path.resolve(file)), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return { ...summary, bytes };
}
