import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  /**
   * SQLite only: the raw connection, for a hot path that runs a synchronous transaction of
   * prepared statements. Use it only when `!sqlite.inTransaction` (Kysely may hold one open).
   */
  sqlite?: SQLite.Database;
  /** The counter every write to public data bumps (migration 002): one indexed read, for cache checks. */
  dataVersion(): Promise<number>;
  close(): Promise<void>;
}

export async function openDatabase(config: DatabaseConfig): Promise<Db> {
  if (config.kind === 'sqlite') return openSqlite(config.file);
  if (config.kind === 'postgres') return openPostgres(config.url);
  return openPglite();
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (kill -9); only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // Prepared once on first use (the table exists only after migrations), read synchronously: a few µs.
  let versionStatement: SQLite.Statement<[], { version: number }> | undefined;
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    async ping() {
      sqlite.prepare('select 1').get();
    },
    async dataVersion() {
      versionStatement ??= sqlite.prepare<[], { version: number }>('select version from data_version where id = 1');
      return versionStatement.get()?.version ?? 0;
    },
    async close() {
      await db.destroy();
    },
  };
}

/** Distinct SQL texts kept prepared; our queries have a few dozen shapes (values are parameters). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing is a good part of a small query's cost. This
 * hands Kysely a view of the connection whose prepare() reuses statements by SQL text. Safe
 * because better-sqlite3 runs a statement to completion synchronously, and we never stream
 * (a streaming iterate() would keep its statement busy).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (text: string) => {
          let statement = cache.get(text);
          if (!statement) {
            statement = target.prepare(text);
            if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
            cache.set(text, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// Counts and sums come back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's error (server restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async dataVersion() {
      const r = await pool.query<{ version: number }>({ name: 'data_version', text: 'select version from data_version where id = 1' });
      return r.rows[0]?.version ?? 0;
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * In-process PostgreSQL for tests when no TEST_DATABASE_URL is given. PGlite has a single
 * connection, so the "pool" hands it out to one holder at a time (transactions stay intact).
 */
async function openPglite(): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lite = new PGlite();
  await lite.waitReady;
  let queue: Promise<void> = Promise.resolve();
  const client = {
    async query(sqlText: string, params?: unknown[]) {
      const r = await lite.query<Record<string, unknown>>(sqlText, params as unknown[]);
      const command = sqlText.trim().split(/\s+/)[0]?.toUpperCase();
      const rows = r.rows.map((row) => {
        for (const k of Object.keys(row)) if (typeof row[k] === 'bigint') row[k] = Number(row[k]);
        return row;
      });
      return { rows, rowCount: r.affectedRows ?? rows.length, command };
    },
    release() {},
  };
  const pool = {
    connect() {
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const ready = queue;
      queue = queue.then(() => mine);
      return ready.then(() => ({ ...client, release }));
    },
    async end() {
      await lite.close();
    },
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }) });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await lite.query('select 1');
    },
    async dataVersion() {
      // Through Kysely, so it waits for the connection like every other query (never inside another's transaction).
      const r = await sql<{ version: number }>`select version from data_version where id = 1`.execute(db);
      return Number(r.rows[0]?.version ?? 0);
    },
    async close() {
      await db.destroy();
    },
  };
}
