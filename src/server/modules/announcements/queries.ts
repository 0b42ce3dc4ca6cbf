import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

/** The bell's announcements: active, and inside their window at `now` (either side open when null). */
export async function listActiveAnnouncements(db: Kysely<Tables>, limit: number, now: string) {
  return db
    .selectFrom('announcements')
    .selectAll()
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
