import { type Kysely, sql } from 'kysely';
import type { AdminProfile } from '../../../contract/auth';
import type { Tables } from '../../db/schema';


export interface AdminRow {
  id: number;
  username: string;
  username_key: string;
  password_hash: string;
  is_super_user: number;
  created_at: string;
}

/** A foreign key refused on SQLite (better-sqlite3) or PostgreSQL (pg, PGlite): the row referred to is gone. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Lower-cased, trimmed: usernames are unique case-insensitively. */
export const usernameKey = (username: string) => username.trim().toLowerCase();

export function toAdminProfile(row: Pick<AdminRow, 'id' | 'username' | 'is_super_user' | 'created_at'>): AdminProfile {
  return {
    id: Number(row.id),
    username: row.username,
    is_super_user: Boolean(Number(row.is_super_user)),
    created_at: row.created_at,
  };
}

export async function findAdminForLogin(db: Kysely<Tables>, username: string): Promise<AdminRow | undefined> {
  return db.selectFrom('admins').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
}

export async function updatePasswordHash(db: Kysely<Tables>, adminId: number, passwordHash: string): Promise<void> {
  await db.updateTable('admins').set({ password_hash: passwordHash }).where('id', '=', adminId).execute();
}

export async function insertSession(
  db: Kysely<Tables>,
  s: { id: string; publicId: string; adminId: number; now: string; expiresAt: string; ip: string | null; userAgent: string | null },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: s.id,
      public_id: s.publicId,
      admin_id: s.adminId,
      created_at: s.now,
      last_seen_at: s.now,
      expires_at: s.expiresAt,
      ip: s.ip,
      user_agent: s.userAgent,
    })
    .execute();
}

export interface SessionWithAdmin {
  admin: AdminProfile;
  mustChangePassword: boolean;
  publicId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

/**
 * The session and its admin. The inner join means a session whose admin is gone finds
 * nothing even where the foreign-key cascade did not run.
 */
export async function findSession(db: Kysely<Tables>, id: string): Promise<SessionWithAdmin | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('admins', 'admins.id', 'sessions.admin_id')
    .select([
      'admins.id',
      'admins.username',
      'admins.is_super_user',
      'admins.created_at',
      'admins.must_change_password',
      'sessions.public_id',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    admin: toAdminProfile(row),
    mustChangePassword: Number(row.must_change_password) === 1,
    publicId: row.public_id,
    createdAt: row.session_created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function touchSession(db: Kysely<Tables>, id: string, now: string, expiresAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Kysely<Tables>, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfAdmin(db: Kysely<Tables>, adminId: number): Promise<void> {
  await db.deleteFrom('sessions').where('admin_id', '=', adminId).execute();
}

/** Drops expired sessions and finished rate-limit windows. */
export async function deleteExpired(db: Kysely<Tables>, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}

/**
 * Counts one hit against `key` in a single atomic statement (no read-modify-write), so
 * concurrent requests on any number of server instances sharing the database all count.
 * A window that has ended starts over at 1.
 */
export async function hitRateLimit(
  db: Kysely<Tables>,
  key: string,
  now: string,
  newResetAt: string,
): Promise<{ count: number; resetAt: string }> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: newResetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<string>`case when rate_limits.reset_at <= ${now} then ${newResetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), resetAt: row.reset_at };
}

export async function clearRateLimit(db: Kysely<Tables>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/**
 * The secret called `name`, stored with `value` if there is none yet. Under concurrent starts
 * exactly one insert wins; every caller then reads the winner's value (each statement sees what
 * has committed before it began, and a conflicting insert waits for the other to commit).
 */
export async function getOrCreateSecret(db: Kysely<Tables>, name: string, value: string, now: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
