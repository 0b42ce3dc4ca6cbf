import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AdminProfile } from '../../../contract/auth';
import { SESSION_IDLE_MS } from '../../../contract/constants';
import type { Tables } from '../../db/schema';
import { deleteSession, findSession, insertSession, type SessionWithAdmin, touchSession } from './queries';
import { listLiveSessions, type SessionListRow } from './session-queries';

export const SESSION_COOKIE = 'rv_session';

/** Sliding expiry is written at most this often per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Token format: 32 random bytes, base64url (43 characters). Anything else is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A User-Agent is kept to this many characters: enough to name any real browser, bounded for the rest. */
export const USER_AGENT_MAX = 512;

/** The signed-in admin and their session, as the server alone sees it. */
export interface SignedInSession {
  admin: AdminProfile;
  /** Only changing the password (and /me, signing out) is allowed until it is done. */
  mustChangePassword: boolean;
  /** The session's row id (the keyed hash of its token): never leaves the server. */
  id: string;
  /** The session's name in the API. */
  publicId: string;
}

export interface SessionStore {
  /** Creates a session for the admin and sets the cookie. */
  start(reply: FastifyReply, request: FastifyRequest, adminId: number): Promise<void>;
  /** The signed-in admin, or null. Slides the expiry (and the cookie) when due. */
  load(request: FastifyRequest, reply: FastifyReply): Promise<AdminProfile | null>;
  /** As load, with the session itself. */
  loadSession(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | null>;
  /** The admin's live sessions, last used first. */
  list(adminId: number): Promise<SessionListRow[]>;
  /** Clears the session cookie (after the request's own session was ended by id). */
  clearCookie(reply: FastifyReply, request: FastifyRequest): void;
  /** Deletes the request's session (if any) and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Whether the request's session is still there (not ended, expired or gone with its admin), without touching it. */
  stillValid(request: FastifyRequest): Promise<boolean>;
}

/**
 * Sessions slide with activity (SESSION_IDLE_MS) but never past `maxMs` after sign-in
 * (SESSION_MAX_DAYS, docs/decisions/311-session-absolute-lifetime.md).
 */
export function createSessionStore(db: Kysely<Tables>, secret: string, maxMs: number, now: () => Date = () => new Date()): SessionStore {
  // The database holds only a keyed hash of the token: a leaked sessions table signs nobody in.
  const sessionId = (token: string) => createHmac('sha256', secret).update(token).digest('hex');

  /** Where a session's expiry slides to at `t`: an idle period ahead, capped by its absolute end. */
  const expiryFrom = (createdMs: number, t: number) => Math.min(t + SESSION_IDLE_MS, createdMs + maxMs);

  // Checked against created_at too, not only expires_at: a session written before the cap (or
  // before SESSION_MAX_DAYS was lowered) ends on time all the same.
  const isLive = (found: SessionWithAdmin, t: number) => Date.parse(found.expiresAt) > t && Date.parse(found.createdAt) + maxMs > t;

  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY is on.
    secure: request.protocol === 'https',
  });

  const setCookie = (reply: FastifyReply, request: FastifyRequest, token: string, lifetimeMs: number) => {
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: Math.floor(lifetimeMs / 1000) });
  };

  const clearCookie = (reply: FastifyReply, request: FastifyRequest) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  };

  const readToken = (request: FastifyRequest): string | undefined => {
    const token = request.cookies[SESSION_COOKIE];
    return token && TOKEN_PATTERN.test(token) ? token : undefined;
  };

  const loadSession = async (request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | null> => {
    const token = readToken(request);
    if (!token) {
      if (request.cookies[SESSION_COOKIE] !== undefined) clearCookie(reply, request);
      return null;
    }
    const id = sessionId(token);
    const found = await findSession(db, id);
    const t = now().getTime();
    if (!found || !isLive(found, t)) {
      if (found) await deleteSession(db, id);
      clearCookie(reply, request);
      return null;
    }
    if (t - Date.parse(found.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS) {
      const expires = expiryFrom(Date.parse(found.createdAt), t);
      await touchSession(db, id, new Date(t).toISOString(), new Date(expires).toISOString());
      setCookie(reply, request, token, expires - t);
    }
    return { admin: found.admin, mustChangePassword: found.mustChangePassword, id, publicId: found.publicId };
  };

  return {
    async start(reply, request, adminId) {
      const token = randomBytes(32).toString('base64url');
      const t = now().getTime();
      const expires = expiryFrom(t, t);
      const userAgent = request.headers['user-agent'];
      await insertSession(db, {
        id: sessionId(token),
        publicId: randomBytes(16).toString('hex'),
        adminId,
        now: new Date(t).toISOString(),
        expiresAt: new Date(expires).toISOString(),
        ip: request.ip || null,
        userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
      });
      setCookie(reply, request, token, expires - t);
    },

    async load(request, reply) {
      return (await loadSession(request, reply))?.admin ?? null;
    },

    loadSession,

    async list(adminId) {
      const t = now().getTime();
      return listLiveSessions(db, adminId, new Date(t).toISOString(), new Date(t - maxMs).toISOString());
    },

    clearCookie,

    async stillValid(request) {
      const token = readToken(request);
      const found = token ? await findSession(db, sessionId(token)) : undefined;
      return found !== undefined && isLive(found, now().getTime());
    },

    async end(request, reply) {
      const token = readToken(request);
      if (token) await deleteSession(db, sessionId(token));
      clearCookie(reply, request);
    },
  };
}
