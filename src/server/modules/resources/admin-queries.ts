import type { Kysely, Updateable } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Resource, ResourcePatch } from '../../../contract/resources';
import type { Database, ResourcesTable } from '../../db/schema';
import { nowIso } from '../../time';
import { normalizeTags, tagKeys, toResource } from './mappers';

type DB = Kysely<Database>;

export interface NewResource {
  title: string;
  description: string;
  category: CategoryValue;
  thumbnail_url: string;
  download_url: string;
  tags: string[];
  is_premium: boolean;
}

/** Newest first; every column, including the download URL. */
export async function listResourcesForAdmin(db: DB, category?: CategoryValue): Promise<Resource[]> {
  let q = db.selectFrom('resources').selectAll();
  if (category) q = q.where('category', '=', category);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toResource);
}

async function replaceTags(trx: DB, resourceId: number, tags: readonly string[]): Promise<void> {
  await trx.deleteFrom('resource_tags').where('resource_id', '=', resourceId).execute();
  const keys = tagKeys(tags);
  if (keys.length > 0) {
    await trx
      .insertInto('resource_tags')
      .values(keys.map((tag) => ({ resource_id: resourceId, tag })))
      .execute();
  }
}

/** The resource and its resource_tags rows in one transaction. */
export async function createResource(db: DB, input: NewResource, adminId: number): Promise<Resource> {
  const now = nowIso();
  const tags = normalizeTags(input.tags);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('resources')
      .values({
        title: input.title,
        description: input.description,
        category: input.category,
        thumbnail_url: input.thumbnail_url,
        download_url: input.download_url,
        is_premium: input.is_premium ? 1 : 0,
        tags: JSON.stringify(tags),
        created_at: now,
        updated_at: now,
        admin_id: adminId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await replaceTags(trx, row.id, tags);
    return toResource(row);
  });
}

/**
 * Applies an edit. download_count and popularity are never part of the update, so a
 * download counted while the form was open is not lost. Undefined for an unknown id.
 */
export async function updateResource(db: DB, id: number, patch: ResourcePatch): Promise<Resource | undefined> {
  return db.transaction().execute(async (trx) => {
    const set: Updateable<ResourcesTable> = { updated_at: nowIso() };
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.category !== undefined) set.category = patch.category;
    if (patch.thumbnail_url !== undefined) set.thumbnail_url = patch.thumbnail_url;
    if (patch.download_url !== undefined) set.download_url = patch.download_url;
    if (patch.is_premium !== undefined) set.is_premium = patch.is_premium ? 1 : 0;
    const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags);
    if (tags !== undefined) set.tags = JSON.stringify(tags);
    const row = await trx.updateTable('resources').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    if (tags !== undefined) await replaceTags(trx, id, tags);
    return toResource(row);
  });
}

/** False for an unknown id. resource_tags rows go with it (foreign-key cascade). */
export async function deleteResource(db: DB, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('resource_tags').where('resource_id', '=', id).execute();
    const r = await trx.deleteFrom('resources').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  });
}
