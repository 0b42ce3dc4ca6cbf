import { type Kysely, PostgresAdapter, sql } from 'kysely';
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

/**
 * The extensions inside a download that become its `format` rows: the most frequent ones (then by
 * name). A real pack holds a few; a ZIP of thousands of odd names would otherwise make as many rows
 * and a profile too long for the sort index that holds it (migration 041; PostgreSQL's B-tree takes
 * at most ~2.7 KB a row). With at most 40, a profile stays under ~1.3 KB.
 */
export const FORMAT_ROWS_MAX = 40;

/**
 * Extensions that are not a pack's format (decision 468): its read-me and notes (`txt`, `md`, `rtf`,
 * `nfo`) and saved web links (`url`, `webloc`). Nearly every pack holds one, so as formats they topped
 * every list and narrowed nothing. They stay in the listing ("What's inside").
 */
export const NOT_FORMATS: ReadonlySet<string> = new Set(['txt', 'md', 'rtf', 'nfo', 'url', 'webloc']);

export function facetRowsOf(r: FacetSource): FacetRow[] {
  const facts = previewFacts(r.preview);
  const file = { listing_extensions: r.listing_extensions ?? null };
  const row = (kind: FacetKind, value: string, number: number | null = null): FacetRow => ({ resource_id: r.id, kind, value, number, category: r.category });
  const rows = resourceApps(r.apps, file, facts?.kind).apps.map((a) => row('app', a.id));
  const formats = Object.entries(listingExtensions(file))
    .filter(([ext]) => FORMAT_PATTERN.test(ext) && !NOT_FORMATS.has(ext))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FORMAT_ROWS_MAX);
  for (const [ext] of formats) rows.push(row('format', ext));
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
 * A resource's facet rows as one string (resources.facet_profile, migration 041): `kind=value`, or
 * `kind=number` for height and duration, space-separated; null without any. What a bounded scan
 * reads from the sort index (search/filters.ts profileOf) instead of looking up each resource's rows.
 */
export function facetProfile(rows: readonly FacetRow[]): string | null {
  return rows.length === 0 ? null : rows.map((r) => `${r.kind}=${r.number ?? r.value}`).join(' ');
}

/** Resources per UPDATE of their profiles: 3 parameters each, under SQLite's bind parameter limit. */
const PROFILE_ROWS = 500;

/**
 * Computes the facet rows of up to `max` resources marked stale (by migration 039's triggers, when a
 * preview, apps, category, download or the download's listing changes) and clears their mark; the
 * number done. Writers call it in the transaction of their change (so the rows are right when it
 * commits); the search calls it before reading, for SQL from outside the app. A resource marked
 * stale has no facet rows and no profile until then (041's triggers clear it): it matches no
 * filter, never one it should not.
 */
export function computeStaleFacets(db: Kysely<Tables>, max = 500): Promise<number> {
  return refresh(db, max, true);
}

/** Migration 039's backfill, which ran before resources.facet_profile existed (041): the rows alone. */
export function refreshStaleFacets(db: Kysely<Tables>, max = 500): Promise<number> {
  return refresh(db, max, false);
}

async function refresh(db: Kysely<Tables>, max: number, profiles: boolean): Promise<number> {
  // On PostgreSQL the resources are locked first, and one another transaction holds is left to it
  // (its writer computes it before committing; else the next search does): writing its profile
  // would wait for that transaction while it may wait for this one's data_version bump, a deadlock.
  const pick =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`select s.resource_id from resource_facets_stale s join resources r on r.id = s.resource_id
          order by s.resource_id limit ${max} for no key update of r skip locked`
      : sql`select resource_id from resource_facets_stale order by resource_id limit ${max}`;
  const { rows: marked } = await sql<{ resource_id: number }>`delete from resource_facets_stale
    where resource_id in (${pick}) returning resource_id`.execute(db);
  if (marked.length === 0) return 0;
  const ids = marked.map((m) => Number(m.resource_id));
  const sources = await db
    .selectFrom('resources')
    .leftJoin('files', 'files.id', 'resources.download_file_id')
    .select(['resources.id', 'resources.category', 'resources.preview', 'resources.apps', 'files.listing_extensions'])
    .where('resources.id', 'in', ids)
    .execute();
  await db.deleteFrom('resource_facets').where('resource_id', 'in', ids).execute();
  const each = sources.map((s) => facetRowsOf({ ...s, id: Number(s.id) }));
  const rows = each.flat();
  for (let k = 0; k < rows.length; k += INSERT_ROWS) await db.insertInto('resource_facets').values(rows.slice(k, k + INSERT_ROWS)).execute();
  if (profiles) {
    const written = sources.map((s, i) => ({ id: Number(s.id), profile: facetProfile(each[i]) }));
    for (let k = 0; k < written.length; k += PROFILE_ROWS) {
      const batch = written.slice(k, k + PROFILE_ROWS);
      await sql`update resources set facet_profile = case id ${sql.join(batch.map((b) => sql`when ${b.id} then ${b.profile}`), sql` `)} end
        where id in (${sql.join(batch.map((b) => b.id))})`.execute(db);
    }
  }
  return ids.length;
}

/**
 * A writer's call, last in the transaction that changed a preview, apps, category, download or a
 * download's listing: the resources it marked stale (and any others left so) get their rows before it commits.
 */
export async function writeStaleFacets(db: Kysely<Tables>): Promise<void> {
  while ((await computeStaleFacets(db, 2000)) > 0);
}
