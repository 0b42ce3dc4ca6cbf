import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { isPublicSql } from '../resources/visibility';

/** Downloads per resource per UTC day (migration 018); rows only for days with downloads. */
export interface ResourceDownloadDaysTable {
  resource_id: number;
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

/** The current day's visitors per resource (migration 018): a keyed hash each, dropped after the day. */
export interface DownloadVisitorsTable {
  day: string;
  resource_id: number;
  visitor: string;
}

export type DownloadsDb = Kysely<Tables & { resource_download_days: ResourceDownloadDaysTable; download_visitors: DownloadVisitorsTable }>;

export const downloadsDb = (db: Kysely<Tables>): DownloadsDb =>
  db.withTables<{ resource_download_days: ResourceDownloadDaysTable; download_visitors: DownloadVisitorsTable }>();

/** A public resource's link and count as it stands, for answers that record nothing; undefined for an unknown or non-public id. */
export async function currentDownload(db: Kysely<Tables>, id: number) {
  return db.selectFrom('resources').select(['download_url', 'download_count']).where('id', '=', id).where(isPublicSql()).executeTakeFirst();
}

/** server_secrets holds the day's visitor salt under this name followed by the day. */
export const SALT_PREFIX = 'download-salt:';

/**
 * Drops what only the current day needs once the day is over: earlier days' visitor sets and
 * their salts (without the salt, a stored hash cannot be matched to anyone again). Idempotent,
 * so every instance may run it.
 */
export async function sweepPastDays(db: Kysely<Tables>, today: string): Promise<void> {
  await downloadsDb(db).deleteFrom('download_visitors').where('day', '<', today).execute();
  await db
    .deleteFrom('server_secrets')
    .where('name', 'like', `${SALT_PREFIX}%`)
    .where('name', '<', `${SALT_PREFIX}${today}`)
    .execute();
}

type PerDay = { day: string; count: number }[];

/** Zero-filled, in the order of `days`. */
function fill(days: string[], rows: { day: string; count: number | string | bigint }[]): PerDay {
  const byDay = new Map(rows.map((r) => [r.day, Number(r.count)]));
  return days.map((day) => ({ day, count: byDay.get(day) ?? 0 }));
}

/** Every download per day over `days` (from download_days: kept since before per-resource counts). */
export async function downloadsPerDay(db: Kysely<Tables>, days: string[]): Promise<PerDay> {
  const rows = await db.selectFrom('download_days').select(['day', 'count']).where('day', '>=', days[0]).where('day', '<=', days[days.length - 1]).execute();
  return fill(days, rows);
}

/** Downloads over `days` by the category of the resource. */
export async function downloadsByCategory(db: Kysely<Tables>, days: string[]): Promise<Map<string, number>> {
  const rows = await downloadsDb(db)
    .selectFrom('resource_download_days as d')
    .innerJoin('resources as r', 'r.id', 'd.resource_id')
    .select((eb) => ['r.category', eb.fn.sum<number>('d.count').as('n')])
    .where('d.day', '>=', days[0])
    .where('d.day', '<=', days[days.length - 1])
    .groupBy('r.category')
    .execute();
  return new Map(rows.map((r) => [r.category, Number(r.n)]));
}

/** One resource: its all-time count, rank in its category, and downloads per day over `days`; undefined when there is none. */
export async function resourceDownloads(db: Kysely<Tables>, id: number, days: string[]) {
  const resource = await db.selectFrom('resources').select(['id', 'title', 'category', 'download_count']).where('id', '=', id).executeTakeFirst();
  if (!resource) return undefined;
  const [ahead, size, rows] = await Promise.all([
    db
      .selectFrom('resources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('category', '=', resource.category)
      .where('download_count', '>', resource.download_count)
      .executeTakeFirstOrThrow(),
    db.selectFrom('resources').select((eb) => eb.fn.countAll<number>().as('n')).where('category', '=', resource.category).executeTakeFirstOrThrow(),
    downloadsDb(db)
      .selectFrom('resource_download_days')
      .select(['day', 'count'])
      .where('resource_id', '=', id)
      .where('day', '>=', days[0])
      .where('day', '<=', days[days.length - 1])
      .execute(),
  ]);
  return {
    id: Number(resource.id),
    title: resource.title,
    category: resource.category,
    total: Number(resource.download_count),
    rank: Number(ahead.n) + 1,
    categorySize: Number(size.n),
    days: fill(days, rows),
  };
}
