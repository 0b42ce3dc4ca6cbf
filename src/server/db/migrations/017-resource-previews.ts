import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb } from './helpers';

// A resource's preview (docs/decisions/220-resource-previews.md): `preview_job_id` is the media job
// deriving it from the admin's upload (its state and reason are what the admin sees), `preview` the
// JSON of the last preview that job or an earlier one made ready (what visitors see). A column, not
// a table, so every public list reads it with the row it already reads: no join, no second query.
// Writing `preview` changes public answers, so it bumps the data version like an admin's edit
// (migration 004 lists the columns that do).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await sql`alter table resources add column preview_job_id integer references media_jobs (id) on delete set null`.execute(db);
  await sql`alter table resources add column preview text`.execute(db);
  if (dialect === 'postgres') {
    await sql`create trigger resources_preview_bumps_data_version after update of preview on resources
      for each statement execute function bump_data_version()`.execute(db);
  } else {
    await sql`create trigger resources_preview_bumps_data_version after update of preview on resources
      begin update data_version set version = version + 1 where id = 1; end`.execute(db);
  }
}
