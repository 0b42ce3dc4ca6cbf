import type { Kysely } from 'kysely';
import type { AdminProfile } from '../../../contract/auth';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { toAdminProfile, usernameKey } from '../auth/queries';
import { type AuditActor, recordAudit, SYSTEM_ACTOR } from '../audit/record';


const PROFILE_COLUMNS = ['id', 'username', 'is_super_user', 'created_at'] as const;

export class DuplicateUsernameError extends Error {
  constructor() {
    super('An admin with this username already exists');
  }
}

/** A UNIQUE violation on SQLite (better-sqlite3) or PostgreSQL (pg, PGlite). */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export async function listAdmins(db: Kysely<Tables>): Promise<AdminProfile[]> {
  const rows = await db.selectFrom('admins').select(PROFILE_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toAdminProfile);
}

export async function countAdmins(db: Kysely<Tables>): Promise<number> {
  const row = await db.selectFrom('admins').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function usernameTaken(db: Kysely<Tables>, username: string): Promise<boolean> {
  const row = await db.selectFrom('admins').select('id').where('username_key', '=', usernameKey(username)).executeTakeFirst();
  return row !== undefined;
}

/** Throws DuplicateUsernameError when the name is taken in any letter case (also under a race). */
export async function insertAdmin(
  db: Kysely<Tables>,
  a: { username: string; passwordHash: string; isSuperUser: boolean; mustChangePassword: boolean; now: string },
): Promise<AdminProfile> {
  try {
    const row = await db
      .insertInto('admins')
      .values({
        username: a.username,
        username_key: usernameKey(a.username),
        password_hash: a.passwordHash,
        is_super_user: a.isSuperUser ? 1 : 0,
        must_change_password: a.mustChangePassword ? 1 : 0,
        created_at: a.now,
      })
      .returning(PROFILE_COLUMNS)
      .executeTakeFirstOrThrow();
    return toAdminProfile(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateUsernameError();
    throw err;
  }
}

export type DeleteAdminResult = 'deleted' | 'not_found' | 'self' | 'last_super';

/**
 * Deletes an admin unless it is the actor or the last super user. On PostgreSQL the super
 * users' rows are locked first, so two super admins deleting each other at the same moment
 * cannot leave none (SQLite runs write transactions one at a time anyway).
 * The admin's sessions go with it (foreign-key cascade). Recorded as admin.delete by `actor`.
 */
export async function deleteAdmin(database: Database, actor: AuditActor, targetId: number): Promise<DeleteAdminResult> {
  if (actor.adminId === targetId) return 'self';
  return database.db.transaction().execute(async (trx) => {
    let supers = trx.selectFrom('admins').select('id').where('is_super_user', '=', 1).orderBy('id');
    if (database.dialect === 'postgres') {
      // PostgreSQL, in this order, so a save of the admin's resources cannot deadlock with it: a
      // transaction's second write of a resource row (its facet profile, after the change) checks
      // the admin_id key again, taking a KEY SHARE lock on the admin, while holding data_version,
      // which this deletion's ON DELETE SET NULL bumps. So: wait for writes of the admin's resources
      // before locking any admin, and lock the super users (one deletion at a time, never the last)
      // in a mode a KEY SHARE lock does not wait for.
      await trx.selectFrom('resources').select('id').where('admin_id', '=', targetId).orderBy('id').forNoKeyUpdate().execute();
      supers = supers.forNoKeyUpdate();
    }
    const superIds = (await supers.execute()).map((r) => Number(r.id));
    const target = await trx.selectFrom('admins').select(['id', 'username', 'is_super_user']).where('id', '=', targetId).executeTakeFirst();
    if (!target) return 'not_found';
    if (Number(target.is_super_user) === 1 && superIds.filter((id) => id !== targetId).length === 0) return 'last_super';
    // Belt and braces where the cascade is not enforced (SQLite with foreign_keys off).
    await trx.deleteFrom('sessions').where('admin_id', '=', targetId).execute();
    await trx.deleteFrom('admins').where('id', '=', targetId).execute();
    await recordAudit(trx, actor, {
      action: 'admin.delete',
      target: { type: 'admin', id: targetId },
      changes: { before: { username: target.username, is_super_user: Number(target.is_super_user) === 1 } },
    });
    return 'deleted';
  });
}

/**
 * Sets a new password hash that its owner must change at the next sign-in (the admin CLI's reset),
 * and signs the admin out everywhere, in one transaction, recorded as admin.password_reset by the
 * System (decision 423; never the password or its hash). Undefined when no such admin.
 */
export async function setPasswordHash(db: Kysely<Tables>, username: string, passwordHash: string): Promise<AdminProfile | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('admins')
      .set({ password_hash: passwordHash, must_change_password: 1 })
      .where('username_key', '=', usernameKey(username))
      .returning(PROFILE_COLUMNS)
      .executeTakeFirst();
    if (!row) return undefined;
    const ended = await trx.deleteFrom('sessions').where('admin_id', '=', row.id).executeTakeFirst();
    await recordAudit(trx, SYSTEM_ACTOR, {
      action: 'admin.password_reset',
      target: { type: 'admin', id: row.id },
      changes: { username: row.username, sessions_ended: Number(ended.numDeletedRows) },
    });
    return toAdminProfile(row);
  });
}

/**
 * Ends every session of an admin (a super admin's action), in one transaction, recorded as
 * admin.sessions_end by `actor`. Undefined when no such admin, else how many sessions ended.
 */
export async function endSessionsOfAdmin(db: Kysely<Tables>, actor: AuditActor, adminId: number): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const admin = await trx.selectFrom('admins').select(['id', 'username']).where('id', '=', adminId).executeTakeFirst();
    if (!admin) return undefined;
    const r = await trx.deleteFrom('sessions').where('admin_id', '=', adminId).executeTakeFirst();
    const ended = Number(r.numDeletedRows);
    // None to end changed nothing: no entry.
    if (ended > 0) await recordAudit(trx, actor, { action: 'admin.sessions_end', target: { type: 'admin', id: adminId }, changes: { username: admin.username, ended } });
    return ended;
  });
}
