import { mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type DatabaseConnection, type Driver, Kysely, type KyselyPlugin, sql, SqliteDialect, SqliteDriver } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import { CurrentSchemaPostgresDialect } from './current-schema-dialect';
import { followDataVersion } from './data-version';
import { namePreparedStatements } from './prepared';
import { unavailableReason } from './unavailable';
import type { Tables } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  /**
   * Why the database cannot take writes now (full disk, read-only), or undefined: for /readyz.
   * SQLite tries a one-page write; PostgreSQL asks whether its sessions are read-only. Both
   * remember a write refused for lack of room (`noteUnavailable`) until a write made through
   * Kysely succeeds or `UNAVAILABLE_MEMORY_MS` passes.
   */
  writeProblem(): Promise<string | undefined>;
  /** Called with what `unavailableReason` found when a request failed on it. */
  noteUnavailable(reason: string): void;
  /**
   * SQLite only: the raw connection, for a hot path that runs a synchronous transaction of
   * prepared statements. Use it only when `!sqlite.inTransaction` (Kysely may hold one open).
   */
  sqlite?: SQLite.Database;
  /**
   * The counter every write to public data bumps (migration 002), for cache checks: on SQLite one
   * indexed read (µs); on PostgreSQL kept in memory from the database's notifications (migration
   * 006) once this instance listens, else read. `fresh` always reads (and updates the memory):
   * for answers that must see a write made a moment ago, by this instance or another.
   */
  dataVersion(options?: { fresh?: boolean }): Promise<number>;
  /** PostgreSQL: the connection pool's state now, for metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** PostgreSQL: whether the version is currently kept from notifications (for tests and /readyz-style checks). */
  readonly dataVersionListening?: boolean;
  close(): Promise<void>;
}


/** How long a refused write keeps the database reported not ready, unless a write succeeds first. */
const UNAVAILABLE_MEMORY_MS = 30_000;

/** The last refused write, forgotten once a write succeeds or it is old. */
export function refusedWrites() {
  let last: { reason: string; at: number } | undefined;
  return {
    note(reason: string) {
      last = { reason, at: Date.now() };
    },
    clear() {
      last = undefined;
    },
    recent(): string | undefined {
      return last && Date.now() - last.at < UNAVAILABLE_MEMORY_MS ? last.reason : undefined;
    },
  };
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'sqlite') return openSqlite(config.file);
  if (config.kind === 'postgres') return openPostgres(config.url);
  throw new Error('An in-process PostgreSQL (PGlite) is for tests: open it with src/server/testing/pglite.ts');
}

/** Up to this much of the SQLite file is read through a memory map (pages the OS keeps cached anyway). */
const SQLITE_MMAP_BYTES = 2 ** 31;

/**
 * Filesystems (statfs magic numbers) on which the database file is read through a memory map:
 * local disk filesystems, where reading a part of the file that has no blocks yet (SQLite grows
 * the file with ftruncate before a checkpoint writes into it) returns zeros. On tmpfs such a read
 * needs memory the full filesystem cannot give and the process gets SIGBUS; network and FUSE
 * filesystems turn I/O errors into SIGBUS too. Elsewhere SQLite reads with read(): an error
 * is then an error code, not a signal.
 */
const MMAP_SAFE_FILESYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0xf2f52010, // f2fs
  0x794c7630, // overlayfs (containers; its upper layer is one of the above)
]);

function mmapSafe(dir: string): boolean {
  try {
    return MMAP_SAFE_FILESYSTEMS.has(statfsSync(dir).type);
  } catch {
    return false;
  }
}

/**
 * Kysely's SQLite driver rolls back a failed transaction with ROLLBACK; but SQLite has already
 * rolled it back itself after some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM), and that
 * ROLLBACK then fails with "cannot rollback - no transaction is active", which Kysely throws
 * instead of the error that mattered ("database or disk is full").
 */
class SqliteDriverKeepingErrors extends SqliteDriver {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: withStatementCache(sqlite) });
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new SqliteDriverKeepingErrors(this.sqlite);
  }
}

/**
 * A SQLite database in `file`, or in memory (`:memory:`) starting as a copy of `image` (a
 * serialized database) when one is given.
 */
export function openSqlite(file: string, image?: Buffer): Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  let sqlite: SQLite.Database;
  try {
    sqlite = image ? new SQLite(image) : new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    // SQLite's own words ("unable to open database file", "attempt to write a readonly database")
    // name no file: say which, and what the server needs of it.
    throw new Error(`${(error as Error).message}: ${file} (the database file and its folder must be writable)`, { cause: error });
  }
  // NORMAL in WAL mode survives a process crash (kill -9); only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Reads through a memory map instead of a read() per page: SQLite's own page cache is 2 MB, so at a
  // million resources nearly every index probe of a search walk was a system call
  // (docs/performance.md, "Database settings").
  if (file === ':memory:' || mmapSafe(path.dirname(file))) sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  const refused = refusedWrites();
  const db = new Kysely<Tables>({ dialect: new SqliteDialectKeepingErrors(sqlite), plugins: [ownWrites(refused.clear)] });
  // Prepared once on first use (the table exists only after migrations), read synchronously: a few µs.
  let versionStatement: SQLite.Statement<[], { version: number }> | undefined;
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    async ping() {
      sqlite.prepare('select 1').get();
    },
    async writeProblem() {
      // Kysely may hold a transaction open on the one connection: a probe would join it.
      if (!sqlite.inTransaction) {
        // Rewriting the header's unused user_version commits one page (a WAL frame): the smallest
        // real write. A write needing more room may still fail, hence the memory of refused ones.
        const busyTimeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
        try {
          sqlite.pragma('busy_timeout = 200');
          sqlite.pragma(`user_version = ${sqlite.pragma('user_version', { simple: true }) as number}`);
        } catch (err) {
          // (SQLITE_BUSY, another process holding the write lock, says nothing about room.)
          const reason = unavailableReason(err);
          if (reason) return reason;
        } finally {
          sqlite.pragma(`busy_timeout = ${busyTimeout}`);
        }
      }
      return refused.recent();
    },
    noteUnavailable: refused.note,
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

/**
 * Connections the pool keeps open however long the site is quiet (the others close after its 10 s idle
 * timeout): a page's reads run four at once. Without them a sparse site's next visitor paid new sessions
 * (connect, `set jit`, statements planned against a new backend's cold caches): a resource page after
 * 12 s without a request took 51–73 ms on PostgreSQL with the demo catalogue, 17–36 ms with these
 * kept (in process, 2026-11-28, a machine ~2× slower than the figures in docs/performance.md).
 */
export const POOL_WARM_CONNECTIONS = 4;

function openPostgres(url: string): Database {
  // JIT off for our sessions: it compiles any plan estimated above jit_above_cost, and a search that
  // walks a sort index is estimated at the whole walk (300,000+) while it stops after a few thousand
  // rows: compiling costs many times the query (docs/performance.md, "Database settings"). None of ours
  // repays it. Set on each new connection before the pool hands it out: the pool's `options` would be
  // lost to a DATABASE_URL that carries its own (?options=…), as the URL's parameters win, and a
  // statement sent from the pool's 'connect' event queues beside the caller's first (decision 454).
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    min: POOL_WARM_CONNECTIONS,
    onConnect: async (client) => {
      await client.query('set jit = off');
      namePreparedStatements(client);
    },
  });
  // An idle client's error (server restart) must not crash the process.
  pool.on('error', () => {});
  const version = followDataVersion(url, async () => {
    const r = await pool.query<{ version: number }>({ name: 'data_version', text: 'select version from data_version where id = 1' });
    return r.rows[0]?.version ?? 0;
  });
  const refused = refusedWrites();
  const wrote = () => {
    refused.clear();
    version.wrote();
  };
  const db = new Kysely<Tables>({ dialect: new CurrentSchemaPostgresDialect({ pool }), plugins: [ownWrites(wrote)] });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    writeProblem: async () => (await postgresReadOnly(db)) ?? refused.recent(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    noteUnavailable: refused.note,
    dataVersion: (options) => version.get(options?.fresh ?? false),
    get dataVersionListening() {
      return version.listening();
    },
    async close() {
      await version.stop();
      await db.destroy();
    },
  };
}

/** Why this server's sessions cannot write (a standby, default_transaction_read_only), or undefined. */
export async function postgresReadOnly(db: Kysely<Tables>): Promise<string | undefined> {
  const r = await sql<{ read_only: string; standby: boolean }>`select current_setting('transaction_read_only') as read_only, pg_is_in_recovery() as standby`.execute(db);
  const row = r.rows[0];
  if (row?.standby) return 'the database server is a read-only standby';
  if (row?.read_only === 'on') return 'the database is read-only (transaction_read_only is on)';
  return undefined;
}

/**
 * Calls `wrote` each time an insert, update or delete made through this Kysely instance has
 * completed and changed a row: on PostgreSQL this instance then reads the data version afresh after its own writes
 * instead of waiting for their notification; on both, a write that worked forgets a refused one
 * (`writeProblem`). (Raw `sql` statements are not seen: ours that write do not touch public
 * data, or run before serving.)
 */
export function ownWrites(wrote: () => void): KyselyPlugin {
  const writes = new WeakSet<object>();
  const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
  return {
    transformQuery({ node, queryId }) {
      if (WRITES.has(node.kind)) writes.add(queryId);
      return node;
    },
    async transformResult({ queryId, result }) {
      // Only a write that changed rows: the job queue's idle claim (an update of no row, every
      // second) would otherwise send every next read to the database.
      if (writes.delete(queryId) && (result.numAffectedRows ?? BigInt(result.rows.length)) > 0n) wrote();
      return result;
    },
  };
}
