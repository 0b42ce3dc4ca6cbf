import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

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

export type DownloadsDb = Kysely<Database & { resource_download_days: ResourceDownloadDaysTable; download_visitors: DownloadVisitorsTable }>;

export const downloadsDb = (db: Kysely<Database>): DownloadsDb =>
  db.withTables<{ resource_download_days: ResourceDownloadDaysTable; download_visitors: DownloadVisitorsTable }>();

/** server_secrets holds the day's visitor salt under this name followed by the day. */
export const SALT_PREFIX = 'download-salt:';

/**
 * Drops what only the current day needs once the day is over: earlier days' visitor sets and
 * their salts (without the salt, a stored hash cannot be matched to anyone again). Idempotent,
 * so every instance may run it.
 */
export async function sweepPastDays(db: Kysely<Database>, today: string): Promise<void> {
  await downloadsDb(db).deleteFrom('download_visitors').where('day', '<', today).execute();
  await db
    .deleteFrom('server_secrets')
    .where('name', 'like', `${SALT_PREFIX}%`)
    .where('name', '<', `${SALT_PREFIX}${today}`)
    .execute();
}
