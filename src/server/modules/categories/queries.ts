import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

/** Live resource count per category value; categories without resources are absent. */
export async function countByCategory(db: Kysely<Tables>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('resources')
    .select(['category', (eb) => eb.fn.countAll().as('n')])
    .groupBy('category')
    .execute();
  return new Map(rows.map((r) => [r.category, Number(r.n)]));
}
