import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql, notTrashedSql } from '../resources/visibility';

/**
 * Who owns each derived file under media/ (migration 021, docs/decisions/330-media-owners.md): a
 * key is served at /media/ while a resource names it, and swept once none has for the grace
 * period. Every write that changes what a resource shows of media/ replaces that resource's rows
 * of the role in the same transaction: a saved thumbnail, a published preview, a deletion.
 */

export type MediaRole = 'thumbnail' | 'preview' | 'specimen';

export interface MediaOwnersTable {
  resource_id: number;
  role: MediaRole;
  /** `media/<hash>.<ext>` in the file store. */
  key: string;
}

/** What the owner's settings show (migration 025, modules/settings): logo, favicon sizes, promo video. */
export type SiteMediaRole = 'logo' | 'favicon' | 'promo_video';
export interface SiteMediaOwnersTable {
  role: SiteMediaRole;
  key: string;
}

type Db = Kysely<Tables>;
const owners = (db: Db) => db.withTables<{ media_owners: MediaOwnersTable; site_media_owners: SiteMediaOwnersTable }>();

/** Rows per insert (PostgreSQL allows 65,535 parameters a statement; SQLite 32,766). */
const INSERT_BATCH = 500;

/** Every file a stored preview names (each `key`, all under media/: its derived files, a LUT's sample photos). */
export function previewMediaKeys(preview: unknown): string[] {
  if (Array.isArray(preview)) return preview.flatMap(previewMediaKeys);
  if (typeof preview !== 'object' || preview === null) return [];
  return Object.entries(preview).flatMap(([k, v]) => (k === 'key' && typeof v === 'string' ? [v] : previewMediaKeys(v)));
}

/**
 * Makes `keys` what these resources own in `role` (their earlier rows of the role go). Run it in
 * the transaction of the write that changes what the resources show.
 */
export async function setMediaOwners(db: Db, resourceIds: readonly number[], role: MediaRole, keys: readonly string[]): Promise<void> {
  if (resourceIds.length === 0) return;
  const o = owners(db);
  await o.deleteFrom('media_owners').where('resource_id', 'in', [...resourceIds]).where('role', '=', role).execute();
  const rows = resourceIds.flatMap((resource_id) => [...new Set(keys)].map((key) => ({ resource_id, role, key })));
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await o.insertInto('media_owners').values(rows.slice(i, i + INSERT_BATCH)).execute();
}

/** A resource's rows of every role (its deletion: its media stop being served at once). */
export async function dropMediaOwners(db: Db, resourceId: number): Promise<void> {
  await owners(db).deleteFrom('media_owners').where('resource_id', '=', resourceId).execute();
}

/**
 * Makes `keys` what the site's settings show in `role` (their earlier rows of the role go). Run it in
 * the transaction of the settings save.
 */
export async function setSiteMediaOwners(db: Db, role: SiteMediaRole, keys: readonly string[]): Promise<void> {
  const o = owners(db);
  await o.deleteFrom('site_media_owners').where('role', '=', role).execute();
  const unique = [...new Set(keys)];
  if (unique.length > 0) await o.insertInto('site_media_owners').values(unique.map((key) => ({ role, key }))).execute();
}

/**
 * Whether some public resource or the site's settings name `key`: only such keys are served at
 * /media/ (a draft's media answer 404, visibility.ts).
 */
export async function isMediaOwned(db: Db, key: string): Promise<boolean> {
  const o = owners(db);
  const row = await o
    .selectFrom('media_owners')
    .innerJoin('resources', 'resources.id', 'media_owners.resource_id')
    .select('media_owners.key')
    .where('media_owners.key', '=', key)
    .where(isPublicSql())
    .union(o.selectFrom('site_media_owners').select('key').where('key', '=', key))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether `key` may be served to someone allowed to see unpublished resources: any resource (an
 * admin, also in the trash), or the one resource a preview link opens (`resourceId`), whatever its
 * status but the trash (decision 398).
 */
export async function isMediaOwnedBy(db: Db, key: string, resourceId?: number): Promise<boolean> {
  if (resourceId === undefined) return (await owners(db).selectFrom('media_owners').select('key').where('key', '=', key).limit(1).executeTakeFirst()) !== undefined;
  const row = await owners(db)
    .selectFrom('media_owners')
    .innerJoin('resources', 'resources.id', 'media_owners.resource_id')
    .select('media_owners.key')
    .where('media_owners.key', '=', key)
    .where('media_owners.resource_id', '=', resourceId)
    .where(notTrashedSql())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `keys` some resource or the site's settings name (the sweep's check, a page of keys at a time). */
export async function ownedMediaKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const o = owners(db);
  const rows = await o
    .selectFrom('media_owners')
    .select('key')
    .where('key', 'in', [...keys])
    .union(o.selectFrom('site_media_owners').select('key').where('key', 'in', [...keys]))
    .execute();
  return new Set(rows.map((r) => r.key));
}

/**
 * A font's title specimen drawn for `resourceId` becomes its only specimen, if the resource still
 * exists (a title changed since, or a deleted resource, leaves its older specimens to the sweep).
 */
export async function setSpecimenOwner(db: Db, resourceId: number, key: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const exists = await trx.selectFrom('resources').select('id').where('id', '=', resourceId).executeTakeFirst();
    if (exists) await setMediaOwners(trx, [resourceId], 'specimen', [key]);
  });
}
