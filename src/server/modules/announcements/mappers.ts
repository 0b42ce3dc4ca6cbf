import type { Selectable } from 'kysely';
import type { Announcement } from '../../../contract/announcements';
import type { AnnouncementsTable } from '../../db/schema';

export function toAnnouncement(row: Selectable<AnnouncementsTable>): Announcement {
  return {
    id: Number(row.id),
    message: row.message,
    is_active: Boolean(Number(row.is_active)),
    admin_id: row.admin_id === null ? null : Number(row.admin_id),
    created_at: row.created_at,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
  };
}
