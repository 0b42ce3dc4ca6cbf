import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './connection';
import { MIGRATIONS } from './migrations';

/** Runs every migration not yet applied (in code: no files to find at run time), at start. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrations: Record<string, Migration> = Object.fromEntries(MIGRATIONS.map(([name, m]) => [name, { up: (trx) => m.up(trx, dialect) }]));
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // On PostgreSQL, Kysely finds its bookkeeping tables through an introspector that sees the current
  // schema only (current-schema-dialect.ts): another schema's on the same database is never taken for ours.
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
  // Keep the planner's statistics fresh on SQLite after a migration.
  if (dialect === 'sqlite') await sql`pragma optimize`.execute(db);
}
