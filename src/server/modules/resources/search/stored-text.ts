import type { Kysely } from 'kysely';
import { foldForSearch } from '../../../../contract/search-fold';
import type { Tables } from '../../../db/schema';
import { tagKeys } from '../mappers';
import type { StoredSearchColumns } from './backend';

/**
 * What is stored for searching a resource, computed here and nowhere else (neither database folds
 * text itself): its search text — the folded title, description and tags, a newline between fields
 * (no query holds one, so no match spans two fields) and each tag as \x01tag\x01 (no text holds
 * \x01, so a phrase of it is a whole tag) — and its tag keys. Every write of a title, a description
 * or tags writes these too (SearchBackend.writeStoredColumns).
 */
export function storedSearchColumns(resource: { id: number; title: string; description: string; tags: readonly string[] }): StoredSearchColumns {
  return { id: resource.id, ...foldedColumns(resource) };
}

/** The stored search text and tag keys of a resource (see storedSearchColumns). */
export function foldedColumns(resource: { title: string; description: string; tags: readonly string[] }): Omit<StoredSearchColumns, 'id'> {
  const tags = resource.tags.map((t) => `\u0001${foldForSearch(t)}\u0001`).join('');
  return {
    search_text: `${foldForSearch(resource.title)}\n${foldForSearch(resource.description)}\n${tags}`,
    tag_keys: tagKeys(resource.tags),
  };
}

/**
 * Writes the resource_tags rows (tag keys) of these resources anew. A row another writer added
 * meanwhile is the same key: kept (the rows are the same whoever writes them).
 */
export async function writeTagRows(db: Kysely<Tables>, resources: { id: number; tags: readonly string[] }[]): Promise<void> {
  if (resources.length === 0) return;
  await db.deleteFrom('resource_tags').where('resource_id', 'in', resources.map((r) => r.id)).execute();
  const rows = resources.flatMap((r) => tagKeys(r.tags).map((tag) => ({ resource_id: r.id, tag })));
  if (rows.length > 0) await db.insertInto('resource_tags').values(rows).onConflict((oc) => oc.doNothing()).execute();
}
