import type { Generated, Kysely, Transaction } from 'kysely';
import type { Passkey } from '../../../contract/passkeys';
import type { Tables } from '../../db/schema';
import type { AdminRow } from './queries';

/** Migration 033. */
export interface PasskeysTable {
  id: Generated<number>;
  admin_id: number;
  credential_id: string;
  public_key: string;
  /** bigint on PostgreSQL, which the driver may hand back as text. */
  counter: number | string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export type ChallengePurpose = 'register' | 'sign_in';

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: ChallengePurpose;
  admin_id: number | null;
  expires_at: string;
}

type PasskeyTables = { passkeys: PasskeysTable; webauthn_challenges: WebauthnChallengesTable };
type Db = Kysely<Tables> | Transaction<Tables>;
const passkeyDb = (db: Db) => db.withTables<PasskeyTables>();

/** A stored credential, as the WebAuthn library wants it back. */
export interface StoredCredential {
  id: number;
  adminId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  /** The admin's name for it (for the audit entry of a sign-in). */
  name: string;
}

function parseTransports(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const toPasskey = (row: Pick<PasskeysTable, 'name' | 'created_at' | 'last_used_at'> & { id: number }): Passkey => ({
  id: Number(row.id),
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

/** A unique constraint refused the row on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

// Challenges ------------------------------------------------------------------------------------

/** Keeps a ceremony's challenge until `expiresAt`, and drops the ones already expired (any instance's). */
export async function saveChallenge(
  db: Kysely<Tables>,
  c: { challenge: string; purpose: ChallengePurpose; adminId: number | null; expiresAt: string },
  now: string,
): Promise<void> {
  await passkeyDb(db).transaction().execute(async (trx) => {
    await trx.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('webauthn_challenges')
      .values({ challenge: c.challenge, purpose: c.purpose, admin_id: c.adminId, expires_at: c.expiresAt })
      .execute();
  });
}

/**
 * Uses up a challenge: deletes it in one statement and says whether it was there, for this purpose
 * and admin, and not yet expired. Of two concurrent uses exactly one finds it.
 */
export async function takeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, adminId: number | null, now: string): Promise<boolean> {
  const row = await passkeyDb(db)
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .returning(['purpose', 'admin_id', 'expires_at'])
    .executeTakeFirst();
  if (!row) return false;
  const owner = row.admin_id === null ? null : Number(row.admin_id);
  return row.purpose === purpose && owner === adminId && row.expires_at > now;
}

// Passkeys --------------------------------------------------------------------------------------

export async function listPasskeys(db: Db, adminId: number): Promise<Passkey[]> {
  const rows = await passkeyDb(db)
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('admin_id', '=', adminId)
    .orderBy('id')
    .execute();
  return rows.map(toPasskey);
}

/** The admin's credentials, for excludeCredentials when they add another. */
export async function credentialsOf(db: Db, adminId: number): Promise<{ id: string; transports: string[] }[]> {
  const rows = await passkeyDb(db).selectFrom('passkeys').select(['credential_id', 'transports']).where('admin_id', '=', adminId).execute();
  return rows.map((r) => ({ id: r.credential_id, transports: parseTransports(r.transports) }));
}

/** Whether the admin has at least one passkey (for a second-factor policy to count it). */
export async function adminHasPasskey(db: Db, adminId: number): Promise<boolean> {
  const row = await passkeyDb(db).selectFrom('passkeys').select('id').where('admin_id', '=', adminId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertPasskey(
  db: Db,
  p: { adminId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string; now: string },
): Promise<Passkey> {
  const row = await passkeyDb(db)
    .insertInto('passkeys')
    .values({
      admin_id: p.adminId,
      credential_id: p.credentialId,
      public_key: p.publicKey,
      counter: p.counter,
      transports: JSON.stringify(p.transports),
      name: p.name,
      created_at: p.now,
      last_used_at: null,
    })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return toPasskey(row);
}

/** The credential with this WebAuthn id and its admin, for a sign-in. */
export async function findCredential(db: Db, credentialId: string): Promise<{ credential: StoredCredential; admin: AdminRow } | undefined> {
  const row = await passkeyDb(db)
    .selectFrom('passkeys')
    .innerJoin('admins', 'admins.id', 'passkeys.admin_id')
    .select([
      'passkeys.id as passkey_id',
      'passkeys.credential_id',
      'passkeys.public_key',
      'passkeys.counter',
      'passkeys.transports',
      'passkeys.name as passkey_name',
      'admins.id',
      'admins.username',
      'admins.username_key',
      'admins.password_hash',
      'admins.is_super_user',
      'admins.created_at',
    ])
    .where('passkeys.credential_id', '=', credentialId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { passkey_id, credential_id, public_key, counter, transports, passkey_name, ...admin } = row;
  return {
    credential: {
      id: Number(passkey_id),
      adminId: Number(admin.id),
      credentialId: credential_id,
      publicKey: public_key,
      counter: Number(counter),
      transports: parseTransports(transports),
      name: passkey_name,
    },
    admin: { ...admin, id: Number(admin.id) },
  };
}

/** After a sign-in with the passkey: its new signature counter and when it was used. */
export async function markPasskeyUsed(db: Db, id: number, counter: number, now: string): Promise<void> {
  await passkeyDb(db).updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
}

/** Renames one of the admin's own passkeys: it and its name before; undefined when they have none with that id. */
export async function renamePasskey(db: Db, adminId: number, id: number, name: string): Promise<{ passkey: Passkey; before: string } | undefined> {
  const old = await passkeyDb(db).selectFrom('passkeys').select('name').where('id', '=', id).where('admin_id', '=', adminId).executeTakeFirst();
  if (!old) return undefined;
  const row = await passkeyDb(db)
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
  return row && { passkey: toPasskey(row), before: old.name };
}

/** Removes one of the admin's own passkeys: its name; undefined when they have none with that id. */
export async function deletePasskey(db: Db, adminId: number, id: number): Promise<string | undefined> {
  const row = await passkeyDb(db).deleteFrom('passkeys').where('id', '=', id).where('admin_id', '=', adminId).returning('name').executeTakeFirst();
  return row?.name;
}
