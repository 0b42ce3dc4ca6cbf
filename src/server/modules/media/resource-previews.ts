import type { PreviewKind } from '../../../contract/previews';
import type { Db } from '../../db/connection';
import { enqueueJob, type JobView, retryJob } from './jobs';
import { PREVIEW_JOB_SPECS } from './previews';

/**
 * A resource's preview (migration 017): `resources.preview_job_id` is the job deriving it from
 * files in the store, `resources.preview` the last ready result, which visitors see until a newer
 * job is ready. See docs/decisions/220-resource-previews.md.
 */

/** The stored files a preview is made from (keys in the file store). */
export type PreviewSources = { kind: Exclude<PreviewKind, 'image-pair'>; source: string } | { kind: 'image-pair'; before: string; after: string };

/** The subject of a resource's preview jobs (media_jobs.subject). */
export const previewSubject = (resourceId: number) => `resource:${resourceId}`;

/**
 * Queues the job that makes the resource's preview from `sources` and makes it the resource's
 * current one (an earlier ready preview stays visible until this one is ready). Undefined for an
 * unknown resource (the job is not queued).
 */
export async function queueResourcePreview(database: Db, resourceId: number, sources: PreviewSources, options: { now?: number } = {}): Promise<JobView | undefined> {
  const exists = await database.db.selectFrom('resources').select('id').where('id', '=', resourceId).executeTakeFirst();
  if (!exists) return undefined;
  const { kind, ...payload } = sources;
  const job = await enqueueJob(database, PREVIEW_JOB_SPECS[kind], payload, { subject: previewSubject(resourceId), now: options.now });
  await database.db.updateTable('resources').set({ preview_job_id: job.id }).where('id', '=', resourceId).execute();
  return job;
}

/**
 * Shows a job's stored preview on the resource whose current job it is (a job replaced by a
 * newer one writes nothing): the job runner calls it just before recording the job as ready.
 */
export async function publishPreview(database: Db, jobId: number, preview: unknown): Promise<void> {
  await database.db.updateTable('resources').set({ preview: JSON.stringify(preview) }).where('preview_job_id', '=', jobId).execute();
}

/** An admin's retry of the resource's failed preview job. */
export async function retryResourcePreview(database: Db, resourceId: number): Promise<'retried' | 'no_resource' | 'no_preview' | 'not_failed'> {
  const row = await database.db.selectFrom('resources').select('preview_job_id').where('id', '=', resourceId).executeTakeFirst();
  if (!row) return 'no_resource';
  if (row.preview_job_id === null) return 'no_preview';
  return (await retryJob(database, Number(row.preview_job_id))) ? 'retried' : 'not_failed';
}
