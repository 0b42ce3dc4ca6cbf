import type { Kysely, Transaction } from 'kysely';
import { TWO_FACTOR_POLICIES, TWO_FACTOR_POLICY_DEFAULT, type TwoFactorPolicy } from '../../../contract/two-factor';
import type { Tables } from '../../db/schema';

type Db = Kysely<Tables> | Transaction<Tables>;
const KEY = 'two_factor_policy';

/**
 * The site's second-factor policy (docs/decisions/412-second-factor-policy.md), in
 * security_settings: `optional` until a super admin chooses. A value this version does not know
 * reads as the default.
 */
export async function readTwoFactorPolicy(db: Db): Promise<TwoFactorPolicy> {
  const row = await db.selectFrom('security_settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return TWO_FACTOR_POLICIES.find((p) => p === row?.value) ?? TWO_FACTOR_POLICY_DEFAULT;
}

export async function writeTwoFactorPolicy(db: Db, policy: TwoFactorPolicy, adminId: number, now: string): Promise<void> {
  await db
    .insertInto('security_settings')
    .values({ key: KEY, value: policy, updated_at: now, admin_id: adminId })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: policy, updated_at: now, admin_id: adminId }))
    .execute();
}
