import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { type AdminProfile, usernameSchema } from '../../../contract/auth';
import type { Tables } from '../../db/schema';
import { nowIso } from '../../time';
import { generatePassword, hashPassword, newPasswordProblem } from '../auth/passwords';
import { clearUsernameLimit } from '../auth/rate-limit';
import { DuplicateUsernameError, insertAdmin, setPasswordHash, usernameTaken } from './queries';
import { type AuditActor, recordAudit, SYSTEM_ACTOR } from '../audit/record';

/** A username or password that breaks the rules; `field` names which. */
export class AccountInputError extends Error {
  constructor(
    public field: 'username' | 'password',
    message: string,
  ) {
    super(message);
  }
}

export class UnknownAdminError extends Error {
  constructor(username: string) {
    super(`No admin named "${username}"`);
  }
}

/** A new password that follows the rules (auth/passwords.ts newPasswordProblem), or AccountInputError. */
async function checkNewPassword(password: unknown): Promise<string> {
  const problem = await newPasswordProblem(password);
  if (problem !== undefined) throw new AccountInputError('password', problem);
  return password as string;
}

function check<T>(schema: z.ZodType<T>, value: unknown, field: 'username' | 'password'): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new AccountInputError(field, r.error.issues[0]?.message ?? `Invalid ${field}`);
  return r.data;
}

export interface NewAccount {
  admin: AdminProfile;
  /** Set when no password was given and one was generated; show it once. */
  generatedPassword?: string;
}

/**
 * Creates an admin: validates, hashes with argon2id, inserts, records admin.create (by `actor`; the
 * system's when none: the first start, the CLI) with the name and role, never the password. The
 * name is checked before hashing so a duplicate costs no hash; the unique index still decides under a race.
 */
export async function createAccount(
  db: Kysely<Tables>,
  input: { username: unknown; password?: unknown; isSuperUser: boolean; mustChangePassword?: boolean; actor?: AuditActor },
): Promise<NewAccount> {
  const username = check(usernameSchema, input.username, 'username');
  const generated = input.password === undefined ? generatePassword() : undefined;
  const password = await checkNewPassword(input.password ?? generated);
  if (await usernameTaken(db, username)) throw new DuplicateUsernameError();
  const passwordHash = await hashPassword(password);
  const admin = await db.transaction().execute(async (trx) => {
    const created = await insertAdmin(trx, { username, passwordHash, isSuperUser: input.isSuperUser, mustChangePassword: input.mustChangePassword ?? false, now: nowIso() });
    await recordAudit(trx, input.actor ?? SYSTEM_ACTOR, {
      action: 'admin.create',
      target: { type: 'admin', id: created.id },
      changes: { after: { username: created.username, is_super_user: created.is_super_user } },
    });
    return created;
  });
  return { admin, generatedPassword: generated };
}

/**
 * Sets a new password (given or generated), ends all of that admin's sessions and clears the
 * username's sign-in limit, so an owner locked out by someone else's guessing gets in at once.
 * Whoever reset it knows the password, so its owner must choose a new one at the next sign-in.
 */
export async function resetAccountPassword(
  db: Kysely<Tables>,
  input: { username: string; password?: unknown },
): Promise<NewAccount> {
  const generated = input.password === undefined ? generatePassword() : undefined;
  const password = await checkNewPassword(input.password ?? generated);
  const admin = await setPasswordHash(db, input.username, await hashPassword(password));
  if (!admin) throw new UnknownAdminError(input.username);
  await clearUsernameLimit(db, admin.username);
  return { admin, generatedPassword: generated };
}
