import type { Kysely, Updateable } from 'kysely';
import { type Announcement, type AnnouncementCreate, type AnnouncementPatch, WINDOW_ORDER_MESSAGE } from '../../../contract/announcements';
import { badRequest } from '../../errors';
import type { AnnouncementsTable, Tables } from '../../db/schema';
import { nowIso } from '../../time';
import { toAnnouncement } from './mappers';
import { type AuditActor, changedFields, recordAudit } from '../audit/record';

/** What the audit log keeps of an announcement. */
const auditFields = (a: Announcement) => ({ message: a.message, is_active: a.is_active, starts_at: a.starts_at, ends_at: a.ends_at });


/** Newest first, active or not. */
export async function listAnnouncementsForAdmin(db: Kysely<Tables>): Promise<Announcement[]> {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toAnnouncement);
}

/** New announcements start active (shown inside their window, if they have one). Recorded as announcement.create. */
export async function createAnnouncement(db: Kysely<Tables>, input: AnnouncementCreate, adminId: number, actor: AuditActor): Promise<Announcement> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('announcements')
      .values({ message: input.message, is_active: 1, admin_id: adminId, created_at: nowIso(), starts_at: input.starts_at ?? null, ends_at: input.ends_at ?? null })
      .returningAll()
      .executeTakeFirstOrThrow();
    const created = toAnnouncement(row);
    await recordAudit(trx, actor, { action: 'announcement.create', target: { type: 'announcement', id: created.id }, changes: { after: auditFields(created) } });
    return created;
  });
}

/**
 * Undefined for an unknown id. An edit that moves one side of the window is checked against the
 * other side as stored, in the same transaction: a 400 on ends_at, nothing written.
 */
export async function updateAnnouncement(db: Kysely<Tables>, id: number, patch: AnnouncementPatch, actor: AuditActor): Promise<Announcement | undefined> {
  const set: Updateable<AnnouncementsTable> = {};
  if (patch.message !== undefined) set.message = patch.message;
  if (patch.is_active !== undefined) set.is_active = patch.is_active ? 1 : 0;
  if (patch.starts_at !== undefined) set.starts_at = patch.starts_at;
  if (patch.ends_at !== undefined) set.ends_at = patch.ends_at;
  return db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
    if (!old) return undefined;
    const row = Object.keys(set).length === 0 ? old : await trx.updateTable('announcements').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    if (row.starts_at && row.ends_at && row.ends_at <= row.starts_at) throw badRequest(WINDOW_ORDER_MESSAGE, { ends_at: WINDOW_ORDER_MESSAGE });
    const updated = toAnnouncement(row);
    const changes = changedFields(auditFields(toAnnouncement(old)), auditFields(updated)) ?? { before: {}, after: {} };
    await recordAudit(trx, actor, { action: 'announcement.update', target: { type: 'announcement', id }, changes });
    return updated;
  });
}

/** Recorded as announcement.delete, with what it was. */
export async function deleteAnnouncement(db: Kysely<Tables>, id: number, actor: AuditActor): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('announcements').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return false;
    await recordAudit(trx, actor, { action: 'announcement.delete', target: { type: 'announcement', id }, changes: { before: auditFields(toAnnouncement(row)) } });
    return true;
  });
}
