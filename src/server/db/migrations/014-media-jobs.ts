import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// Media processing jobs (modules/media/jobs.ts): kept in the database so they survive a restart
// and run once across instances. A job is claimed by setting a claim token and a lease; a lease
// that runs out (its instance died) makes the job claimable again. Times are ISO-8601 UTC text
// like every other timestamp, so one claim query serves both databases.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await idColumn(db, dialect, 'media_jobs')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // What the job is for (e.g. a resource's preview), for finding its latest job.
    .addColumn('subject', 'text')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'processing', 'ready', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('claim_token', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('error', 'text')
    .addColumn('result', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // The claim looks for due queued jobs and expired leases; both are few among finished jobs.
  await sql`create index media_jobs_due on media_jobs (state, run_at, id)`.execute(db);
  await sql`create index media_jobs_lease on media_jobs (state, lease_expires_at)`.execute(db);
  await sql`create index media_jobs_subject on media_jobs (subject, id)`.execute(db);
}
