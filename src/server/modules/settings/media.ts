import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { Transaction } from 'kysely';
import { mediaUrl } from '../../../contract/files';
import type { SiteMedia } from '../../../contract/settings';
import type { AppContext } from '../../context';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { THUMBNAIL_MAX_PIXELS } from '../../media/images';
import { mediaKey, uploadKey } from '../../storage/keys';
import { attachPrepared, detachFiles, type Prepared, prepareUpload } from '../files/attach';
import { hostedImageOf, parseStoredImage, type StoredImage } from '../files/stored';
import type { Uploads } from '../files/uploads';
import { setSiteMediaOwners } from '../media/owners';
import type { StoredSiteMedia } from './queries';

/**
 * The logo and the favicon (docs/decisions/383-site-media.md): uploaded like a thumbnail (a
 * finished tus upload of purpose `thumbnail`, checked by its bytes and re-encoded), attached in
 * the settings save's transaction. The favicon's sizes are PNGs made from that one image, named
 * by their content under media/ and served at /media/ while the settings name them.
 */

export type ImageSlot = 'logo' | 'favicon';
const FIELD: Record<ImageSlot, string> = { logo: 'logo_upload_id', favicon: 'favicon_upload_id' };

/** Square PNG sizes made for a favicon: browser tab, apple-touch-icon, and the web manifest's two. */
export const FAVICON_SIZES = [32, 180, 192, 512] as const;
const HASH_HEX_CHARS = 32;

export interface PreparedImage {
  slot: ImageSlot;
  prepared: Prepared;
  image: StoredImage;
  /** The favicon's sizes (written under media/ already). */
  icons: { file_name: string; size: number }[];
}

/** Step 1, outside the transaction: the upload checked, re-encoded, and (favicon) its sizes written. */
export async function prepareImage(ctx: AppContext, uploads: Uploads, uploadId: string, slot: ImageSlot, adminId: number): Promise<PreparedImage> {
  let prepared: Prepared;
  try {
    prepared = await prepareUpload(ctx, uploads, uploadId, 'thumbnail', adminId);
  } catch (err) {
    // The same refusals as a thumbnail's, named by this request's field.
    if (err instanceof HttpError && err.fields) throw new HttpError(err.statusCode, err.code, err.message, { [FIELD[slot]]: Object.values(err.fields)[0] ?? err.message });
    throw err;
  }
  const image = parseStoredImage(prepared.file.image ?? null)!;
  const icons: PreparedImage['icons'] = [];
  if (slot === 'favicon') {
    const original = await buffer((await ctx.files.get(uploadKey(uploadId))).body);
    for (const size of FAVICON_SIZES) {
      const png = await sharp(original, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
        .rotate()
        .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
      const fileName = `${createHash('sha256').update(png).digest('hex').slice(0, HASH_HEX_CHARS)}.png`;
      await ctx.files.put(mediaKey(fileName), Readable.from([png]), { maxBytes: png.length, contentType: 'image/png' });
      icons.push({ file_name: fileName, size });
    }
  }
  return { slot, prepared, image, icons };
}

const variantKeys = (image: StoredImage) => image.variants.map((v) => mediaKey(v.fileName));

/**
 * Step 2, in the save's transaction: the slot shows `next` (a prepared image, or null for the
 * default); the file it showed before is detached and its media stop being served. Returns the
 * slot's stored value.
 */
export async function attachImage<S extends ImageSlot>(
  trx: Transaction<Tables>,
  slot: S,
  current: StoredSiteMedia[S],
  next: PreparedImage | null,
): Promise<StoredSiteMedia[S]> {
  await detachFiles(trx, [current?.file_id]);
  if (!next) {
    await setSiteMediaOwners(trx, slot, []);
    return null as StoredSiteMedia[S];
  }
  const set = await attachPrepared(trx, [next.prepared]);
  const fileId = Number(set.thumbnail_file_id);
  await setSiteMediaOwners(trx, slot, [...variantKeys(next.image), ...next.icons.map((i) => mediaKey(i.file_name))]);
  const value = slot === 'logo' ? { file_id: fileId, image: next.image } : { file_id: fileId, icons: next.icons };
  return value as StoredSiteMedia[S];
}

/** The media as the admin API and the public answer show them. */
export function siteMediaOf(media: StoredSiteMedia): Pick<SiteMedia, 'logo' | 'favicon' | 'promo_video'> {
  return {
    logo: media.logo ? hostedImageOf(media.logo.image) : null,
    favicon: media.favicon
      ? { icons: media.favicon.icons.map((i) => ({ src: mediaUrl(i.file_name), sizes: `${i.size}x${i.size}`, type: 'image/png' })) }
      : null,
    promo_video: media.promo_video?.video ?? null,
  };
}
