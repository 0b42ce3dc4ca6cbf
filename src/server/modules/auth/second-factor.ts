import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../../db/schema';

type Db = Kysely<Tables> | Transaction<Tables>;

/**
 * Whether a password sign-in must ask this admin for a second step: the one place that says so
 * (sign-in, policy `required`, turning a factor off). A confirmed TOTP key; a passkey is not asked
 * for here: it is a whole sign-in by itself (docs/decisions/429-passkeys-and-the-second-step.md).
 */
export async function hasSecondFactor(db: Db, adminId: number): Promise<boolean> {
  const totp = await db
    .selectFrom('admin_totp')
    .select('admin_id')
    .where('admin_id', '=', adminId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return totp !== undefined;
}
