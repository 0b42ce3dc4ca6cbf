import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './connection';

/**
 * Migrations live in code (no files to find at run time) and run at start.
 * Append new ones; never edit one that has shipped.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  const idColumn = (db: AnyDb, table: string) =>
    dialect === 'postgres'
      ? db.schema.createTable(table).addColumn('id', 'serial', (c) => c.primaryKey())
      : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  return {
    '001_initial': {
      async up(db: AnyDb) {
        await idColumn(db, 'admins')
          .addColumn('username', 'text', (c) => c.notNull())
          .addColumn('username_key', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('is_super_user', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();

        await idColumn(db, 'resources')
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('thumbnail_url', 'text', (c) => c.notNull())
          .addColumn('download_url', 'text', (c) => c.notNull())
          .addColumn('is_premium', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('popularity', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
          .execute();
        // One index per sort, with the id tie-breaker, for keyset pagination inside a category and across all.
        await db.schema
          .createIndex('resources_cat_popular')
          .on('resources')
          .columns(['category', 'popularity desc', 'download_count desc', 'id desc'])
          .execute();
        await db.schema
          .createIndex('resources_cat_newest')
          .on('resources')
          .columns(['category', 'created_at desc', 'id desc'])
          .execute();
        await db.schema
          .createIndex('resources_cat_downloads')
          .on('resources')
          .columns(['category', 'download_count desc', 'id desc'])
          .execute();
        await db.schema.createIndex('resources_newest').on('resources').columns(['created_at desc', 'id desc']).execute();

        await db.schema
          .createTable('resource_tags')
          .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
          .addColumn('tag', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('resource_tags_pk', ['resource_id', 'tag'])
          .execute();
        await db.schema.createIndex('resource_tags_tag').on('resource_tags').columns(['tag', 'resource_id']).execute();

        await idColumn(db, 'announcements')
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('announcements_active')
          .on('announcements')
          .columns(['is_active', 'created_at desc', 'id desc'])
          .execute();

        await db.schema
          .createTable('sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_seen_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_admin').on('sessions').column('admin_id').execute();

        await db.schema
          .createTable('rate_limits')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addColumn('reset_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('download_days')
          .addColumn('day', 'text', (c) => c.primaryKey())
          .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();

        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
    // One counter that every write to publicly served data bumps, in the writing statement's own
    // transaction (triggers), so an in-memory response cache can tell with one cheap read whether
    // it is still current, whichever process or instance wrote.
    '002_data_version': {
      async up(db: AnyDb) {
        await sql`create table data_version (id integer primary key check (id = 1), version bigint not null)`.execute(db);
        await sql`insert into data_version (id, version) values (1, 0)`.execute(db);
        const tables = ['resources', 'resource_tags', 'announcements', 'settings'];
        if (dialect === 'postgres') {
          await sql`create function bump_data_version() returns trigger language plpgsql as $$
            begin update data_version set version = version + 1 where id = 1; return null; end $$`.execute(db);
          for (const t of tables) {
            // Per statement: a bulk insert bumps once, not once per row.
            await sql`create trigger ${sql.raw(`${t}_bumps_data_version`)} after insert or update or delete or truncate on ${sql.table(t)}
              for each statement execute function bump_data_version()`.execute(db);
          }
        } else {
          for (const t of tables) {
            for (const op of ['insert', 'update', 'delete']) {
              await sql`create trigger ${sql.raw(`${t}_${op}_bumps_data_version`)} after ${sql.raw(op)} on ${sql.table(t)}
                begin update data_version set version = version + 1 where id = 1; end`.execute(db);
            }
          }
        }
      },
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
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
