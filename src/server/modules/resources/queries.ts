import { type Kysely, sql } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { PUBLIC_COLUMNS } from './columns';
import { isPublicRow, isPublicSql, notTrashedSql } from './visibility';

// The public list (filters, sorts, search) is search/index.ts; these are the simple reads.

const SELECTED = PUBLIC_COLUMNS.map((c) => `resources.${c}` as const);

export async function listByCategoryNewest(db: Kysely<Tables>, category: CategoryValue, limit: number) {
  return db
    .selectFrom('resources')
    .select(SELECTED)
    .where('resources.category', '=', category)
    .where(isPublicSql())
    .orderBy('resources.created_at', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit)
    .execute();
}

/** How many resources the public sees (the home's live "Total Resources"): counted in resources_public_count. */
export async function countPublicResources(db: Kysely<Tables>): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.countAll<number>().as('n')).where(isPublicSql()).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A resource as visitors see it; undefined when there is none or it is not public (visibility.ts). */
export async function getPublicResource(db: Kysely<Tables>, id: number) {
  return db.selectFrom('resources').select(SELECTED).where('resources.id', '=', id).where(isPublicSql()).executeTakeFirst();
}

/** A resource as visitors would see it, whatever its status but the trash: an admin's preview link (preview-links.ts). */
export async function getResourceForPreview(db: Kysely<Tables>, id: number) {
  return db.selectFrom('resources').select(SELECTED).where('resources.id', '=', id).where(notTrashedSql()).executeTakeFirst();
}

/** Resources read per shared tag when looking for related ones: bounds the work for a tag thousands share. */
const RELATED_PER_TAG = 200;

/**
 * Up to `limit` resources to show beside one: of the same category, those sharing the most of its
 * tags first (then the most popular), topped up with the category's most popular. Bounded at any
 * size: at most RELATED_PER_TAG index entries per tag (resource_tags_tag), one read of those rows
 * by primary key (category checked on the rows read), and one short walk of resources_cat_popular.
 */
export async function listRelated(database: Database, resource: RelatedTo, limit: number) {
  const byTags = database.dialect === 'postgres' ? await sharingTagsPostgres(database.db, resource, limit) : await sharingTags(database.db, resource, limit);
  if (byTags.length >= limit) return byTags;
  const taken = new Set([resource.id, ...byTags.map((r) => Number(r.id))]);
  const popular = await database.db
    .selectFrom('resources')
    .select(SELECTED)
    .where('resources.category', '=', resource.category)
    .where(isPublicSql())
    .orderBy('resources.popularity', 'desc')
    .orderBy('resources.download_count', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit + taken.size)
    .execute();
  return [...byTags, ...popular.filter((r) => !taken.has(Number(r.id)))].slice(0, limit);
}

interface RelatedTo {
  id: number;
  category: CategoryValue;
  tagKeys: readonly string[];
}

/** The resources of the category sharing the most tags, best first (SQLite: each step its own statement, all cheap there). */
async function sharingTags(db: Kysely<Tables>, resource: RelatedTo, limit: number) {
  const shared = new Map<number, number>();
  const perTag = await Promise.all(
    resource.tagKeys.map((tag) =>
      db
        .selectFrom('resource_tags')
        .select('resource_id')
        .where('tag', '=', tag)
        .where('resource_id', '<>', resource.id)
        .orderBy('resource_id', 'desc')
        .limit(RELATED_PER_TAG)
        .execute(),
    ),
  );
  for (const rows of perTag) for (const { resource_id } of rows) shared.set(Number(resource_id), (shared.get(Number(resource_id)) ?? 0) + 1);
  const candidates = [...shared.keys()];
  // Ranked on the few columns it needs; only the chosen rows are read whole. The category is checked
  // here, not in SQL: with `category = ?` beside the ids SQLite walked the category's whole index
  // (resources_cat_popular, 125,000 entries at 1M: 14–18 ms) instead of looking the ids up (~2 ms).
  const ranked =
    candidates.length === 0
      ? []
      : (await db.selectFrom('resources').select(['id', 'popularity', 'category', 'status']).where('id', 'in', candidates).execute())
          .filter((r) => r.category === resource.category && isPublicRow(r))
          .sort((a, b) => shared.get(Number(b.id))! - shared.get(Number(a.id))! || Number(b.popularity) - Number(a.popularity) || Number(b.id) - Number(a.id))
          .slice(0, limit)
          .map((r) => Number(r.id));
  const rows = ranked.length === 0 ? [] : await db.selectFrom('resources').select(SELECTED).where('resources.id', 'in', ranked).execute();
  return ranked.flatMap((id) => rows.filter((r) => Number(r.id) === id));
}

/**
 * The same on PostgreSQL in one statement instead of the seven above: one round trip and one plan, which
 * measured faster there (docs/performance.md, "Resource pages and the sitemap at 1,000,000").
 * Per tag a lateral walk of resource_tags_tag, shared tags counted, the candidates looked up by id.
 */
async function sharingTagsPostgres(db: Kysely<Tables>, resource: RelatedTo, limit: number) {
  if (resource.tagKeys.length === 0) return [];
  const ranked = db
    .selectFrom(
      sql<{ resource_id: number; shared: number }>`(
        select w.resource_id, count(*) as shared
        from unnest(${[...resource.tagKeys]}::text[]) as g(tag)
        cross join lateral (
          select resource_id from resource_tags where tag = g.tag and resource_id <> ${resource.id} order by resource_id desc limit ${RELATED_PER_TAG}
        ) w
        group by w.resource_id
      )`.as('t'),
    )
    .innerJoin('resources as c', 'c.id', 't.resource_id')
    .select(['c.id', 't.shared', 'c.popularity'])
    .where('c.category', '=', resource.category)
    .where(isPublicSql('c'))
    .orderBy('t.shared', 'desc')
    .orderBy('c.popularity', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .innerJoin('resources', 'resources.id', 'ranked.id')
    .select(SELECTED)
    .orderBy('ranked.shared', 'desc')
    .orderBy('ranked.popularity', 'desc')
    .orderBy('ranked.id', 'desc')
    .execute();
}
