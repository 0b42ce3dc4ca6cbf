import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';

// The SQL behind one's own sessions and password (sessions-routes.ts). Each write is one
// transaction, so whatever must happen with it (an audit entry) can join it.

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
export async function endOwnSession(db: Kysely<Tables>, adminId: number, publicId: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('sessions')
      .where('public_id', '=', publicId)
      .where('admin_id', '=', adminId)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  });
}

/** Ends every session of the admin but `keepId`; how many ended. */
export async function endOtherSessions(db: Kysely<Tables>, adminId: number, keepId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom('sessions').where('admin_id', '=', adminId).where('id', '<>', keepId).executeTakeFirst();
    return Number(r.numDeletedRows);
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
  c: { adminId: number; keepId: string; passwordHash: string },
): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const still = await trx.selectFrom('sessions').select('id').where('id', '=', c.keepId).where('admin_id', '=', c.adminId).executeTakeFirst();
    if (!still) return undefined;
    await trx.updateTable('admins').set({ password_hash: c.passwordHash, must_change_password: 0 }).where('id', '=', c.adminId).execute();
    const r = await trx.deleteFrom('sessions').where('admin_id', '=', c.adminId).where('id', '<>', c.keepId).executeTakeFirst();
    return Number(r.numDeletedRows);
  });
}
