import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

export async function listActiveAnnouncements(db: Kysely<Tables>, limit: number) {
  return db
    .selectFrom('announcements')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
