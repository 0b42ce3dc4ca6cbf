import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AdminProfile } from '../../../contract/auth';
import { SESSION_IDLE_MS } from '../../../contract/constants';
import type { Tables } from '../../db/schema';
import { deleteSession, findSession, insertSession, touchSession } from './queries';

export const SESSION_COOKIE = 'rv_session';

/** Sliding expiry is written at most this often per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Token format: 32 random bytes, base64url (43 characters). Anything else is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionStore {
  /** Creates a session for the admin and sets the cookie. */
  start(reply: FastifyReply, request: FastifyRequest, adminId: number): Promise<void>;
  /** The signed-in admin, or null. Slides the expiry (and the cookie) when due. */
  load(request: FastifyRequest, reply: FastifyReply): Promise<AdminProfile | null>;
  /** Deletes the request's session (if any) and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Whether the request's session is still there (not ended, expired or gone with its admin), without touching it. */
  stillValid(request: FastifyRequest): Promise<boolean>;
}

export function createSessionStore(db: Kysely<Tables>, secret: string, now: () => Date = () => new Date()): SessionStore {
  // The database holds only a keyed hash of the token: a leaked sessions table signs nobody in.
  const sessionId = (token: string) => createHmac('sha256', secret).update(token).digest('hex');

  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY is on.
    secure: request.protocol === 'https',
  });

  const setCookie = (reply: FastifyReply, request: FastifyRequest, token: string) => {
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: Math.floor(SESSION_IDLE_MS / 1000) });
  };

  const clearCookie = (reply: FastifyReply, request: FastifyRequest) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  };

  const readToken = (request: FastifyRequest): string | undefined => {
    const token = request.cookies[SESSION_COOKIE];
    return token && TOKEN_PATTERN.test(token) ? token : undefined;
  };

  return {
    async start(reply, request, adminId) {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      await insertSession(db, {
        id: sessionId(token),
        adminId,
        now: t.toISOString(),
        expiresAt: new Date(t.getTime() + SESSION_IDLE_MS).toISOString(),
      });
      setCookie(reply, request, token);
    },

    async load(request, reply) {
      const token = readToken(request);
      if (!token) {
        if (request.cookies[SESSION_COOKIE] !== undefined) clearCookie(reply, request);
        return null;
      }
      const id = sessionId(token);
      const found = await findSession(db, id);
      const t = now();
      const nowIso = t.toISOString();
      if (!found || found.expiresAt <= nowIso) {
        if (found) await deleteSession(db, id);
        clearCookie(reply, request);
        return null;
      }
      if (t.getTime() - Date.parse(found.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS) {
        await touchSession(db, id, nowIso, new Date(t.getTime() + SESSION_IDLE_MS).toISOString());
        setCookie(reply, request, token);
      }
      return found.admin;
    },

    async stillValid(request) {
      const token = readToken(request);
      const found = token ? await findSession(db, sessionId(token)) : undefined;
      return found !== undefined && found.expiresAt > now().toISOString();
    },

    async end(request, reply) {
      const token = readToken(request);
      if (token) await deleteSession(db, sessionId(token));
      clearCookie(reply, request);
    },
  };
}
