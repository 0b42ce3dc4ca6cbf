import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API } from '../../../contract/api-paths';
import { DEVICE_COOKIE_MAX_MS } from '../../../contract/constants';
import { usernameKey } from './queries';

export const DEVICE_COOKIE = 'rv_device';

/** `<device id>.<issued, unix seconds>.<username key, base64url>.<HMAC>`; anything else is ignored. */
const VALUE = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{1,300})\.([A-Za-z0-9_-]{43})$/;

export interface DeviceCookies {
  /**
   * The device id of the request's device cookie when it is genuine, unexpired and names `username`
   * (in any letter case); otherwise undefined.
   */
  deviceFor(request: FastifyRequest, username: string): string | undefined;
  /** Sets a fresh device cookie naming `username` (after a successful sign-in). */
  issue(reply: FastifyReply, request: FastifyRequest, username: string): void;
}

/**
 * Device cookies (OWASP's "Slow brute force protection using device cookies"): a signed cookie set
 * on a successful sign-in, naming the admin, sent back to the sign-in route only. A browser that
 * presents one for the username it signs in as is not subject to that username's lock, which
 * anyone can trip, only to a limit of its own, which nobody else can (rate-limit.ts,
 * docs/decisions/312-sign-in-limits-device-cookies.md). The cookie grants nothing else: the
 * password is checked as always. The HMAC is keyed with a key derived from the session secret for
 * this purpose only.
 */
export function deviceCookies(sessionSecret: string, now: () => number = () => Date.now()): DeviceCookies {
  const key = createHmac('sha256', sessionSecret).update('sign-in-device-cookies').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const encodeName = (username: string) => Buffer.from(usernameKey(username)).toString('base64url');

  return {
    deviceFor(request, username) {
      const m = VALUE.exec(request.cookies[DEVICE_COOKIE] ?? '');
      if (!m) return undefined;
      const [, id, issued, name, given] = m;
      const expected = Buffer.from(mac(`${id}.${issued}.${name}`));
      if (!timingSafeEqual(expected, Buffer.from(given))) return undefined;
      if (Number(issued) * 1000 + DEVICE_COOKIE_MAX_MS <= now()) return undefined;
      return name === encodeName(username) ? id : undefined;
    },

    issue(reply, request, username) {
      const payload = `${randomBytes(16).toString('base64url')}.${Math.floor(now() / 1000)}.${encodeName(username)}`;
      reply.setCookie(DEVICE_COOKIE, `${payload}.${mac(payload)}`, {
        httpOnly: true,
        sameSite: 'strict',
        path: API.login,
        secure: request.protocol === 'https',
        maxAge: Math.floor(DEVICE_COOKIE_MAX_MS / 1000),
      });
    },
  };
}
