import type { Kysely } from 'kysely';
import { LOGIN_LIMIT, LOGIN_WINDOW_MS } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { clearRateLimit, hitRateLimit, usernameKey } from './queries';

export const loginIpKey = (ip: string) => `login:ip:${ip}`;
export const loginUserKey = (username: string) => `login:user:${usernameKey(username).slice(0, 200)}`;

/**
 * Sign-in throttling, per client IP and per username, in the shared database so it holds
 * across server instances.
 *
 * Every attempt counts, successful or not, and is counted before the password is checked:
 * that way parallel guesses cannot slip past the limit while their hashes are verified.
 * The IP is counted first, and an attempt the IP limit refuses counts no username: a spray of
 * usernames from one address adds one row, not one per name.
 * A successful sign-in clears the username's counter (the owner's own typos stop counting)
 * but not the IP's, so one valid account cannot be used to reset the limit for guessing others.
 */
export async function countLoginAttempt(db: Kysely<Tables>, ip: string, username: string, now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString();
  for (const key of [loginIpKey(ip), loginUserKey(username)]) {
    const hit = await hitRateLimit(db, key, nowIso, resetAt);
    if (hit.count > LOGIN_LIMIT) throw tooManyAttempts(Date.parse(hit.resetAt) - now.getTime());
  }
}

function tooManyAttempts(retryMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    ERROR_CODES.rateLimited,
    `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

export async function clearUsernameLimit(db: Kysely<Tables>, username: string): Promise<void> {
  await clearRateLimit(db, loginUserKey(username));
}
