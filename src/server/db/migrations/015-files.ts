import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// Hosted files (issue #14, docs/decisions/200-hosted-files.md).
// - uploads: one row per tus upload from its creation until it is attached or swept; sha256 is
//   set once every byte has arrived (verified). Tus requests for an id without a row get 404.
// - files: a verified, attached file (its bytes under `key` in the file store). A resource points
//   at a row only in the transaction that attaches it; a row a resource stops pointing at gets
//   detached_at and is removed, with its bytes, by the sweep after a grace period.
// - upload_locks: the tus locker shared by every instance (a lease renewed while held).
// Sizes are bigint: files go past 2 GiB.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('download', 'thumbnail')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type_hint', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text')
    .addColumn('admin_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await sql`create index uploads_created on uploads (created_at)`.execute(db);

  await idColumn(db, dialect, 'files')
    // A download's object; a thumbnail's largest variant (variants are shared by identical images).
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('download', 'thumbnail')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    // Thumbnails: the variants and placeholder as JSON (their bytes are under media/).
    .addColumn('image', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('detached_at', 'text')
    .execute();
  await sql`create index files_key on files (key)`.execute(db);
  await sql`create index files_detached on files (detached_at)`.execute(db);

  await db.schema.alterTable('resources').addColumn('download_file_id', 'integer', (c) => c.references('files.id')).execute();
  await db.schema.alterTable('resources').addColumn('thumbnail_file_id', 'integer', (c) => c.references('files.id')).execute();

  await db.schema
    .createTable('upload_locks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('release_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
