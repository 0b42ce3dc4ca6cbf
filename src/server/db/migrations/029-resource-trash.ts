import { sql } from 'kysely';
import type { Dialect } from '../connection';
import type { AnyDb } from './helpers';

// The trash (docs/decisions/398-the-trash-is-a-status.md): a deleted resource gets status 'trashed',
// which the public rule already hides (modules/resources/visibility.ts: "not one of the hidden
// statuses"), and remembers what a restore brings back: status_before_trash (publish_at stays as it
// was), trashed_at (UTC ISO-8601 text) for the Trash page and the purge. resources_trashed serves
// both, newest or oldest first. Existing rows are untouched.
//
// Migration 027 wrote the allowed statuses as a CHECK on the column. PostgreSQL replaces the
// constraint (NOT VALID, then validated: no long exclusive lock while it reads the rows). SQLite
// cannot change a CHECK in place: the status moves to a new column with the wider CHECK, and the
// old one goes with the index and trigger that named it (recreated as 027 made them). The data
// version trigger is on "update of status", so the copy bumps nothing; nothing public changes.
const STATUSES = sql.raw(`'draft', 'scheduled', 'published', 'trashed'`);
const RESTORABLE = sql.raw(`'draft', 'scheduled', 'published'`);

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table resources drop constraint resources_status_check`.execute(db);
    await sql`alter table resources add constraint resources_status_check check (status in (${STATUSES})) not valid`.execute(db);
    await sql`alter table resources validate constraint resources_status_check`.execute(db);
  } else {
    await sql`alter table resources add column status_new text not null default 'published' check (status_new in (${STATUSES}))`.execute(db);
    await sql`update resources set status_new = status where status <> 'published'`.execute(db);
    await sql`drop trigger resources_status_bumps_data_version`.execute(db);
    await sql`drop index resources_public_count`.execute(db);
    await sql`drop index resources_due`.execute(db);
    await sql`alter table resources drop column status`.execute(db);
    await sql`alter table resources rename column status_new to status`.execute(db);
    await sql`create index resources_public_count on resources (status, category)`.execute(db);
    await sql`create index resources_due on resources (publish_at, id) where status = 'scheduled'`.execute(db);
    await sql`create trigger resources_status_bumps_data_version after update of status, publish_at on resources
      begin update data_version set version = version + 1 where id = 1; end`.execute(db);
  }
  await db.schema
    .alterTable('resources')
    .addColumn('status_before_trash', 'text', (c) => c.check(sql`status_before_trash in (${RESTORABLE})`))
    .execute();
  await db.schema.alterTable('resources').addColumn('trashed_at', 'text').execute();
  await sql`create index resources_trashed on resources (trashed_at, id) where status = 'trashed'`.execute(db);
}
