import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Honest download counts (modules/downloads, docs/decisions/260): downloads per resource per UTC
// day, and the current day's visitor set — one keyed hash per visitor, resource and day, so a
// visitor counts once a day. The visitor set is dropped after its day; the daily counts stay (one
// row per resource and day with downloads, however many downloads). Existing totals
// (resources.download_count, download_days) are kept as they are: no history is invented.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('resource_download_days')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_download_days_pk', ['resource_id', 'day'])
    .execute();
  // The dashboard reads a range of days across resources (by category).
  await sql`create index resource_download_days_day on resource_download_days (day, resource_id)`.execute(db);
  await db.schema
    .createTable('download_visitors')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'integer', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('download_visitors_pk', ['day', 'resource_id', 'visitor'])
    .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
}
