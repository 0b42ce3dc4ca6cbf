import type { Database } from '../../db/connection';
import { versionedMemo } from '../../db/versioned-memo';
import { isPublicSql } from '../resources/visibility';

/**
 * Kept while the data version is unchanged: every write that can change a count bumps it (status,
 * category, a new or deleted resource), and at 1,000,000 resources the count reads 1M index
 * entries (120–170 ms), which the public answer's 5-second expiry would otherwise repeat.
 */
const counts = versionedMemo<Map<string, number>>(1);

/** Live count of public resources per category value (resources_public_count); categories without any are absent. */
export async function countByCategory(database: Database): Promise<Map<string, number>> {
  const version = await database.dataVersion();
  const kept = counts.get(database, 'all', version);
  if (kept) return kept;
  const rows = await database.db
    .selectFrom('resources')
    .select(['category', (eb) => eb.fn.countAll().as('n')])
    .where(isPublicSql())
    .groupBy('category')
    .execute();
  const value = new Map(rows.map((r) => [r.category, Number(r.n)]));
  counts.set(database, 'all', version, value);
  return value;
}
