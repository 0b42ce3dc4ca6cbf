import type { Transaction } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import { ERROR_CODES } from '../../../contract/errors';
import { CATEGORY_PREVIEW_KINDS, type PreviewSourceInput } from '../../../contract/previews';
import type { AppContext } from '../../context';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { badRequest } from '../../errors';
import { HttpError } from '../../http-error';
import { detachFiles, type Prepared, prepareUpload } from '../files/attach';
import type { Uploads } from '../files/uploads';
import { assignPreviewJob, enqueuePreviewJob, previewSubject, type PreviewSources } from './resource-previews';

/**
 * An admin's preview media on create or edit (`preview_source`, contract/previews.ts):
 * 1. before the save: the kind is one the category accepts, each upload is finished and verified
 *    (the hosted-files checks), and `from_download` has a hosted download to use — a refusal is
 *    400 on `preview_source` and nothing is saved;
 * 2. in the save's transaction: the uploads become files rows (kept while the preview may be
 *    retried), the preview job is queued and made the resource's, and the source files of the job
 *    it replaces are detached (the sweep removes them after its grace period).
 */

const FIELD = 'preview_source';
const refuse = (message: string) => badRequest(message, { [FIELD]: message });

export interface PreparedPreviewSource {
  input: PreviewSourceInput;
  uploads: Prepared[];
}

export async function preparePreviewSource(
  ctx: AppContext,
  uploads: Uploads,
  input: PreviewSourceInput | undefined,
  resource: { category: CategoryValue; hasHostedDownload: boolean },
  adminId: number,
): Promise<PreparedPreviewSource | undefined> {
  if (!input) return undefined;
  const accepted = CATEGORY_PREVIEW_KINDS[resource.category];
  if (!accepted.includes(input.kind)) throw refuse(`This category previews ${accepted.join(' or ')}, not ${input.kind}`);
  if (input.from_download && !resource.hasHostedDownload) throw refuse('The download is a link, not a hosted file: upload the preview media instead');
  const ids = input.kind === 'image-pair' ? [input.before_upload_id!, input.after_upload_id!] : input.upload_id ? [input.upload_id] : [];
  const prepared: Prepared[] = [];
  for (const id of ids) {
    try {
      prepared.push(await prepareUpload(ctx, uploads, id, 'download', adminId));
    } catch (error) {
      if (error instanceof HttpError && error.fields) throw new HttpError(error.statusCode, error.code, error.message, { [FIELD]: error.message });
      throw error;
    }
  }
  return { input, uploads: prepared };
}

/**
 * Step 2, in the save's transaction (resources/save.ts), after the row is written: a refusal
 * (409: the upload went meanwhile) rolls the whole save back. The job is queued in the
 * transaction; the caller wakes the job runners after the commit.
 */
export async function attachPreviewSource(trx: Transaction<Tables>, database: Database, resourceId: number, prepared: PreparedPreviewSource): Promise<void> {
  const keys: string[] = [];
  for (const p of prepared.uploads) {
    const consumed = await trx.deleteFrom('uploads').where('id', '=', p.uploadId).returning('id').executeTakeFirst();
    if (!consumed) throw new HttpError(409, ERROR_CODES.conflict, 'The upload was attached or removed meanwhile', { [FIELD]: 'The upload is no longer available' });
    await trx.insertInto('files').values(p.file).execute();
    keys.push(p.file.key);
  }
  if (prepared.input.from_download) {
    const row = await trx
      .selectFrom('resources')
      .innerJoin('files', 'files.id', 'resources.download_file_id')
      .select('files.key')
      .where('resources.id', '=', resourceId)
      .executeTakeFirst();
    if (!row) throw refuse('The download is a link, not a hosted file: upload the preview media instead');
    keys.push(row.key);
  }
  const { kind } = prepared.input;
  const sources: PreviewSources = kind === 'image-pair' ? { kind, before: keys[0]!, after: keys[1]! } : { kind, source: keys[0]! };
  const replaced = await previewJobOf(trx, resourceId);
  const job = await enqueuePreviewJob(database, sources, { subject: previewSubject(resourceId), trx });
  await assignPreviewJob(trx, [resourceId], job.id);
  await detachPreviewSources(trx, replaced, keys);
}

/** What detachPreviewSources needs of a resource: its current preview job's payload and its download. */
export interface PreviewJobOf {
  payload: string | null;
  download_file_id: number | null;
}

export async function previewJobOf(trx: Transaction<Tables>, resourceId: number): Promise<PreviewJobOf | undefined> {
  return trx
    .selectFrom('resources')
    .leftJoin('media_jobs', 'media_jobs.id', 'resources.preview_job_id')
    .select(['media_jobs.payload', 'resources.download_file_id'])
    .where('resources.id', '=', resourceId)
    .executeTakeFirst();
}

/**
 * Detaches the files rows a preview job read its media from (a replaced job's, a deleted
 * resource's), unless something still uses them: the resource's download, or `kept` (the new job's).
 */
export async function detachPreviewSources(trx: Transaction<Tables>, job: PreviewJobOf | undefined, kept: readonly string[]): Promise<void> {
  if (!job?.payload) return;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(job.payload) as Record<string, unknown>;
  } catch {
    return;
  }
  const old = Object.values(payload).filter((v): v is string => typeof v === 'string' && !kept.includes(v));
  if (old.length === 0) return;
  const rows = await trx.selectFrom('files').select('id').where('key', 'in', old).where('kind', '=', 'download').execute();
  await detachFiles(
    trx,
    rows.map((r) => Number(r.id)).filter((id) => id !== Number(job.download_file_id)),
  );
}
