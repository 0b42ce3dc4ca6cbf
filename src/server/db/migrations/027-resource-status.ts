import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// Drafts and schedules (docs/decisions/390-resource-status.md): a resource is 'draft', 'scheduled'
// (with publish_at, UTC ISO-8601 text like every timestamp here) or 'published'; only published
// ones exist for the public. Existing rows are published. A later trashed_at sits beside status.
//
// resources_public_count (status, category): the public totals (a category's, or all) counted in
// this index alone, as the category indexes counted them before. resources_due: the scheduled
// rows by publish_at, for the publishing job. Writing status or publish_at changes public answers,
// so it bumps the data version like an admin's edit (migration 004 lists the columns that do).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('resources')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published').check(sql`status in ('draft', 'scheduled', 'published')`))
    .execute();
  await db.schema.alterTable('resources').addColumn('publish_at', 'text').execute();
  await sql`create index resources_public_count on resources (status, category)`.execute(db);
  await sql`create index resources_due on resources (publish_at, id) where status = 'scheduled'`.execute(db);
  if (dialect === 'postgres') {
    await sql`create trigger resources_status_bumps_data_version after update of status, publish_at on resources
      for each statement execute function bump_data_version()`.execute(db);
  } else {
    await sql`create trigger resources_status_bumps_data_version after update of status, publish_at on resources
      begin update data_version set version = version + 1 where id = 1; end`.execute(db);
  }
}
