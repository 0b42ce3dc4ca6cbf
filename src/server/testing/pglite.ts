import { Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config';
import { type Database, openDatabase, ownWrites, postgresReadOnly, refusedWrites } from '../db/connection';
import { CurrentSchemaPostgresDialect } from '../db/current-schema-dialect';
import type { Tables } from '../db/schema';

/** openDatabase, and PGlite for `{ kind: 'pglite' }`. */
export async function openTestDatabase(config: Config['database']): Promise<Database> {
  return config.kind === 'pglite' ? openPglite() : openDatabase(config);
}

/**
 * In-process PostgreSQL for tests when no TEST_DATABASE_URL is given, built like the server's own
 * connections (db/connection.ts). PGlite has a single
 * connection, so the "pool" hands it out to one holder at a time (transactions stay intact).
 */
export async function openPglite(dataDir?: Blob): Promise<Database & { dumpDataDir(): Promise<Blob> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  // pg_trgm backs text search (migration 003), as on a real server.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  // Tests start from a copy of a migrated database's files (`dataDir`, see src/server/testing/test-templates.ts).
  const lite = new PGlite({ extensions: { pg_trgm }, ...(dataDir ? { loadDataDir: dataDir } : {}) });
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
  const refused = refusedWrites();
  const db = new Kysely<Tables>({ dialect: new CurrentSchemaPostgresDialect({ pool: pool as unknown as pg.Pool }), plugins: [ownWrites(refused.clear)] });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await lite.query('select 1');
    },
    writeProblem: async () => (await postgresReadOnly(db)) ?? refused.recent(),
    noteUnavailable: refused.note,
    async dataVersion() {
      // Through Kysely, so it waits for the connection like every other query (never inside another's transaction).
      const r = await sql<{ version: number }>`select version from data_version where id = 1`.execute(db);
      return Number(r.rows[0]?.version ?? 0);
    },
    /** Its files as a tarball, for `openPglite(dataDir)` (test templates). */
    dumpDataDir: () => lite.dumpDataDir('none'),
    async close() {
      await db.destroy();
    },
  };
}
