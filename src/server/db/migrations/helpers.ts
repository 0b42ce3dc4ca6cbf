import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection';

// What the migrations share, as they shipped: a change here changes every migration that uses it
// (checksums.test.ts holds this file to its checksum too). A later migration that needs something
// different gets its own.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

/** A table with an auto-increment integer primary key `id`. */
export function idColumn(db: AnyDb, dialect: Dialect, table: string) {
  return dialect === 'postgres'
    ? db.schema.createTable(table).addColumn('id', 'serial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The categories as migrations 007 and 008 index them (a new category needs a migration of its own). */
export const SEARCH_INDEX_CATEGORIES = ['video_editing', 'photo_editing', 'sound_effects', 'color_grading', 'typography', 'motion_graphics', 'anime_edits', 'premium_resources'];

/** The indexed expression as migrations 003, 007 and 008 wrote it (unqualified). */
export const JOINED_SEARCH_TEXT = sql.raw(`replace(search_text, ' ', 'q')`);

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The schema holding pg_trgm, installing it if needed: into `public` when there is one, so that
 * dropping an application schema (tests use one per app) never drops the extension under the
 * others. pg_trgm ships with PostgreSQL and is a trusted extension (PostgreSQL 13+).
 */
export async function pgTrgmSchema(db: AnyDb): Promise<string> {
  const find = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found;
  const hasPublic = (await sql`select 1 from pg_namespace where nspname = 'public'`.execute(db)).rows.length > 0;
  // Migrations run in a transaction: a savepoint keeps it usable if the create fails.
  await sql`savepoint install_pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm ${hasPublic ? sql`with schema public` : sql``}`.execute(db);
  } catch (error) {
    await sql`rollback to savepoint install_pg_trgm`.execute(db);
    // Another process installing it at the same moment is fine; anything else is reported.
    if (!(await find())) throw new Error(`PostgreSQL extension pg_trgm is needed for search: ${(error as Error).message}`, { cause: error });
  }
  const schema = await find();
  if (!schema) throw new Error('PostgreSQL extension pg_trgm is needed for search');
  return schema;
}
