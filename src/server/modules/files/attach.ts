import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { fileTypeFromBuffer } from 'file-type';
import type { Insertable, Transaction, Updateable } from 'kysely';
import { ERROR_CODES } from '../../../contract/errors';
import { THUMBNAIL_UPLOAD_MAX_BYTES } from '../../../contract/files';
import type { AppContext } from '../../context';
import type { Tables, FilesTable, ResourcesTable } from '../../db/schema';
import { badRequest } from '../../errors';
import { HttpError } from '../../http-error';
import { ImageRejectedError, processThumbnail } from '../../media/images';
import { nowIso } from '../../time';
import { mediaKey, uploadCompanionKeys, uploadKey, uploadVariantsKey } from '../../storage/keys';
import { imageSrc, type StoredImage } from './stored';
import { type Uploads, verifyFinished } from './uploads';
import { queueListing } from '../listings/listings';

/**
 * Attaching finished uploads to a resource on save, in three steps so a crash at any moment leaves
 * the old state or the new one:
 * 1. prepare (outside the transaction): the upload is complete and verified (size, SHA-256 — done
 *    by the last PATCH, or now); a download's type is sniffed from its bytes; a thumbnail is
 *    checked by its bytes, decoded and re-encoded (media/images.ts) and its variants written under
 *    media/ (content-addressed: a crash leaves at most unused variants, never a broken row; their
 *    names are recorded first at uploadVariantsKey, so the sweep removes those no row names).
 * 2. in the resource's transaction: the uploads row is consumed (deleted — an upload is attached
 *    once), the files row inserted, the resource pointed at it, and the files it pointed at before
 *    marked detached (the sweep removes them after a grace period, so a download that started on
 *    the old file finishes).
 * 3. after the commit: what tus kept beside the bytes (and a thumbnail's original) is removed.
 *    Not done (a crash): the sweep removes it.
 */

export type Slot = 'download' | 'thumbnail';
const FIELD: Record<Slot, string> = { download: 'download_upload_id', thumbnail: 'thumbnail_upload_id' };
/** Bytes file-type reads to recognise a format. */
const SNIFF_BYTES = 4100;

export interface Prepared {
  slot: Slot;
  uploadId: string;
  file: Insertable<FilesTable>;
  /** What the resource row shows beside the file id. */
  link: Partial<Pick<ResourcesTable, 'download_url' | 'thumbnail_url'>>;
  cleanup: string[];
  removeUpload: boolean;
}

async function readStart(ctx: AppContext, key: string): Promise<Buffer> {
  const { body } = await ctx.files.get(key, { range: { start: 0, end: SNIFF_BYTES - 1 } });
  return buffer(body);
}

/** The Content-Type a download is served with: what its bytes are, or application/octet-stream. */
export async function sniffContentType(ctx: AppContext, key: string): Promise<string> {
  const type = await fileTypeFromBuffer(await readStart(ctx, key));
  return type?.mime ?? 'application/octet-stream';
}

/** `adminId`: who saves; only their own uploads can be attached (docs/decisions/321-an-upload-belongs-to-its-admin.md). */
export async function prepareUpload(ctx: AppContext, uploads: Uploads, uploadId: string, slot: Slot, adminId: number): Promise<Prepared> {
  const field = FIELD[slot];
  const refuse = (message: string) => badRequest(message, { [field]: message });
  const row = await ctx.database.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('admin_id', '=', adminId).executeTakeFirst();
  if (!row) throw refuse('The upload was not found: it expired, was cancelled or is already attached');
  const size = Number(row.size);
  let sha256 = row.sha256;
  if (!sha256) {
    const tus = await uploads.datastore.getUpload(uploads.tusId(uploadId)).catch(() => undefined);
    if (!tus || tus.offset !== size) throw refuse('The upload is not complete yet');
    ({ sha256 } = await verifyFinished(ctx, uploadId, size));
  }
  const key = uploadKey(uploadId);
  const base = { name: row.name, size, sha256, created_at: nowIso(), detached_at: null };
  if (slot === 'download') {
    return {
      slot,
      uploadId,
      file: { ...base, key, kind: 'download', content_type: await sniffContentType(ctx, key), image: null },
      link: { download_url: '' },
      cleanup: uploadCompanionKeys(uploadId),
      removeUpload: false,
    };
  }
  if (size > THUMBNAIL_UPLOAD_MAX_BYTES) throw refuse(`A thumbnail image must be at most ${THUMBNAIL_UPLOAD_MAX_BYTES} bytes`);
  let processed;
  try {
    processed = await processThumbnail((await ctx.files.get(key)).body);
  } catch (err) {
    if (err instanceof ImageRejectedError) throw refuse(err.message);
    throw err;
  }
  // Which variants are this upload's, recorded first: if the save fails, the sweep finds them by it.
  const names = Buffer.from(JSON.stringify(processed.variants.map((v) => v.fileName)));
  await ctx.files.put(uploadVariantsKey(uploadId), Readable.from([names]), { maxBytes: names.length, contentType: 'application/json' });
  for (const v of processed.variants) {
    await ctx.files.put(mediaKey(v.fileName), Readable.from([v.data]), { maxBytes: v.data.length, contentType: v.contentType });
  }
  const image: StoredImage = {
    width: processed.source.width,
    height: processed.source.height,
    variants: processed.variants.map((v) => ({ format: v.format, width: v.width, height: v.height, fileName: v.fileName })),
    placeholder: processed.placeholder,
  };
  const src = imageSrc(image);
  const largest = image.variants.filter((v) => v.format === 'webp').at(-1)!;
  return {
    slot,
    uploadId,
    file: { ...base, key: mediaKey(largest.fileName), kind: 'thumbnail', content_type: 'image/webp', image: JSON.stringify(image) },
    link: { thumbnail_url: src },
    cleanup: [],
    removeUpload: true,
  };
}

/** Prepares the uploads a create or edit names; refusals are 400 on the field. */
export async function prepareUploads(
  ctx: AppContext,
  uploads: Uploads,
  body: { download_upload_id?: string; thumbnail_upload_id?: string },
  adminId: number,
): Promise<Prepared[]> {
  const out: Prepared[] = [];
  if (body.download_upload_id !== undefined) out.push(await prepareUpload(ctx, uploads, body.download_upload_id, 'download', adminId));
  if (body.thumbnail_upload_id !== undefined) out.push(await prepareUpload(ctx, uploads, body.thumbnail_upload_id, 'thumbnail', adminId));
  return out;
}

/**
 * Step 2, inside the resource's transaction: consumes the uploads rows, inserts the files rows and
 * returns what the resource row gets (file ids and links).
 */
export async function attachPrepared(trx: Transaction<Tables>, prepared: readonly Prepared[]): Promise<Updateable<ResourcesTable>> {
  const set: Updateable<ResourcesTable> = {};
  for (const p of prepared) {
    const consumed = await trx.deleteFrom('uploads').where('id', '=', p.uploadId).returning('id').executeTakeFirst();
    if (!consumed) throw new HttpError(409, ERROR_CODES.conflict, 'The upload was attached or removed meanwhile', { [FIELD[p.slot]]: 'The upload is no longer available' });
    const row = await trx.insertInto('files').values(p.file).returning('id').executeTakeFirstOrThrow();
    Object.assign(set, p.link, p.slot === 'download' ? { download_file_id: Number(row.id) } : { thumbnail_file_id: Number(row.id) });
    // What is inside it is read by a job, once the resource's transaction commits (listings/listings.ts).
    if (p.slot === 'download') await queueListing(trx);
  }
  return set;
}

/** Marks files rows no resource points at any more; the sweep removes them after the grace period. */
export async function detachFiles(trx: Transaction<Tables>, ids: readonly (number | null | undefined)[]): Promise<void> {
  const list = ids.filter((id): id is number => id !== null && id !== undefined).map(Number);
  if (list.length > 0) await trx.updateTable('files').set({ detached_at: nowIso() }).where('id', 'in', list).where('detached_at', 'is', null).execute();
}

/** Step 3, after the commit: removes what is no longer needed of the uploads (best effort; the sweep does the rest). */
export async function afterAttach(ctx: AppContext, uploads: Uploads, prepared: readonly Prepared[]): Promise<void> {
  for (const p of prepared) {
    if (p.removeUpload) await uploads.remove(p.uploadId).catch(() => undefined);
    else await Promise.all(p.cleanup.map((k) => ctx.files.delete(k).catch(() => undefined)));
  }
}
