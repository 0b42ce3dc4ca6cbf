import { type Kysely, sql } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/**
 * A resource's category (its generated thumbnail's colours) and whether the public may see it;
 * undefined when there is none.
 */
export async function getResourceCategory(db: Kysely<Tables>, id: number): Promise<{ category: string; isPublic: boolean } | undefined> {
  const row = await db
    .selectFrom('resources')
    .select(['category', sql<number | boolean>`(${isPublicSql()})`.as('is_public')])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { category: row.category, isPublic: Boolean(Number(row.is_public)) };
}
