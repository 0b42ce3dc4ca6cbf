import type { CategoryValue } from '../../../contract/categories';
import type { z } from 'zod';
import type { Resource, resourceInputSchema, ResourcePatch } from '../../../contract/resources';
import { generatedThumbnailPath } from '../../../contract/thumbnail-choice';
import type { AppContext } from '../../context';
import type { Database } from '../../db/connection';
import { notFound } from '../../errors';
import { afterAttach, attachPrepared, type Prepared, prepareUploads } from '../files/attach';
import { parseStoredImage } from '../files/stored';
import type { Uploads } from '../files/uploads';
import { wakeJobRunners } from '../../jobs/queue';
import { setMediaOwners } from '../media/owners';
import { attachPreviewSource, preparePreviewSource } from '../media/preview-sources';
import { mediaKey } from '../../storage/keys';
import { getResourceForAdmin, insertResource, readForSave, setThumbnailUrl, updateResourceRow } from './admin-queries';
import { trashResource } from './trash';
import type { AuditActor } from '../audit/record';
import { recordResourceChange, resourceAuditFields } from './audit-fields';
import { writeStaleFacets } from './search/facet-rows';

/**
 * The one way a resource is written (docs/decisions/331-one-transaction-per-save.md). A save is
 * all or nothing: whatever it answers with an error, no row was written and nothing changed.
 * 1. prepare, outside the transaction (slow: hashing, sniffing, re-encoding a thumbnail): the
 *    named uploads and the preview media are checked; a refusal is a 400 on the field.
 * 2. one transaction: the uploads are consumed into files rows, the row is inserted or updated,
 *    the media it shows are recorded as its own (media/owners.ts), the preview job is queued and
 *    made the resource's, and files it stops using are detached. An upload taken meanwhile (by a
 *    save racing for it) is a 409 that rolls all of it back.
 * 3. after the commit: what tus kept beside the uploads goes, the job runners are woken, and the
 *    resource is read again as the admin API shows it.
 *    The audit entry (resource.create or resource.update, the fields before and after) is written
 *    last in the same transaction (docs/decisions/420-the-audit-log.md).
 * Deleting (deleteResource) moves the resource to the trash (trash.ts) with its audit entry.
 */

/**
 * A create or an edit by the signed-in admin (who may attach only their own uploads), with the body
 * as the route's schema parsed it.
 */
export type SaveRequest = { adminId: number; actor: AuditActor } & ({ body: z.output<typeof resourceInputSchema> } | { id: number; body: ResourcePatch });

export async function saveResource(ctx: AppContext, uploads: Uploads, save: SaveRequest): Promise<Resource> {
  const { database } = ctx;
  const { body } = save;
  let resource: { category: CategoryValue; hasHostedDownload: boolean };
  if ('id' in save) {
    const current = await readForSave(database, save.id);
    if (!current) throw notFound('Resource not found');
    const hasHostedDownload = body.download_upload_id !== undefined || (body.download_url === undefined && current.download_file_id !== null);
    resource = { category: save.body.category ?? current.category, hasHostedDownload };
  } else {
    resource = { category: save.body.category, hasHostedDownload: body.download_upload_id !== undefined };
  }

  const prepared = await prepareUploads(ctx, uploads, body, save.adminId);
  const preview = await preparePreviewSource(ctx, uploads, body.preview_source, resource, save.adminId);

  const id = await database.db.transaction().execute(async (trx) => {
    let id: number;
    let before: Record<string, unknown> | undefined;
    if ('id' in save) {
      before = await resourceAuditFields(trx, save.id);
      const row = await updateResourceRow(trx, database, save.id, save.body, (t) => attachPrepared(t, prepared));
      if (!row) throw notFound('Resource not found');
      id = save.id;
    } else {
      const { thumbnail_url, download_url, thumbnail_upload_id: _t, download_upload_id: _d, preview_source: _p, ...rest } = save.body;
      const input = { ...rest, thumbnail_url: thumbnail_url ?? '', download_url: download_url ?? '' };
      id = Number((await insertResource(trx, database, input, save.adminId, await attachPrepared(trx, prepared))).id);
      // A draft without a thumbnail (bulk upload) shows the generated one until an admin gives one.
      if (thumbnail_url === undefined && save.body.thumbnail_upload_id === undefined) await setThumbnailUrl(trx, id, generatedThumbnailPath(id));
    }
    if (body.thumbnail_url !== undefined || body.thumbnail_upload_id !== undefined) {
      await setMediaOwners(trx, [id], 'thumbnail', thumbnailKeys(prepared));
    }
    if (preview) await attachPreviewSource(trx, database, id, preview);
    await writeStaleFacets(trx);
    await recordResourceChange(trx, save.actor, 'id' in save ? 'resource.update' : 'resource.create', id, before);
    return id;
  });

  await afterAttach(ctx, uploads, [...prepared, ...(preview?.uploads ?? [])]);
  // A preview job, or a new download's listing (files/attach.ts), waits for a runner.
  if (preview || prepared.some((p) => p.slot === 'download')) wakeJobRunners(database);
  const saved = await getResourceForAdmin(database, id);
  if (!saved) throw notFound('Resource not found'); // deleted the moment after it was saved
  return saved;
}

/** The media/ keys of the thumbnail a save attaches (its variants); none when it has none. */
function thumbnailKeys(prepared: readonly Prepared[]): string[] {
  const image = parseStoredImage(prepared.find((p) => p.slot === 'thumbnail')?.file.image ?? null);
  return image ? image.variants.map((v) => mediaKey(v.fileName)) : [];
}

/**
 * Deletes a resource: it moves to the trash (trash.ts, docs/decisions/398-the-trash-is-a-status.md),
 * gone for the public at once, restorable with its files, counts and preview until the purge. False
 * for an unknown id or one already in the trash.
 */
export async function deleteResource(database: Database, id: number, actor: AuditActor, extra?: Record<string, unknown>): Promise<boolean> {
  return trashResource(database, id, actor, extra);
}
