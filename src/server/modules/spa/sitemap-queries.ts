import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** How many resources there are and the highest id (sitemap pages are id ranges). */
export async function sitemapExtent(db: Kysely<Database>): Promise<{ count: number; maxId: number }> {
  const row = await db
    .selectFrom('resources')
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('id').as('max_id')])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), maxId: Number(row.max_id ?? 0) };
}

/** Resources with `after` < id ≤ `through`, by id, `limit` at a time: what a sitemap lists of each. */
export async function sitemapRows(db: Kysely<Database>, after: number, through: number, limit: number) {
  return db
    .selectFrom('resources')
    .select(['id', 'title', 'updated_at'])
    .where('id', '>', after)
    .where('id', '<=', through)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The highest resource id (0 with none): one step down the primary key. */
export async function maxResourceId(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.max('id').as('max_id')).executeTakeFirstOrThrow();
  return Number(row.max_id ?? 0);
}
