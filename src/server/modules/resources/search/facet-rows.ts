import { type Kysely, sql } from 'kysely';
import { FORMAT_PATTERN } from '../../../../contract/resources';
import type { Tables } from '../../../db/schema';
import { listingExtensions, resourceApps } from '../../listings/answers';
import { previewFacts } from '../../media/preview-answers';

/**
 * The facet rows of a resource (migration 039's resource_facets), what the list's filters and
 * facets read: its apps (as the API shows them: an admin's correction, else deduced), the
 * extensions inside its download, its orientation and height (video, before/after image) and its
 * duration (video, sound). Computed here only, from what the API shows: previewFacts and
 * resourceApps.
 */

export type FacetKind = 'app' | 'format' | 'orientation' | 'height' | 'duration';

export interface FacetRow {
  resource_id: number;
  kind: FacetKind;
  /** The app id, the extension, the orientation; '' for height and duration. */
  value: string;
  /** The height in pixels, the duration in seconds; null for the others. */
  number: number | null;
  category: string;
}

/** What the facets are computed from: the resource's columns and its download's listing. */
export interface FacetSource {
  id: number;
  category: string;
  preview: string | null;
  apps: string | null | undefined;
  listing_extensions: string | null | undefined;
}

export function facetRowsOf(r: FacetSource): FacetRow[] {
  const facts = previewFacts(r.preview);
  const file = { listing_extensions: r.listing_extensions ?? null };
  const row = (kind: FacetKind, value: string, number: number | null = null): FacetRow => ({ resource_id: r.id, kind, value, number, category: r.category });
  const rows = resourceApps(r.apps, file, facts?.kind).apps.map((a) => row('app', a.id));
  for (const ext of Object.keys(listingExtensions(file))) if (FORMAT_PATTERN.test(ext)) rows.push(row('format', ext));
  if (facts && (facts.kind === 'video' || facts.kind === 'image-pair')) {
    rows.push(row('orientation', facts.orientation));
    if (Number.isFinite(facts.height) && facts.height > 0) rows.push(row('height', '', facts.height));
  }
  if (facts && (facts.kind === 'video' || facts.kind === 'audio') && Number.isFinite(facts.duration) && facts.duration >= 0) {
    rows.push(row('duration', '', facts.duration));
  }
  return rows;
}

/** Rows per INSERT: 5 columns, under SQLite's bind parameter limit. */
const INSERT_ROWS = 2000;

/**
 * Computes the facet rows of up to `max` resources marked stale (by migration 039's triggers, when a
 * preview, apps, category, download or the download's listing changes) and clears their mark; the
 * number done. Writers call it in the transaction of their change (so the rows are right when it
 * commits); the search calls it before reading, for SQL from outside the app. A resource marked
 * stale has no facet rows until then: it matches no filter, never one it should not.
 */
export async function refreshStaleFacets(db: Kysely<Tables>, max = 500): Promise<number> {
  const { rows: marked } = await sql<{ resource_id: number }>`delete from resource_facets_stale
    where resource_id in (select resource_id from resource_facets_stale order by resource_id limit ${max})
    returning resource_id`.execute(db);
  if (marked.length === 0) return 0;
  const ids = marked.map((m) => Number(m.resource_id));
  const sources = await db
    .selectFrom('resources')
    .leftJoin('files', 'files.id', 'resources.download_file_id')
    .select(['resources.id', 'resources.category', 'resources.preview', 'resources.apps', 'files.listing_extensions'])
    .where('resources.id', 'in', ids)
    .execute();
  await db.deleteFrom('resource_facets').where('resource_id', 'in', ids).execute();
  const rows = sources.flatMap((s) => facetRowsOf({ ...s, id: Number(s.id) }));
  for (let k = 0; k < rows.length; k += INSERT_ROWS) await db.insertInto('resource_facets').values(rows.slice(k, k + INSERT_ROWS)).execute();
  return ids.length;
}

/**
 * A writer's call, last in the transaction that changed a preview, apps, category, download or a
 * download's listing: the resources it marked stale (and any others left so) get their rows before it commits.
 */
export async function writeStaleFacets(db: Kysely<Tables>): Promise<void> {
  while ((await refreshStaleFacets(db, 2000)) > 0);
}
