import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { LOGIN_LIMIT, LOGIN_WINDOW_MS } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import { RECOVERY_CODE_COUNT, type TotpEnrolment } from '../../../contract/two-factor';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { hashPassword, verifyPassword } from './passwords';
import { clearRateLimit, hitRateLimit } from './queries';
import { enrolmentFor, matchingStep, newTotpSecret, type TotpKeyCipher } from './totp';

type Db = Kysely<Tables> | Transaction<Tables>;

/** Recovery codes: 10 characters from an alphabet without look-alikes (~49 bits), shown as `abcde-fghjk`. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return s;
}
const shown = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

export const wrongCode = (field: 'code' | 'recovery_code' = 'code') =>
  new HttpError(400, ERROR_CODES.validation, 'That code is wrong or was already used', {
    [field]: field === 'code' ? 'That code is wrong or was already used' : 'That recovery code is wrong or was already used',
  });

/**
 * Codes tried by a signed-in admin (confirming, regenerating, turning off) are limited per admin,
 * like sign-in attempts: a stolen session cannot guess its way to turning the factor off. Only a
 * holder of that admin's session can trip it. Cleared by a right code.
 */
const codeLimitKey = (adminId: number) => `totp:admin:${adminId}`;
export async function countCodeAttempt(db: Db, adminId: number, now = new Date()): Promise<void> {
  const hit = await hitRateLimit(db, codeLimitKey(adminId), now.toISOString(), new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString());
  if (hit.count <= LOGIN_LIMIT) return;
  const seconds = Math.max(1, Math.ceil((Date.parse(hit.resetAt) - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new HttpError(429, ERROR_CODES.rateLimited, `Too many codes tried. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, undefined, {
    'retry-after': String(seconds),
  });
}
export const clearCodeAttempts = (db: Db, adminId: number) => clearRateLimit(db, codeLimitKey(adminId));

/**
 * TOTP and recovery codes for one site (docs/decisions/410-totp-and-recovery-codes.md). Each write
 * is one transaction (`db.transaction()` here), so an audit entry can join it.
 */
export function twoFactor(db: Kysely<Tables>, cipher: TotpKeyCipher, issuer: () => string, now: () => Date = () => new Date()) {
  const keyOf = async (trx: Db, adminId: number, confirmed: boolean) => {
    const row = await trx
      .selectFrom('admin_totp')
      .select(['secret_enc', 'confirmed_at'])
      .where('admin_id', '=', adminId)
      .where('confirmed_at', confirmed ? 'is not' : 'is', null)
      .executeTakeFirst();
    const secret = row && cipher.decrypt(row.secret_enc, adminId);
    return row && secret ? { secret, stored: row.secret_enc } : undefined;
  };

  /** Ten new codes, hashed (argon2id, as passwords): the plain ones go to the admin once. */
  const makeRecoveryCodes = async () => {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = await Promise.all(codes.map((c) => hashPassword(c)));
    return { shown: codes.map(shown), hashes };
  };
  const replaceRecoveryCodes = async (trx: Transaction<Tables>, adminId: number, hashes: string[], at: string) => {
    await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
    await trx
      .insertInto('admin_recovery_codes')
      .values(hashes.map((code_hash) => ({ admin_id: adminId, code_hash, created_at: at })))
      .execute();
  };

  /**
   * Accepts a current code once: the step it belongs to must be later than the last one accepted
   * (one conditional update, so two requests with the same code cannot both pass).
   */
  const acceptCode = async (trx: Db, adminId: number, code: string, confirmed: boolean): Promise<boolean> => {
    const key = await keyOf(trx, adminId, confirmed);
    if (!key) return false;
    const step = matchingStep(key.secret, code, now().getTime());
    if (step === null) return false;
    const r = await trx
      .updateTable('admin_totp')
      .set({ last_step: step })
      .where('admin_id', '=', adminId)
      .where('secret_enc', '=', key.stored)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  };

  return {
    acceptCode,

    async status(adminId: number) {
      const totp = await db.selectFrom('admin_totp').select('admin_id').where('admin_id', '=', adminId).where('confirmed_at', 'is not', null).executeTakeFirst();
      const left = await db
        .selectFrom('admin_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('admin_id', '=', adminId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return { totpEnabled: totp !== undefined, recoveryCodesLeft: totp ? Number(left.n) : 0 };
    },

    /** A new key, replacing an unconfirmed one; null when TOTP is already on. */
    async start(admin: { id: number; username: string }): Promise<TotpEnrolment | null> {
      const secret = newTotpSecret();
      const at = now().toISOString();
      const started = await db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('admin_totp').select('confirmed_at').where('admin_id', '=', admin.id).executeTakeFirst();
        if (existing?.confirmed_at) return false;
        const secret_enc = cipher.encrypt(secret, admin.id);
        await trx
          .insertInto('admin_totp')
          .values({ admin_id: admin.id, secret_enc, created_at: at, confirmed_at: null, last_step: null })
          .onConflict((oc) => oc.column('admin_id').doUpdateSet({ secret_enc, created_at: at, last_step: null }).where('admin_totp.confirmed_at', 'is', null))
          .execute();
        return true;
      });
      return started ? enrolmentFor(secret, issuer(), admin.username) : null;
    },

    /**
     * Turns TOTP on with a code from the unconfirmed key: the recovery codes to show once, or null
     * for a wrong code (or nothing to confirm). `within` runs in the same transaction (a sign-in
     * challenge used up with it).
     */
    async confirm(adminId: number, code: string, within?: (trx: Transaction<Tables>) => Promise<boolean>): Promise<string[] | null> {
      const pending = await keyOf(db, adminId, false);
      if (!pending || matchingStep(pending.secret, code, now().getTime()) === null) return null;
      const codes = await makeRecoveryCodes();
      const at = now().toISOString();
      return db.transaction().execute(async (trx) => {
        if (!(await acceptCode(trx, adminId, code, false))) return null;
        await trx.updateTable('admin_totp').set({ confirmed_at: at }).where('admin_id', '=', adminId).where('confirmed_at', 'is', null).execute();
        await replaceRecoveryCodes(trx, adminId, codes.hashes, at);
        if (within && !(await within(trx))) throw new ChallengeGone();
        return codes.shown;
      });
    },

    /** New recovery codes for a current code (replacing the old ones), or null for a wrong code. `within` runs in the same transaction. */
    async regenerate(adminId: number, code: string, within?: (trx: Transaction<Tables>) => Promise<void>): Promise<string[] | null> {
      // A wrong code is told apart before ten hashes are made for nothing.
      const key = await keyOf(db, adminId, true);
      if (!key || matchingStep(key.secret, code, now().getTime()) === null) return null;
      const codes = await makeRecoveryCodes();
      const at = now().toISOString();
      return db.transaction().execute(async (trx) => {
        if (!(await acceptCode(trx, adminId, code, true))) return null;
        await replaceRecoveryCodes(trx, adminId, codes.hashes, at);
        await within?.(trx);
        return codes.shown;
      });
    },

    /** The id of the unused recovery code `code` (normalised), if any: checked against each hash. */
    async matchRecoveryCode(adminId: number, code: string): Promise<number | undefined> {
      const rows = await db.selectFrom('admin_recovery_codes').select(['id', 'code_hash']).where('admin_id', '=', adminId).where('used_at', 'is', null).execute();
      const matches = await Promise.all(rows.map((r) => verifyPassword(r.code_hash, code)));
      const i = matches.indexOf(true);
      return i === -1 ? undefined : Number(rows[i].id);
    },

    /** Spends a recovery code: true for the one caller that did. */
    async spendRecoveryCode(trx: Db, id: number): Promise<boolean> {
      const r = await trx.updateTable('admin_recovery_codes').set({ used_at: now().toISOString() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

  };
}
export type TwoFactor = ReturnType<typeof twoFactor>;

/** Removes an admin's TOTP key and recovery codes (turning it off, or the CLI's reset-2fa). */
export async function removeTotp(trx: Db, adminId: number): Promise<{ totp: number; recoveryCodes: number }> {
  const totp = await trx.deleteFrom('admin_totp').where('admin_id', '=', adminId).executeTakeFirst();
  const codes = await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).executeTakeFirst();
  return { totp: Number(totp.numDeletedRows), recoveryCodes: Number(codes.numDeletedRows) };
}

/** Thrown inside a transaction when the sign-in challenge it was to use up is gone: rolls it back. */
export class ChallengeGone extends Error {}
