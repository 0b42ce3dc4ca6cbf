import type { Transaction } from 'kysely';
import { ERROR_CODES } from '../../../contract/errors';
import { mediaUrl } from '../../../contract/files';
import type { SiteMedia } from '../../../contract/settings';
import type { AppContext } from '../../context';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { getJob } from '../../jobs/queue';
import { detachFiles, type Prepared, prepareUpload } from '../files/attach';
import type { Uploads } from '../files/uploads';
import { previewMediaKeys, setSiteMediaOwners } from '../media/owners';
import { enqueuePreviewJob } from '../media/resource-previews';
import { lockSettings, readMedia, type StoredPromoVideo, type StoredSiteMedia, writeMedia } from './queries';

/**
 * The "My Website" promo video (docs/decisions/383-site-media.md): a finished upload of purpose
 * `download`, made into a muted, fast-start MP4 and a poster by the same job as a resource's video
 * preview (media/previews.ts `preview.video`), queued in the settings save's transaction under the
 * subject PROMO_VIDEO_SUBJECT. The video shown stays the last ready one until the new job is ready;
 * then publishPromoVideo (called by the job runner, media/worker.ts) shows it and makes its files
 * the site's (served at /media/ while shown).
 */

export const PROMO_VIDEO_SUBJECT = 'site:promo_video';
const FIELD = 'promo_video_upload_id';

/** Step 1, outside the transaction: the upload is finished, verified and the admin's own. */
export async function preparePromoVideo(ctx: AppContext, uploads: Uploads, uploadId: string, adminId: number): Promise<Prepared> {
  try {
    return await prepareUpload(ctx, uploads, uploadId, 'download', adminId);
  } catch (err) {
    if (err instanceof HttpError && err.fields) throw new HttpError(err.statusCode, err.code, err.message, { [FIELD]: err.message });
    throw err;
  }
}

/**
 * Step 2, in the save's transaction: the upload becomes a files row and its job is queued (the
 * caller wakes the job runners after the commit), or null drops the promo video (the built-in one
 * shows). The source it replaces is detached.
 */
export async function attachPromoVideo(trx: Transaction<Tables>, database: Database, current: StoredPromoVideo | null, next: Prepared | null): Promise<StoredPromoVideo | null> {
  await detachFiles(trx, [current?.file_id]);
  if (!next) {
    await setSiteMediaOwners(trx, 'promo_video', []);
    return null;
  }
  const consumed = await trx.deleteFrom('uploads').where('id', '=', next.uploadId).returning('id').executeTakeFirst();
  if (!consumed) throw new HttpError(409, ERROR_CODES.conflict, 'The upload was attached or removed meanwhile', { [FIELD]: 'The upload is no longer available' });
  const file = await trx.insertInto('files').values(next.file).returning('id').executeTakeFirstOrThrow();
  const job = await enqueuePreviewJob(database, { kind: 'video', source: next.file.key }, { subject: PROMO_VIDEO_SUBJECT, trx });
  return { job_id: job.id, file_id: Number(file.id), video: current?.video ?? null };
}

interface StoredVideoPreview {
  width: number;
  height: number;
  preview: { fileName: string; width: number; height: number };
  poster: { variants: { fileName: string; format: string; width: number }[] };
}

/** The job's stored video preview as the promo video visitors get. */
function promoVideoOf(preview: unknown): NonNullable<SiteMedia['promo_video']> | null {
  const p = preview as Partial<StoredVideoPreview> | null;
  const poster = p?.poster?.variants?.filter((v) => v.format === 'webp').at(-1);
  if (!p?.preview?.fileName || !poster) return null;
  return { mp4: mediaUrl(p.preview.fileName), webm: null, poster: mediaUrl(poster.fileName), width: p.preview.width, height: p.preview.height };
}

/**
 * The job runner's step before a job is recorded ready: when `jobId` is the promo video's current
 * job, its video is shown and its files become the site's (those of the video it replaces stop
 * being served). Any other job writes nothing.
 */
export async function publishPromoVideo(database: Database, jobId: number, preview: unknown): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await lockSettings(trx, database);
    const media = await readMedia(trx);
    const promo = media.promo_video;
    if (!promo || promo.job_id !== jobId) return;
    const video = promoVideoOf(preview);
    if (!video) return;
    await setSiteMediaOwners(trx, 'promo_video', previewMediaKeys(preview));
    await writeMedia(trx, { ...media, promo_video: { ...promo, video } });
  });
}

/** What the admin sees of the promo video's processing: still processing, or why it failed; null once ready or when none. */
export async function promoVideoJob(database: Database, media: StoredSiteMedia): Promise<SiteMedia['promo_video_job']> {
  if (!media.promo_video) return null;
  const job = await getJob(database, media.promo_video.job_id);
  if (!job || job.state === 'ready') return null;
  if (job.state === 'failed') return { state: 'failed', error: job.error };
  return { state: 'processing', error: null };
}
