import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import { UPLOAD_EXPIRY_MS } from '../../../contract/files';
import type { AppContext } from '../../context';
import { MEDIA_KEY_PREFIX, mediaKey, UPLOAD_KEY_PREFIX, uploadCompanionKeys, uploadVariantsKey } from '../../storage/keys';
import { ownedMediaKeys } from '../media/owners';
import { parseStoredImage } from './stored';
import type { Uploads } from './uploads';

/** How long a file no row points at is kept: a save in progress, a download that began on a replaced file. */
export const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** Unfinished uploads past UPLOAD_EXPIRY_MS. */
  expired: number;
  /** Finished uploads never attached, past the grace period. */
  unattached: number;
  /** Files rows detached (replaced, resource deleted) past the grace period, with their bytes. */
  detached: number;
  /** Objects under uploads/ that no row names (a crash between writing and recording). */
  strays: number;
  /** Thumbnail variants under media/ that a save wrote and no row names (the save failed). */
  variants: number;
  /**
   * Other files under media/ that no resource owns (media/owners.ts): a deleted or replaced
   * preview's, a deleted resource's thumbnail, specimens and social cards no longer asked for.
   */
  media: number;
}

/** Keys under media/ checked against their owners at once. */
const MEDIA_CHECK_BATCH = 200;

/** What a thumbnail variant is named (media/images.ts): nothing else is removed from media/. */
const VARIANT_NAME = /^[0-9a-f]{32}\.(webp|avif)$/;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Removes what no row needs any more. Each removal deletes the row first (its own statement,
 * checked by its result, so two instances sweeping at once or a save attaching the same upload
 * never both win) and the bytes after: a crash in between leaves bytes without a row, which the
 * stray pass removes next time — never a row without its bytes. Safe to run on every instance.
 */
export async function sweepFiles(ctx: AppContext, uploads: Uploads, options: { nowMs?: number; graceMs?: number } = {}): Promise<SweepResult> {
  const { db } = ctx.database;
  const now = options.nowMs ?? Date.now();
  const grace = options.graceMs ?? ORPHAN_GRACE_MS;
  const result: SweepResult = { expired: 0, unattached: 0, detached: 0, strays: 0, variants: 0, media: 0 };

  // Variants are content-addressed: one another thumbnail row also names stays.
  const dropVariant = async (fileName: string) => {
    const named = await db.selectFrom('files').select('id').where('image', 'like', `%${fileName}%`).executeTakeFirst();
    if (named || !(await ctx.files.stat(mediaKey(fileName)))) return false;
    await ctx.files.delete(mediaKey(fileName));
    return true;
  };
  /** The variants a save recorded at uploadVariantsKey (the upload is gone: attached, failed or swept). */
  const dropRecordedVariants = async (key: string) => {
    let names: unknown;
    try {
      const { body } = await ctx.files.get(key);
      names = JSON.parse((await buffer(body)).toString('utf8'));
    } catch {
      return; // unreadable: only the record goes
    }
    if (!Array.isArray(names)) return;
    for (const name of names) if (typeof name === 'string' && VARIANT_NAME.test(name) && (await dropVariant(name))) result.variants++;
  };

  const dropUpload = async (id: string) => {
    const gone = await db.deleteFrom('uploads').where('id', '=', id).returning('id').executeTakeFirst();
    if (gone) await uploads.remove(id);
    return gone !== undefined;
  };
  const expired = await db.selectFrom('uploads').select('id').where('finished_at', 'is', null).where('created_at', '<', iso(now - UPLOAD_EXPIRY_MS)).execute();
  for (const { id } of expired) if (await dropUpload(id)) result.expired++;
  const unattached = await db.selectFrom('uploads').select('id').where('finished_at', '<', iso(now - grace)).execute();
  for (const { id } of unattached) if (await dropUpload(id)) result.unattached++;

  const detached = await db.selectFrom('files').selectAll().where('detached_at', '<', iso(now - grace)).execute();
  for (const row of detached) {
    const gone = await db.deleteFrom('files').where('id', '=', row.id).where('detached_at', 'is not', null).returning('id').executeTakeFirst();
    if (!gone) continue;
    result.detached++;
    if (row.kind === 'download') {
      await ctx.files.delete(row.key);
      continue;
    }
    for (const v of parseStoredImage(row.image)?.variants ?? []) await dropVariant(v.fileName);
  }

  const removed = new Set<string>();
  for await (const stat of ctx.files.list(UPLOAD_KEY_PREFIX)) {
    if (stat.modifiedAt.getTime() > now - grace) continue;
    const id = stat.key.slice(UPLOAD_KEY_PREFIX.length).split('.')[0];
    // One statement: an attach moving the id from uploads to files cannot fall between two reads.
    const { rows } = await sql<{ n: number | string }>`select
      (select count(*) from uploads where id = ${id}) + (select count(*) from files where key = ${UPLOAD_KEY_PREFIX + id}) as n`.execute(db);
    const named = Number(rows[0]?.n ?? 0) > 0;
    // An attached download keeps its bytes; what tus kept beside them is not needed any more.
    const companion = uploadCompanionKeys(id).includes(stat.key);
    const attached = companion && (await db.selectFrom('files').select('id').where('key', '=', UPLOAD_KEY_PREFIX + id).executeTakeFirst());
    if (!named && !removed.has(id)) {
      // Through tus first: on S3 a leftover `.info` names a multipart upload whose parts the
      // bucket keeps (and bills) until it is aborted; the store aborts it and removes its companions.
      removed.add(id);
      await uploads.remove(id);
    }
    if (!named && stat.key === uploadVariantsKey(id)) await dropRecordedVariants(stat.key);
    if (!named || attached) {
      await ctx.files.delete(stat.key);
      result.strays++;
    }
  }

  // Files under media/ no resource owns, last written before the grace period (a job storing a
  // preview writes its files before publishing it; a thumbnail's variants are written before its
  // save: both are younger than that). A files row's variants stay while the row does.
  const inFiles = new Set<string>();
  for (const row of await db.selectFrom('files').select('image').where('kind', '=', 'thumbnail').execute()) {
    for (const v of parseStoredImage(row.image)?.variants ?? []) inFiles.add(mediaKey(v.fileName));
  }
  const dropUnowned = async (keys: string[]) => {
    const owned = await ownedMediaKeys(db, keys);
    for (const key of keys) {
      if (owned.has(key)) continue;
      // Stat again: a job may have just written the same content for another resource.
      const stat = await ctx.files.stat(key);
      if (!stat || stat.modifiedAt.getTime() > now - grace) continue;
      await ctx.files.delete(key);
      result.media++;
    }
  };
  let batch: string[] = [];
  for await (const stat of ctx.files.list(MEDIA_KEY_PREFIX)) {
    if (stat.modifiedAt.getTime() > now - grace || inFiles.has(stat.key)) continue;
    batch.push(stat.key);
    if (batch.length >= MEDIA_CHECK_BATCH) {
      await dropUnowned(batch);
      batch = [];
    }
  }
  await dropUnowned(batch);
  return result;
}
