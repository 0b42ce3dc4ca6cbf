import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/** Live count of public resources per category value (resources_public_count); categories without any are absent. */
export async function countByCategory(db: Kysely<Tables>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('resources')
    .select(['category', (eb) => eb.fn.countAll().as('n')])
    .where(isPublicSql())
    .groupBy('category')
    .execute();
  return new Map(rows.map((r) => [r.category, Number(r.n)]));
}
