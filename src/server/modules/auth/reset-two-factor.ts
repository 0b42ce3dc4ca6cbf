import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { usernameKey } from './queries';
import { removeTotp } from './two-factor';
import { recordAudit, SYSTEM_ACTOR } from '../audit/record';

/**
 * The CLI's `reset-2fa NAME`: clears a lost factor (TOTP key and recovery codes) and any sign-in
 * challenge the admin had, in one transaction, recorded as totp.reset by the System (decision 423).
 * Undefined for an unknown admin. Under policy `required` the admin must enrol again at their next
 * sign-in.
 */
export async function resetTwoFactor(db: Kysely<Tables>, username: string) {
  return db.transaction().execute(async (trx) => {
    const admin = await trx.selectFrom('admins').select(['id', 'username']).where('username_key', '=', usernameKey(username)).executeTakeFirst();
    if (!admin) return undefined;
    const removed = await removeTotp(trx, admin.id);
    await trx.deleteFrom('sign_in_challenges').where('admin_id', '=', admin.id).execute();
    await recordAudit(trx, SYSTEM_ACTOR, {
      action: 'totp.reset',
      target: { type: 'admin', id: admin.id },
      changes: { username: admin.username, key_removed: removed.totp > 0, codes_deleted: removed.recoveryCodes },
    });
    return { username: admin.username, ...removed };
  });
}
