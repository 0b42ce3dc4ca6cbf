import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../../db/schema';

type Db = Kysely<Tables> | Transaction<Tables>;

/**
 * Whether the admin has a second factor that sign-in must ask for: the one place that says so
 * (sign-in, policy `required`, turning a factor off). Today: a confirmed TOTP key. Passkeys join
 * here ("or has a passkey").
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
