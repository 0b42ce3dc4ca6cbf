import type { Kysely } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { Tables } from '../../db/schema';
import { PUBLIC_COLUMNS } from './columns';

// The public list (filters, sorts, search) is search/index.ts; these are the simple reads.

const SELECTED = PUBLIC_COLUMNS.map((c) => `resources.${c}` as const);

export async function listByCategoryNewest(db: Kysely<Tables>, category: CategoryValue, limit: number) {
  return db
    .selectFrom('resources')
    .select(SELECTED)
    .where('resources.category', '=', category)
    .orderBy('resources.created_at', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit)
    .execute();
}

export async function getPublicResource(db: Kysely<Tables>, id: number) {
  return db.selectFrom('resources').select(SELECTED).where('resources.id', '=', id).executeTakeFirst();
}

/** Resources read per shared tag when looking for related ones: bounds the work for a tag thousands share. */
const RELATED_PER_TAG = 200;

/**
 * Up to `limit` resources to show beside one: of the same category, those sharing the most of its
 * tags first (then the most popular), topped up with the category's most popular. Bounded at any
 * size: at most RELATED_PER_TAG index entries per tag (resource_tags_tag), one read of those rows
 * by primary key (category checked on the rows read), and one short walk of resources_cat_popular.
 */
export async function listRelated(
  db: Kysely<Tables>,
  resource: { id: number; category: CategoryValue; tagKeys: readonly string[] },
  limit: number,
) {
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
      : (await db.selectFrom('resources').select(['id', 'popularity', 'category']).where('id', 'in', candidates).execute())
          .filter((r) => r.category === resource.category)
          .sort((a, b) => shared.get(Number(b.id))! - shared.get(Number(a.id))! || Number(b.popularity) - Number(a.popularity) || Number(b.id) - Number(a.id))
          .slice(0, limit)
          .map((r) => Number(r.id));
  const rows = ranked.length === 0 ? [] : await db.selectFrom('resources').select(SELECTED).where('resources.id', 'in', ranked).execute();
  const byTags = ranked.flatMap((id) => rows.filter((r) => Number(r.id) === id));
  if (byTags.length >= limit) return byTags;
  const taken = new Set([resource.id, ...byTags.map((r) => Number(r.id))]);
  const popular = await db
    .selectFrom('resources')
    .select(SELECTED)
    .where('resources.category', '=', resource.category)
    .orderBy('resources.popularity', 'desc')
    .orderBy('resources.download_count', 'desc')
    .orderBy('resources.id', 'desc')
    .limit(limit + taken.size)
    .execute();
  return [...byTags, ...popular.filter((r) => !taken.has(Number(r.id)))].slice(0, limit);
}
