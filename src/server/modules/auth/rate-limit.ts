import type { Kysely } from 'kysely';
import { LOGIN_LIMIT, LOGIN_WINDOW_MS } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import type { Database } from '../../db/schema';
import { HttpError } from '../../errors';
import { clearRateLimit, hitRateLimit, usernameKey } from './queries';

export const loginIpKey = (ip: string) => `login:ip:${ip}`;
export const loginUserKey = (username: string) => `login:user:${usernameKey(username).slice(0, 200)}`;

/**
 * Sign-in throttling, per client IP and per username, in the shared database so it holds
 * across server instances.
 *
 * Every attempt counts, successful or not, and is counted before the password is checked:
 * that way parallel guesses cannot slip past the limit while their hashes are verified.
 * A successful sign-in clears the username's counter (the owner's own typos stop counting)
 * but not the IP's, so one valid account cannot be used to reset the limit for guessing others.
 */
export async function countLoginAttempt(db: Kysely<Database>, ip: string, username: string, now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString();
  const hits = [
    await hitRateLimit(db, loginIpKey(ip), nowIso, resetAt),
    await hitRateLimit(db, loginUserKey(username), nowIso, resetAt),
  ];
  const over = hits.filter((h) => h.count > LOGIN_LIMIT);
  if (over.length === 0) return;
  const latest = Math.max(...over.map((h) => Date.parse(h.resetAt)));
  const seconds = Math.max(1, Math.ceil((latest - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new HttpError(
    429,
    ERROR_CODES.rateLimited,
    `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

export async function clearUsernameLimit(db: Kysely<Database>, username: string): Promise<void> {
  await clearRateLimit(db, loginUserKey(username));
}
