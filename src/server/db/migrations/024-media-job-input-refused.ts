import type { AnyDb } from './helpers';

// Whether a failed job failed on its input (a preview's file that is not of its kind at all): the
// same input fails again, so the admin is told to upload another file instead of being offered a
// retry (docs/decisions/371-a-retry-only-when-it-can-help.md). Jobs that failed before this
// column existed read as retryable, as they were shown.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('media_jobs')
    .addColumn('input_refused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
