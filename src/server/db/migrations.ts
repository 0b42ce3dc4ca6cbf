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
    // Text search without a full scan: `q` is a case-insensitive substring of the title, the
    // description or a tag. SQLite: an FTS5 trigram index (contentless, kept by triggers; tags
    // come from resources.tags, so one trigger set covers them). PostgreSQL: a stored generated
    // column of the same text, lower-cased (fields joined by a newline, which no field or query
    // can contain) under a pg_trgm GIN index, which LIKE '%q%' uses. The index covers the text with
    // its spaces read as 'q' (SEARCH_JOIN): pg_trgm splits text into words, so '%film grain%' was
    // looked up as "film" and "grain" anywhere in a row (14,662 candidates at 1M, none a match, 70 ms
    // of rechecks); joined, the trigrams across the space ("lmq", "mqg", "qgr") are indexed too. Plus the global sort indexes
    // an unscoped search walks in sort order when its matches are many.
    '003_search': {
      async up(db: AnyDb) {
        if (dialect === 'postgres') {
          const trgm = await pgTrgmSchema(db);
          // Lower-cased once here, so a search is a plain LIKE (no per-row lower()); tags as \x01tag\x01, as on SQLite.
          await sql`create function rv_search_text(title text, description text, tags text) returns text
            language sql immutable parallel safe
            as $$ select lower(title || E'\n' || description || E'\n'
              || coalesce((select string_agg(E'\x01' || t || E'\x01', '') from jsonb_array_elements_text(tags::jsonb) t), '')) $$`.execute(db);
          await sql`alter table resources add column search_text text
            generated always as (rv_search_text(title, description, tags)) stored`.execute(db);
          await sql`create index resources_search_trgm on resources using gin ((${JOINED_SEARCH_TEXT}) ${sql.raw(`${quoteIdent(trgm)}.gin_trgm_ops`)})`.execute(db);
        } else {
          // rowid = category code × 2^32 + id: a search within a category reads only that rowid
          // range of the index. Tags are indexed as \x01tag\x01 (no text can hold \x01), so a
          // phrase query finds a whole tag exactly, and `q` (never \x01) any part of one.
          await sql`create table search_categories (code integer primary key, category text not null unique)`.execute(db);
          await sql`create virtual table resources_fts using fts5(title, description, tags,
            content='', contentless_delete=1, tokenize='trigram case_sensitive 0')`.execute(db);
          const tagsText = (ref: string) =>
            sql.raw(
              `coalesce((select group_concat(char(1) || value || char(1), '') from json_each(case when json_valid(${ref}) then ${ref} else '[]' end)), '')`,
            );
          const ftsRowid = (row: string) =>
            sql.raw(`(select code from search_categories where category = ${row}.category) * ${SEARCH_ROWID_SPAN} + ${row}.id`);
          const insertRow = (row: string) => sql`
            insert or ignore into search_categories (category) values (${sql.raw(row)}.category);
            insert into resources_fts (rowid, title, description, tags)
              values (${ftsRowid(row)}, ${sql.raw(row)}.title, ${sql.raw(row)}.description, ${tagsText(`${row}.tags`)});`;
          await sql`create trigger resources_fts_insert after insert on resources begin ${insertRow('new')} end`.execute(db);
          await sql`create trigger resources_fts_update after update of title, description, tags, category on resources begin
            delete from resources_fts where rowid = ${ftsRowid('old')};
            ${insertRow('new')}
            end`.execute(db);
          await sql`create trigger resources_fts_delete after delete on resources begin
            delete from resources_fts where rowid = ${ftsRowid('old')};
            end`.execute(db);
          await sql`insert or ignore into search_categories (category) select distinct category from resources`.execute(db);
          await sql`insert into resources_fts (rowid, title, description, tags)
            select ${ftsRowid('resources')}, title, description, ${tagsText('tags')} from resources`.execute(db);
        }
        await db.schema
          .createIndex('resources_popular')
          .on('resources')
          .columns(['popularity desc', 'download_count desc', 'id desc'])
          .execute();
        await db.schema.createIndex('resources_downloads').on('resources').columns(['download_count desc', 'id desc']).execute();
      },
    },
    // A download only raises download_count: it no longer bumps the data version, so visitors'
    // downloads stop emptying the response cache many times a second. Admin writes (every one
    // sets updated_at) still bump it at once; the cache gives counts a short max age instead
    // (PUBLIC_CACHE_MAX_AGE_MS in src/server/public-cache.ts).
    '004_downloads_keep_data_version': {
      async up(db: AnyDb) {
        const columns = sql.raw(
          'title, description, category, thumbnail_url, download_url, is_premium, popularity, tags, created_at, updated_at, admin_id',
        );
        if (dialect === 'postgres') {
          await sql`drop trigger resources_bumps_data_version on resources`.execute(db);
          await sql`create trigger resources_bumps_data_version after insert or delete or truncate on resources
            for each statement execute function bump_data_version()`.execute(db);
          await sql`create trigger resources_update_bumps_data_version after update of ${columns} on resources
            for each statement execute function bump_data_version()`.execute(db);
        } else {
          await sql`drop trigger resources_update_bumps_data_version`.execute(db);
          await sql`create trigger resources_update_bumps_data_version after update of ${columns} on resources
            begin update data_version set version = version + 1 where id = 1; end`.execute(db);
        }
      },
    },
    // PostgreSQL: the tag filter through a GIN index over each resource's lower-cased tags (an
    // array), which the planner intersects with the text index; a LIKE for \x01tag\x01 on
    // search_text read the posting lists of the tag's common trigrams. SQLite: nothing (its FTS5
    // index holds tags already).
    '005_tag_keys': {
      async up(db: AnyDb) {
        if (dialect !== 'postgres') return;
        await sql`create function rv_tag_keys(tags text) returns text[]
          language sql immutable parallel safe
          as $$ select coalesce(array_agg(distinct lower(t)), '{}') from jsonb_array_elements_text(tags::jsonb) t $$`.execute(db);
        await sql`alter table resources add column tag_keys text[] generated always as (rv_tag_keys(tags)) stored`.execute(db);
        await sql`create index resources_tag_keys on resources using gin (tag_keys)`.execute(db);
      },
    },
    // PostgreSQL: each bump is also announced, on commit, to every instance listening on
    // DATA_VERSION_CHANNEL (payload: the table's schema, a space, the new version), so instances keep
    // the version in memory instead of reading it for every cached answer (connection.ts).
    '006_data_version_notify': {
      async up(db: AnyDb) {
        if (dialect !== 'postgres') return;
        await sql`create or replace function bump_data_version() returns trigger language plpgsql as $$
          declare v bigint;
          begin
            update data_version set version = version + 1 where id = 1 returning version into v;
            perform pg_notify(${sql.lit(DATA_VERSION_CHANNEL)}, tg_table_schema || ' ' || v);
            return null;
          end $$`.execute(db);
      },
    },
    // PostgreSQL: one trigram index per category (over the same joined text as 003's), of that
    // category's rows only. A search inside a category intersected the whole table's trigram matches
    // with the category's index entries (204,177 of them at 1M: ~25 ms) or walked the category hoping
    // for matches; the category's own index answers from its rows alone (0.1–12 ms to count at 1M).
    // The categories as they were when this shipped; one added later needs a migration of its own.
    '007_category_search_indexes': {
      async up(db: AnyDb) {
        if (dialect !== 'postgres') return;
        const trgm = sql.raw(`${quoteIdent(await pgTrgmSchema(db))}.gin_trgm_ops`);
        for (const category of SEARCH_INDEX_CATEGORIES) {
          await sql`create index ${sql.raw(quoteIdent(`resources_search_trgm_${category}`))} on resources
            using gin ((${JOINED_SEARCH_TEXT}) ${trgm}) where category = ${sql.lit(category)}`.execute(db);
        }
        // Statistics for the indexed expression, or the planner guesses its selectivity (a text with tags: 25 → 135 ms at 1M).
        await sql`analyze resources`.execute(db);
      },
    },
    '008_search_with_tags': {
      async up(db: AnyDb) {
        if (dialect !== 'postgres') return;
        // One GIN index over the tags and the joined text (all rows, and per category) instead of one
        // for each: a text with tags is intersected inside one index scan, so only rows holding both
        // reach the bitmap (`transitions` + `Nature` at 1M: 171,200 and 76,946 rows built into two
        // bitmaps and ANDed, 74 ms → 3,738 rows, 20 ms). Either column alone uses it as before.
        const trgm = sql.raw(`${quoteIdent(await pgTrgmSchema(db))}.gin_trgm_ops`);
        await sql`create index resources_search on resources using gin (tag_keys, (${JOINED_SEARCH_TEXT}) ${trgm})`.execute(db);
        await sql`drop index resources_search_trgm`.execute(db);
        await sql`drop index resources_tag_keys`.execute(db);
        for (const category of SEARCH_INDEX_CATEGORIES) {
          await sql`create index ${sql.raw(quoteIdent(`resources_search_${category}`))} on resources
            using gin (tag_keys, (${JOINED_SEARCH_TEXT}) ${trgm}) where category = ${sql.lit(category)}`.execute(db);
          await sql`drop index ${sql.raw(quoteIdent(`resources_search_trgm_${category}`))}`.execute(db);
        }
        await sql`analyze resources`.execute(db);
      },
    },
  };
}

/** The categories as migrations 007 and 008 index them (keep as shipped: a new category needs a migration of its own). */
const SEARCH_INDEX_CATEGORIES = ['video_editing', 'photo_editing', 'sound_effects', 'color_grading', 'typography', 'motion_graphics', 'anime_edits', 'premium_resources'];

/** The indexed expression as migrations 003, 007 and 008 wrote it (unqualified; keep as shipped). */
const JOINED_SEARCH_TEXT = sql.raw(`replace(search_text, ' ', 'q')`);

/**
 * PostgreSQL: the expression the search indexes cover (migrations 003, 007, 008): the lower-cased search text
 * with each space read as 'q', so the trigrams that span words are indexed. A row whose search text
 * contains q also contains q's joined form here (and each of its trigrams), so the index never misses
 * a match; a 'q' may stand for a space there, so the plain text is always checked too (see queries.ts).
 */
export const SEARCH_JOIN = "replace(resources.search_text, ' ', 'q')";

/** PostgreSQL NOTIFY channel for data version bumps (migration 006). */
export const DATA_VERSION_CHANNEL = 'rv_data_version';

/** SQLite search index rowids: category code × this + resource id (ids stay below 2^31). */
export const SEARCH_ROWID_SPAN = 4294967296;

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The schema holding pg_trgm, installing it if needed: into `public` when there is one, so that
 * dropping an application schema (tests use one per app) never drops the extension under the
 * others. pg_trgm ships with PostgreSQL and is a trusted extension (PostgreSQL 13+).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function pgTrgmSchema(db: Kysely<any>): Promise<string> {
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
