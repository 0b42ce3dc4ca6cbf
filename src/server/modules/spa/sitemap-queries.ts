import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/** Public resources with `after` < id ≤ `through`, by id, `limit` at a time: what a sitemap lists of each. */
export async function sitemapRows(db: Kysely<Tables>, after: number, through: number, limit: number) {
  return db
    .selectFrom('resources')
    .select(['id', 'title', 'updated_at'])
    .where('id', '>', after)
    .where('id', '<=', through)
    .where(isPublicSql())
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The highest resource id (0 with none): one step down the primary key. */
export async function maxResourceId(db: Kysely<Tables>): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.max('id').as('max_id')).executeTakeFirstOrThrow();
  return Number(row.max_id ?? 0);
}
