import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { CHALLENGE_MAX_FAILURES, CHALLENGE_TTL_MS } from '../../../contract/two-factor';
import type { SignInChallengesTable, Tables } from '../../db/schema';

type Db = Kysely<Tables> | Transaction<Tables>;
export type ChallengePurpose = SignInChallengesTable['purpose'];

export interface LiveChallenge {
  id: string;
  adminId: number;
  username: string;
}

/**
 * Sign-in challenges: what a right password earns when a second step is due, instead of a
 * session. The client holds the challenge (43 base64url characters, 256 random bits); the
 * database holds only its keyed hash. A challenge lives CHALLENGE_TTL_MS and dies after
 * CHALLENGE_MAX_FAILURES wrong codes, or when used.
 */
export function challengeStore(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('sign-in-challenges').digest();
  const idOf = (challenge: string) => createHmac('sha256', key).update(challenge).digest('hex');

  return {
    async create(db: Db, adminId: number, purpose: ChallengePurpose, now = new Date()): Promise<string> {
      const challenge = randomBytes(32).toString('base64url');
      await db
        .insertInto('sign_in_challenges')
        .values({
          id: idOf(challenge),
          admin_id: adminId,
          purpose,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
        })
        .execute();
      return challenge;
    },

    /** The challenge when it is live and for `purpose`; otherwise undefined. */
    async find(db: Db, challenge: string, purpose: ChallengePurpose, now = new Date()): Promise<LiveChallenge | undefined> {
      const row = await db
        .selectFrom('sign_in_challenges')
        .innerJoin('admins', 'admins.id', 'sign_in_challenges.admin_id')
        .select(['sign_in_challenges.id', 'sign_in_challenges.admin_id', 'admins.username'])
        .where('sign_in_challenges.id', '=', idOf(challenge))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now.toISOString())
        .where('failures', '<', CHALLENGE_MAX_FAILURES)
        .executeTakeFirst();
      return row && { id: row.id, adminId: Number(row.admin_id), username: row.username };
    },

    /** Counts a wrong code (one statement, so parallel guesses all count); the last allowed one ends it. */
    async fail(db: Db, id: string): Promise<void> {
      const row = await db
        .updateTable('sign_in_challenges')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('id', '=', id)
        .returning('failures')
        .executeTakeFirst();
      if (row && Number(row.failures) >= CHALLENGE_MAX_FAILURES) await db.deleteFrom('sign_in_challenges').where('id', '=', id).execute();
    },

    /** Uses the challenge up: true for the one caller that did. */
    async consume(db: Db, id: string): Promise<boolean> {
      const r = await db.deleteFrom('sign_in_challenges').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}
export type ChallengeStore = ReturnType<typeof challengeStore>;

export async function deleteExpiredChallenges(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('expires_at', '<=', now).execute();
}
