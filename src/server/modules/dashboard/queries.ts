import { type Kysely, sql } from 'kysely';
import { CATEGORY_VALUES, type CategoryValue } from '../../../contract/categories';
import { DASHBOARD_DAYS, DASHBOARD_TOP_RESOURCES } from '../../../contract/constants';
import type { Dashboard } from '../../../contract/dashboard';
import type { Tables } from '../../db/schema';
import { dayOf } from '../../time';
import { notTrashedSql } from '../resources/visibility';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC days of the window ending today, oldest first. */
export function dashboardDays(today: Date, days = DASHBOARD_DAYS): string[] {
  return Array.from({ length: days }, (_, i) => dayOf(new Date(today.getTime() - (days - 1 - i) * DAY_MS)));
}

/**
 * Aggregates computed in the database; total_admins only for super users. Resources in the trash
 * are not counted as resources nor listed until restored; downloads they had stay in the total
 * until they are purged (docs/decisions/400-what-the-trash-counts.md).
 */
export async function getDashboard(db: Kysely<Tables>, opts: { includeAdmins: boolean }): Promise<Dashboard> {
  const [totals, active, admins, perCategory, top] = await Promise.all([
    db
      .selectFrom('resources')
      .select((eb) => [
        sql<number>`coalesce(sum(case when ${notTrashedSql()} then 1 else 0 end), 0)`.as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('download_count'), eb.lit(0)).as('downloads'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('announcements')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow(),
    opts.includeAdmins
      ? db.selectFrom('admins').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      : undefined,
    db
      .selectFrom('resources')
      .select((eb) => ['category', eb.fn.countAll<number>().as('n')])
      .where(notTrashedSql())
      .groupBy('category')
      .execute(),
    db
      .selectFrom('resources')
      .select(['id', 'title', 'category', 'download_count'])
      .where(notTrashedSql())
      .orderBy('download_count', 'desc')
      .orderBy('id', 'asc')
      .limit(DASHBOARD_TOP_RESOURCES)
      .execute(),
  ]);

  const byCategory = new Map(perCategory.map((r) => [r.category, Number(r.n)]));
  return {
    total_resources: Number(totals.n),
    active_announcements: Number(active.n),
    total_downloads: Number(totals.downloads),
    total_admins: admins ? Number(admins.n) : null,
    categories: CATEGORY_VALUES.map((category) => ({ category, count: byCategory.get(category) ?? 0 })),
    top_resources: top.map((r) => ({
      id: Number(r.id),
      title: r.title,
      category: r.category as CategoryValue,
      download_count: Number(r.download_count),
    })),
  };
}
