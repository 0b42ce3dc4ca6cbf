import type { Kysely, Updateable } from 'kysely';
import type { Announcement, AnnouncementPatch } from '../../../contract/announcements';
import type { AnnouncementsTable, Tables } from '../../db/schema';
import { nowIso } from '../../time';
import { toAnnouncement } from './mappers';


/** Newest first, active or not. */
export async function listAnnouncementsForAdmin(db: Kysely<Tables>): Promise<Announcement[]> {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toAnnouncement);
}

/** New announcements start active. */
export async function createAnnouncement(db: Kysely<Tables>, message: string, adminId: number): Promise<Announcement> {
  const row = await db
    .insertInto('announcements')
    .values({ message, is_active: 1, admin_id: adminId, created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAnnouncement(row);
}

/** Undefined for an unknown id. */
export async function updateAnnouncement(db: Kysely<Tables>, id: number, patch: AnnouncementPatch): Promise<Announcement | undefined> {
  const set: Updateable<AnnouncementsTable> = {};
  if (patch.message !== undefined) set.message = patch.message;
  if (patch.is_active !== undefined) set.is_active = patch.is_active ? 1 : 0;
  const row = await db.updateTable('announcements').set(set).where('id', '=', id).returningAll().executeTakeFirst();
  return row ? toAnnouncement(row) : undefined;
}

export async function deleteAnnouncement(db: Kysely<Tables>, id: number): Promise<boolean> {
  const r = await db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
