import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema';
import { nowIso } from '../../time';
import { getOrCreateSecret } from '../auth/queries';
import { SALT_PREFIX } from './queries';

/**
 * The day's salt, shared by every instance: the first to ask creates it in server_secrets, the
 * rest read that one. Kept in memory for the day it belongs to; the sweep deletes it afterwards.
 */
export function createSalts(db: Kysely<Tables>) {
  const cache = new Map<string, Promise<Buffer>>();
  return function saltOf(day: string): Promise<Buffer> {
    let salt = cache.get(day);
    if (!salt) {
      for (const old of cache.keys()) if (old < day) cache.delete(old);
      salt = getOrCreateSecret(db, `${SALT_PREFIX}${day}`, randomBytes(32).toString('base64'), nowIso()).then((v) => Buffer.from(v, 'base64'));
      cache.set(day, salt);
      salt.catch(() => cache.delete(day));
    }
    return salt;
  };
}

/**
 * The visitor as stored: HMAC-SHA-256 keyed with the day's salt over (client IP, User-Agent),
 * 128 bits in base64url. Neither is stored in clear, and once the salt is deleted nobody —
 * the operator included — can compute a past day's hash for a given IP and browser.
 */
export function visitorHash(salt: Buffer, ip: string, userAgent: string): string {
  return createHmac('sha256', salt).update(ip).update('\n').update(userAgent).digest().subarray(0, 16).toString('base64url');
}

/** The rate-limit key for a client: its IP, hashed like a visitor (rate_limits rows say nothing in clear). */
export function rateLimitKey(salt: Buffer, ip: string): string {
  return `download:${createHmac('sha256', salt).update('rate\n').update(ip).digest().subarray(0, 16).toString('base64url')}`;
}

/** Why a request gets the link without recording a download, or null when it records one. */
export type NotCounted = 'head' | 'prefetch' | 'bot' | 'admin';

/** HEAD, prefetch and bots, from the request alone (signed-in admins are checked by the caller). */
export function notCountedByRequest(request: FastifyRequest): NotCounted | null {
  if (request.method === 'HEAD') return 'head';
  const purpose = request.headers['sec-purpose'] ?? request.headers['purpose'] ?? request.headers['x-purpose'] ?? request.headers['x-moz'];
  if (typeof purpose === 'string' && /prefetch|preview/i.test(purpose)) return 'prefetch';
  if (isbot(request.headers['user-agent'] ?? '')) return 'bot';
  return null;
}
