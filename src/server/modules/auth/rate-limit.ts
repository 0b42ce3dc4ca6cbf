import type { Kysely } from 'kysely';
import { LOGIN_IP_LIMIT, LOGIN_LIMIT, LOGIN_WINDOW_MS } from '../../../contract/constants';
import { ERROR_CODES } from '../../../contract/errors';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { clearRateLimit, hitRateLimit, usernameKey } from './queries';

const nameOf = (username: string) => usernameKey(username).slice(0, 200);
export const loginIpKey = (ip: string) => `login:ip:${ip}`;
export const loginIpUserKey = (ip: string, username: string) => `login:ip-user:${ip}:${nameOf(username)}`;
export const loginUserKey = (username: string) => `login:user:${nameOf(username)}`;
export const loginDeviceKey = (deviceId: string) => `login:device:${deviceId}`;

/** One sign-in attempt: the client's address, the username tried, and the id of the client's device cookie for that username, if it has one. */
export interface LoginAttempt {
  ip: string;
  username: string;
  device?: string;
}

/**
 * Sign-in throttling, in the shared database so it holds across server instances
 * (docs/decisions/312-sign-in-limits-device-cookies.md):
 * - per address, whatever the usernames (LOGIN_IP_LIMIT);
 * - per (address, username) (LOGIN_LIMIT): one admin's typos do not lock out another behind the same address;
 * - per username, for browsers without a device cookie for it (LOGIN_LIMIT): guessing from many
 *   addresses is capped; anyone can trip this one, so a browser that has signed in as that admin
 *   before (a device cookie naming it) is not subject to it, only to
 * - per device cookie (LOGIN_LIMIT), which only its holder can trip.
 *
 * Every attempt counts, successful or not, and is counted before the password is checked: that
 * way parallel guesses cannot slip past the limit while their hashes are verified. Limits are
 * counted in that order, and an attempt one refuses counts in none after it: a spray of usernames
 * from one address adds a bounded number of rows.
 */
export async function countLoginAttempt(db: Kysely<Tables>, attempt: LoginAttempt, now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString();
  const limits: [string, number][] = [
    [loginIpKey(attempt.ip), LOGIN_IP_LIMIT],
    [loginIpUserKey(attempt.ip, attempt.username), LOGIN_LIMIT],
    [attempt.device ? loginDeviceKey(attempt.device) : loginUserKey(attempt.username), LOGIN_LIMIT],
  ];
  for (const [key, limit] of limits) {
    const hit = await hitRateLimit(db, key, nowIso, resetAt);
    if (hit.count > limit) throw tooManyAttempts(Date.parse(hit.resetAt) - now.getTime());
  }
}

/**
 * A passkey sign-in (docs/decisions/427-passkey-sign-in-limits.md) names no username: it counts in
 * the per-address limit only, the same counter as password attempts, before it is verified.
 */
export async function countPasskeySignIn(db: Kysely<Tables>, ip: string, now = new Date()): Promise<void> {
  await countOne(db, loginIpKey(ip), LOGIN_IP_LIMIT, now);
}

/** Each passkey sign-in begins by storing a challenge: an address may begin so many per window. */
export async function countPasskeyOptions(db: Kysely<Tables>, ip: string, now = new Date()): Promise<void> {
  await countOne(db, `login:passkey-options:${ip}`, LOGIN_IP_LIMIT, now);
}

async function countOne(db: Kysely<Tables>, key: string, limit: number, now: Date): Promise<void> {
  const hit = await hitRateLimit(db, key, now.toISOString(), new Date(now.getTime() + LOGIN_WINDOW_MS).toISOString());
  if (hit.count > limit) throw tooManyAttempts(Date.parse(hit.resetAt) - now.getTime());
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

/**
 * After a successful sign-in: the owner's own typos stop counting at that address, and on that
 * device or (from a browser without a device cookie) for the username. The address counter stays,
 * so one valid account cannot reset the limit for guessing others; a sign-in through a device
 * cookie leaves the username counter alone, so the owner signing in does not hand a guesser a
 * fresh allowance.
 */
export async function clearLoginLimits(db: Kysely<Tables>, attempt: LoginAttempt): Promise<void> {
  await clearRateLimit(db, loginIpUserKey(attempt.ip, attempt.username));
  await clearRateLimit(db, attempt.device ? loginDeviceKey(attempt.device) : loginUserKey(attempt.username));
}

export async function clearUsernameLimit(db: Kysely<Tables>, username: string): Promise<void> {
  await clearRateLimit(db, loginUserKey(username));
}
