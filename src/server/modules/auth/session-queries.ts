import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { type AuditActor, recordAudit } from '../audit/record';

// The SQL behind one's own sessions and password (sessions-routes.ts). Each write is one
// transaction, with its audit entry by `actor` (decision 420); a write that changed nothing records nothing.

export interface SessionListRow {
  id: string;
  public_id: string;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** An admin's sessions still live at `now` (not expired, begun after `startedAfter`), last used first. */
export async function listLiveSessions(db: Kysely<Tables>, adminId: number, now: string, startedAfter: string): Promise<SessionListRow[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'public_id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .where('admin_id', '=', adminId)
    .where('expires_at', '>', now)
    .where('created_at', '>', startedAfter)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/** Ends the admin's session named `publicId`: its row id when it was theirs, else undefined (nothing changed). */
export async function endOwnSession(db: Kysely<Tables>, actor: AuditActor, adminId: number, publicId: string, currentId: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('sessions')
      .where('public_id', '=', publicId)
      .where('admin_id', '=', adminId)
      .returning(['id', 'ip', 'user_agent'])
      .executeTakeFirst();
    if (!row) return undefined;
    // Where the ended session was used from, as the session list showed it.
    await recordAudit(trx, actor, {
      action: 'session.end',
      target: { type: 'session', id: publicId },
      changes: { before: { ip: row.ip, user_agent: row.user_agent }, current: row.id === currentId },
    });
    return row.id;
  });
}

/** Ends every session of the admin but `keepId`; how many ended. */
export async function endOtherSessions(db: Kysely<Tables>, actor: AuditActor, adminId: number, keepId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom('sessions').where('admin_id', '=', adminId).where('id', '<>', keepId).executeTakeFirst();
    const ended = Number(r.numDeletedRows);
    if (ended > 0) await recordAudit(trx, actor, { action: 'session.end_others', target: { type: 'admin', id: adminId }, changes: { ended } });
    return ended;
  });
}

export async function findPasswordHash(db: Kysely<Tables>, adminId: number): Promise<string | undefined> {
  const row = await db.selectFrom('admins').select('password_hash').where('id', '=', adminId).executeTakeFirst();
  return row?.password_hash;
}

/**
 * One's own password change, in one transaction: the new hash, the must-change mark cleared, and
 * every other session of the admin ended. Undefined (nothing changed) when the session `keepId`
 * ended meanwhile (signed out from another device); else how many other sessions ended.
 */
export async function changeOwnPassword(
  db: Kysely<Tables>,
  actor: AuditActor,
  c: { adminId: number; keepId: string; passwordHash: string },
): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const still = await trx.selectFrom('sessions').select('id').where('id', '=', c.keepId).where('admin_id', '=', c.adminId).executeTakeFirst();
    if (!still) return undefined;
    await trx.updateTable('admins').set({ password_hash: c.passwordHash, must_change_password: 0 }).where('id', '=', c.adminId).execute();
    const r = await trx.deleteFrom('sessions').where('admin_id', '=', c.adminId).where('id', '<>', c.keepId).executeTakeFirst();
    const ended = Number(r.numDeletedRows);
    // That it changed and what it ended; never a password or hash.
    await recordAudit(trx, actor, { action: 'auth.password_change', target: { type: 'admin', id: c.adminId }, changes: { sessions_ended: ended } });
    return ended;
  });
}
