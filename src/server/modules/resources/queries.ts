import { type Kysely, sql } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Database } from '../../db/connection';
import { PREPARED } from '../../db/prepared';
import type { Tables } from '../../db/schema';
import { PUBLIC_COLUMNS } from './columns';
import { isPublicSql, notTrashedSql } from './visibility';

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
  return db.selectFrom('resources').modifyFront(PREPARED).select(SELECTED).where('resources.id', '=', id).where(isPublicSql()).executeTakeFirst();
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
 * size: at most RELATED_PER_TAG index entries per tag (resource_tags_tag), those rows looked up by id
 * (category checked on the rows read; on PostgreSQL in resources_related, which holds what the
 * ranking reads, migration 042), and one short walk of resources_cat_popular.
 */
export async function listRelated(database: Database, resource: RelatedTo, limit: number) {
  const byTags = await sharingTags(database.db, resource, limit);
  if (byTags.length >= limit) return byTags;
  const taken = new Set([resource.id, ...byTags.map((r) => Number(r.id))]);
  const popular = await database.db
    .selectFrom('resources')
    .modifyFront(PREPARED)
    .select(SELECTED)
    .where('resources.category', '=', resource.category)
    .where(isPublicSql())
    .orderBy('resources.popularity', 'desc')
    .orderBy('resources.download_count', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(sql.lit(limit + taken.size))
    .execute();
  return [...byTags, ...popular.filter((r) => !taken.has(Number(r.id)))].slice(0, limit);
}

interface RelatedTo {
  id: number;
  category: CategoryValue;
  tagKeys: readonly string[];
}

/**
 * The resources of the category sharing the most tags, best first, in one statement on both
 * databases: per tag a walk of resource_tags_tag (newest RELATED_PER_TAG), shared tags counted, the
 * candidates ranked on the few columns it needs, and only the chosen rows read whole. `cross join`
 * keeps SQLite's order (candidates first, each looked up by id): with `category = ?` free to choose,
 * SQLite walked the category's whole index (resources_cat_popular, 125,000 entries at 1M: 14–18 ms)
 * instead of looking the ids up (~2 ms). One round trip and one plan instead of a statement per tag
 * and a list of up to 1,000 ids built in JavaScript (docs/performance.md, "Resource pages and the sitemap at 1,000,000").
 */
async function sharingTags(db: Kysely<Tables>, resource: RelatedTo, limit: number) {
  if (resource.tagKeys.length === 0) return [];
  const perTag = resource.tagKeys.map(
    (tag) =>
      sql`select resource_id from (select resource_id from resource_tags where tag = ${tag} and resource_id <> ${resource.id} order by resource_id desc limit ${sql.lit(RELATED_PER_TAG)}) w`,
  );
  const ranked = sql<{ id: number; shared: number; popularity: number }>`(
    select c.id, t.shared, c.popularity
    from (select resource_id, count(*) as shared from (${sql.join(perTag, sql` union all `)}) u group by resource_id) t
    cross join resources c
    where c.id = t.resource_id and c.category = ${resource.category} and ${isPublicSql('c')}
    order by t.shared desc, c.popularity desc, c.id desc
    limit ${sql.lit(limit)}
  )`;
  return db
    .selectFrom(ranked.as('ranked'))
    .modifyFront(PREPARED)
    .crossJoin('resources')
    .select(SELECTED)
    .whereRef('resources.id', '=', 'ranked.id')
    .orderBy('ranked.shared', 'desc')
    .orderBy('ranked.popularity', 'desc')
    .orderBy('ranked.id', 'desc')
    .execute();
}
