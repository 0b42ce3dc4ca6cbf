import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { API } from '../../../contract/api-paths';
import {
  adminSessionListSchema,
  endedSessionsSchema,
  passwordChangeSchema,
  sessionParamsSchema,
} from '../../../contract/auth';
import { okSchema } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import type { App } from '../../context';
import type { Tables } from '../../db/schema';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { passwordChangeRequired, unauthorized } from './guard';
import { countPasswordAttempt, clearPasswordAttempts } from './password-attempts';
import { hashPassword, newPasswordProblem, verifyPassword } from './passwords';
import { changeOwnPassword, endOtherSessions, endOwnSession, findPasswordHash } from './session-queries';
import type { SessionStore, SignedInSession } from './sessions';
import { describeUserAgent } from './user-agent';
import { auditActorAs } from '../audit/record';

const docs = { tags: ['auth'], security: [{ session: [] }] };

const invalid = (field: string, message: string) => new HttpError(400, ERROR_CODES.validation, message, { [field]: message });

/**
 * One's own sessions and password (docs/decisions/415-session-public-ids.md): under /api/auth, so
 * each route checks its caller itself. An admin who must change the password may call only
 * POST /api/auth/password here (and /me, sign-out).
 */
export function registerSessionRoutes(app: App, { db, sessions }: { db: Kysely<Tables>; sessions: SessionStore }): void {
  const signedIn = async (request: FastifyRequest, reply: FastifyReply, opts: { duringPasswordChange?: boolean } = {}): Promise<SignedInSession> => {
    reply.header('cache-control', 'no-store');
    const session = await sessions.loadSession(request, reply);
    if (!session) throw unauthorized();
    if (session.mustChangePassword && !opts.duringPasswordChange) throw passwordChangeRequired();
    return session;
  };

  app.get(API.authSessions, { schema: { ...docs, response: { 200: adminSessionListSchema } } }, async function listSessionsHandler(request, reply) {
    const me = await signedIn(request, reply);
    const rows = await sessions.list(me.admin.id);
    const items = rows.map((row) => ({
      id: row.public_id,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      ip: row.ip,
      ...describeUserAgent(row.user_agent),
      user_agent: row.user_agent,
      current: row.id === me.id,
    }));
    // This device first, then the others as last used.
    items.sort((a, b) => Number(b.current) - Number(a.current));
    return { items };
  });

  app.post(
    API.authSessionsRevokeOthers,
    { schema: { ...docs, response: { 200: endedSessionsSchema } } },
    async function revokeOtherSessionsHandler(request, reply) {
      const me = await signedIn(request, reply);
      return { ended: await endOtherSessions(db, auditActorAs(request, me.admin), me.admin.id, me.id) };
    },
  );

  app.delete(
    `${API.authSessions}/:id`,
    { schema: { ...docs, params: sessionParamsSchema, response: { 200: okSchema } } },
    async function endSessionHandler(request, reply) {
      const me = await signedIn(request, reply);
      // Another admin's session is as unknown as one that never was.
      const ended = await endOwnSession(db, auditActorAs(request, me.admin), me.admin.id, request.params.id, me.id);
      if (ended === undefined) throw notFound('Session not found');
      if (ended === me.id) sessions.clearCookie(reply, request);
      return { ok: true as const };
    },
  );

  app.post(
    API.authPassword,
    { schema: { ...docs, body: passwordChangeSchema, response: { 200: endedSessionsSchema } } },
    async function changePasswordHandler(request, reply) {
      const me = await signedIn(request, reply, { duringPasswordChange: true });
      const { current_password, new_password } = request.body;
      // Counted before the check, as sign-ins are, so parallel guesses cannot slip past the limit.
      await countPasswordAttempt(db, me.admin.id);
      const stored = await findPasswordHash(db, me.admin.id);
      if (stored === undefined) throw unauthorized();
      if (!(await verifyPassword(stored, current_password))) throw invalid('current_password', 'Current password is incorrect');
      if (new_password === current_password) throw invalid('new_password', 'Choose a password different from the current one');
      const problem = await newPasswordProblem(new_password);
      if (problem !== undefined) throw invalid('new_password', problem);
      const ended = await changeOwnPassword(db, auditActorAs(request, me.admin), { adminId: me.admin.id, keepId: me.id, passwordHash: await hashPassword(new_password) });
      // This session was ended from elsewhere while the password was being checked: nothing changed.
      if (ended === undefined) {
        sessions.clearCookie(reply, request);
        throw unauthorized();
      }
      await clearPasswordAttempts(db, me.admin.id);
      return { ended };
    },
  );
}
