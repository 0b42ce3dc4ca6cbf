import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await idColumn(db, dialect, 'admins')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_super_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db, dialect, 'resources')
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

  await idColumn(db, dialect, 'announcements')
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
}
