import type { Kysely } from 'kysely';
import { LOGIN_LIMIT, LOGIN_WINDOW_MS } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { clearRateLimit, hitRateLimit } from './queries';

const passwordChangeKey = (adminId: number) => `password-change:admin:${adminId}`;

/**
 * Guesses of the current password from a signed-in session (a stolen cookie) are limited as
 * sign-ins are (LOGIN_LIMIT per LOGIN_WINDOW_MS), per admin: only someone holding one of that
 * admin's sessions can count here, never an anonymous client, and the owner can end the other
 * sessions to stop it (docs/decisions/418-password-change-attempts.md). Every attempt counts;
 * a successful change clears the count.
 */
export async function countPasswordAttempt(db: Kysely<Tables>, adminId: number, now = new Date()): Promise<void> {
  const hit = await hitRateLimit(db, passwordChangeKey(adminId), now.toISOString(), new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString());
  if (hit.count <= LOGIN_LIMIT) return;
  const seconds = Math.max(1, Math.ceil((Date.parse(hit.resetAt) - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new HttpError(
    429,
    ERROR_CODES.rateLimited,
    `Too many password attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

export async function clearPasswordAttempts(db: Kysely<Tables>, adminId: number): Promise<void> {
  await clearRateLimit(db, passwordChangeKey(adminId));
}
