import type { Kysely, Transaction } from 'kysely';
import type { PreviewKind } from '../../../contract/previews';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { enqueueJob, type JobView, retryJob, wakeJobRunners } from '../../jobs/queue';
import { type AuditActor, recordAudit } from '../audit/record';
import { previewMediaKeys, setMediaOwners } from './owners';
import { PREVIEW_JOB_SPECS } from './previews';
import { writeStaleFacets } from '../resources/search/facet-rows';

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
export async function queueResourcePreview(database: Database, resourceId: number, sources: PreviewSources, options: { now?: number } = {}): Promise<JobView | undefined> {
  const exists = await database.db.selectFrom('resources').select('id').where('id', '=', resourceId).executeTakeFirst();
  if (!exists) return undefined;
  const job = await enqueuePreviewJob(database, sources, { subject: previewSubject(resourceId), now: options.now });
  await assignPreviewJob(database.db, [resourceId], job.id);
  return job;
}

/** Queues a preview job (not yet anyone's: see assignPreviewJob); with `trx`, in that transaction (enqueueJob). */
export function enqueuePreviewJob(database: Database, sources: PreviewSources, options: { subject?: string; now?: number; trx?: Transaction<Tables> } = {}): Promise<JobView> {
  const { kind, ...payload } = sources;
  return enqueueJob(database, PREVIEW_JOB_SPECS[kind], payload, options);
}

/**
 * Makes `jobId` the current preview job of these resources. Several resources may share one job
 * (the demo catalogue shows one clip on many cards): its preview is published to all of them.
 */
export async function assignPreviewJob(db: Kysely<Tables>, resourceIds: number[], jobId: number): Promise<void> {
  if (resourceIds.length === 0) return;
  await db.updateTable('resources').set({ preview_job_id: jobId }).where('id', 'in', resourceIds).execute();
}

/**
 * Shows a job's stored preview on the resources whose current job it is (a job replaced by a
 * newer one writes nothing): the job runner calls it just before recording the job as ready. The
 * resources own the preview's files from then on, and no longer those of the preview it replaces
 * (owners.ts), in the same transaction.
 */
export async function publishPreview(database: Database, jobId: number, preview: unknown): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    const shown = await trx.updateTable('resources').set({ preview: JSON.stringify(preview) }).where('preview_job_id', '=', jobId).returning('id').execute();
    await setMediaOwners(
      trx,
      shown.map((r) => Number(r.id)),
      'preview',
      previewMediaKeys(preview),
    );
    await writeStaleFacets(trx);
  });
}

/** An admin's retry of the resource's failed preview job, recorded as resource.preview_retry. */
export async function retryResourcePreview(database: Database, resourceId: number, actor: AuditActor): Promise<'retried' | 'no_resource' | 'no_preview' | 'not_failed'> {
  const row = await database.db.selectFrom('resources').select('preview_job_id').where('id', '=', resourceId).executeTakeFirst();
  if (!row) return 'no_resource';
  if (row.preview_job_id === null) return 'no_preview';
  const jobId = Number(row.preview_job_id);
  const retried = await database.db.transaction().execute(async (trx) => {
    if (!(await retryJob(database, jobId, { trx }))) return false;
    await recordAudit(trx, actor, { action: 'resource.preview_retry', target: { type: 'resource', id: resourceId }, changes: { job_id: jobId } });
    return true;
  });
  if (retried) wakeJobRunners(database);
  return retried ? 'retried' : 'not_failed';
}
