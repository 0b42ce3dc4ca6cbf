import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// What a hosted ZIP download holds (issue 33, docs/decisions/436-a-download-is-listed-once.md),
// read from its central directory by the `files.list` job (modules/listings) and never extracted:
// - files.listing_status: null until listed, then 'listed', 'too-large' or 'broken' (with
//   listing_reason), or 'not-zip' for a download that is not a ZIP (it shows its name and size);
//   listing_count and listing_total (uncompressed bytes) for a listed one, listing_extensions the
//   count of each extension as JSON ({"mogrt": 3, "txt": 1}): what the apps are deduced from.
// - file_entries: a listed ZIP's files in the archive's order (position 0, 1, …), paged by
//   (file_id, position); they go with their file.
// - resources.apps: an admin's correction of the deduced apps, JSON [{ "id", "min_version" }]
//   (null: deduced).
// Existing hosted downloads are listed by one `files.list` job queued here (the job lists every
// download not yet listed); its row is written as queue.ts's insertJob writes one.
export async function up(db: AnyDb): Promise<void> {
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

  const now = new Date().toISOString();
  await db
    .insertInto('media_jobs')
    .values({ kind: 'files.list', payload: '{}', subject: 'files.list', state: 'queued', max_attempts: 3, run_at: now, created_at: now, updated_at: now })
    .execute();
}
