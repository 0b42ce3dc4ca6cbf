import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// What a hosted ZIP download holds (issue 33, docs/decisions/437-a-download-is-listed-once.md),
// read from its central directory by the `files.list` job (modules/listings) and never extracted:
// - files.listing_status: null until listed, then 'listed', 'too-large' or 'broken' (with
//   listing_reason), or 'not-zip' for a download that is not a ZIP (it shows its name and size);
//   listing_count and listing_total (uncompressed bytes) for a listed one, listing_extensions the
//   count of each extension as JSON ({"mogrt": 3, "txt": 1}): what the apps are deduced from.
// - file_entries: a listed ZIP's files in the archive's order (position 0, 1, …), paged by
//   (file_id, position); they go with their file.
// - resources.apps: an admin's correction of the deduced apps, JSON [{ "id", "min_version" }]
//   (null: deduced).
// Writing a listing changes public answers (a resource's `contents` and `apps`), so it bumps the
// data version as an admin's edit does (migrations 004, 017).
// Existing hosted downloads are listed by the `files.list` job that the first start after the
// upgrade queues (any download not listed yet queues one at start).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('listing_status', 'text', (c) => c.check(sql`listing_status in ('listed', 'too-large', 'broken', 'not-zip')`))
    .execute();
  await db.schema.alterTable('files').addColumn('listing_reason', 'text').execute();
  await db.schema.alterTable('files').addColumn('listing_count', 'integer').execute();
  await db.schema.alterTable('files').addColumn('listing_total', 'bigint').execute();
  await db.schema.alterTable('files').addColumn('listing_extensions', 'text').execute();

  await db.schema
    .createTable('file_entries')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_entries_pk', ['file_id', 'position'])
    .execute();

  await db.schema.alterTable('resources').addColumn('apps', 'text').execute();

  if (dialect === 'postgres') {
    await sql`create trigger files_listing_bumps_data_version after update of listing_status on files
      for each statement execute function bump_data_version()`.execute(db);
  } else {
    await sql`create trigger files_listing_bumps_data_version after update of listing_status on files
      begin update data_version set version = version + 1 where id = 1; end`.execute(db);
  }
}
