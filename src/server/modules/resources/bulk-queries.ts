import type { Transaction } from 'kysely';
import type { CategoryValue } from '../../../contract/categories';
import type { AdminResourceIds } from '../../../contract/bulk';
import type { ResourceStatus } from '../../../contract/resources';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { parseTags } from './mappers';
import { resourceSearch } from './search';
import { notTrashedSql } from './visibility';

/** What a bulk action needs of a resource to decide its change. */
export interface BulkTarget {
  status: ResourceStatus;
  category: CategoryValue;
  is_premium: boolean;
  tags: string[];
}

/**
 * The resource as it is inside `trx`, locked on PostgreSQL until the transaction ends (an add of
 * tags reads them and writes them back: a save in between must wait, not be lost); undefined for
 * an unknown id or one in the trash. SQLite has one writer at a time, so the transaction's first write holds it.
 */
export async function readBulkTarget(trx: Transaction<Tables>, database: Database, id: number): Promise<BulkTarget | undefined> {
  // A resource in the trash is out of the admin's list and edits: no bulk action reaches it (restore first).
  let q = trx.selectFrom('resources').select(['status', 'category', 'is_premium', 'tags']).where('id', '=', id).where(notTrashedSql());
  if (database.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return (
    row && {
      status: row.status as ResourceStatus,
      category: row.category as CategoryValue,
      is_premium: Boolean(Number(row.is_premium)),
      tags: parseTags(row.tags),
    }
  );
}

/**
 * The ids of the admin list's matches (same filters, plan and order: newest first), at most
 * `max`, with the list's total. One read of the list's rows, as its pages make.
 */
export async function matchingIdsForAdmin(
  database: Database,
  filters: { category?: CategoryValue; q?: string; status?: ResourceStatus; links?: 'broken' },
  max: number,
): Promise<AdminResourceIds> {
  const search = resourceSearch(database);
  const dataVersion = await database.dataVersion({ fresh: true });
  const { filter, plan } = await search.planAdminList({ ...filters, brokenLinks: filters.links === 'broken' }, dataVersion);
  if (plan.exact && plan.total === 0) return { ids: [], total: 0, totalExact: true };
  const rows = await search.adminRows(filter, plan, 'older', undefined, max);
  // A search counted up to its cap may find more rows than it counted.
  return { ids: rows.map((r) => Number(r.id)), total: Math.max(plan.total, rows.length), totalExact: plan.exact };
}
