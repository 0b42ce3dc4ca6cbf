import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './connection';
import { MIGRATIONS } from './migrations';

/** Runs every migration not yet applied (in code: no files to find at run time), at start. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrations: Record<string, Migration> = Object.fromEntries(MIGRATIONS.map(([name, m]) => [name, { up: (trx) => m.up(trx, dialect) }]));
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Kysely looks for its bookkeeping tables in every schema; name ours so that a database holding
  // several schemas (tests, side-by-side installs) never mistakes another schema's tables for ours.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
  // Keep the planner's statistics fresh on SQLite after a migration.
  if (dialect === 'sqlite') await sql`pragma optimize`.execute(db);
}
