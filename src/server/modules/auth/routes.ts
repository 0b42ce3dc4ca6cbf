import type { FastifyRequest } from 'fastify';
import { loginSchema, signedInAdminSchema } from '../../../contract/auth';
import { loginResultSchema } from '../../../contract/two-factor';
import { API } from '../../../contract/api-paths';
import { okSchema } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import type { Module } from '../../context';
import { HttpError } from '../../http-error';
import { installAdminGuard, unauthorized } from './guard';
import { burnVerifyTime, hashPassword, needsRehash, primeDummyHash, verifyPassword } from './passwords';
import { deleteExpired, findAdminForLogin, isForeignKeyViolation, toAdminProfile, updatePasswordHash } from './queries';
import { deviceCookies } from './device-cookies';
import { passkeyRoutes } from './passkeys';
import { clearLoginLimits, countLoginAttempt } from './rate-limit';
import { resolveSessionSecret } from './secret';
import { createSessionStore } from './sessions';
import { registerSessionRoutes } from './sessions-routes';
import { deleteExpiredChallenges } from './challenges';
import { registerTwoFactorRoutes } from './two-factor-routes';
import { type AuditInput, auditActorAs, recordAudit } from '../audit/record';

/** Expired sessions and finished rate-limit windows are swept this often, by every instance. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Sign-in, sign-out, the current admin, and the guard for every /api/admin route.
 * Register before any admin module.
 */
export const authModule: Module = async (app, { config, database }) => {
  const { db } = database;
  const secret = await resolveSessionSecret(config, database);
  const sessions = createSessionStore(db, secret, config.sessionMaxMs);
  const devices = deviceCookies(secret);
  installAdminGuard(app, sessions);
  registerSessionRoutes(app, { db, sessions });
  primeDummyHash();

  // On a timer, not on sign-ins: rows from attempts that stop coming must go too. Unref'd, so it
  // never keeps a process alive; a sweep under way is waited for when the app closes.
  let sweeping: Promise<void> = Promise.resolve();
  const sweeper = setInterval(() => {
    const now = new Date().toISOString();
    sweeping = Promise.all([deleteExpired(db, now), deleteExpiredChallenges(db, now)])
      .then(() => undefined)
      .catch((err) => app.log.warn({ err }, 'sweeping expired sessions failed'));
  }, SWEEP_INTERVAL_MS).unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sweeping;
  });

  /** Sign-ins and sign-outs in the audit log (decision 420), each a write of its own; `admin` null: nobody signed in. */
  const audit = (request: FastifyRequest, admin: { id: number; username: string } | null, entry: AuditInput) =>
    db.transaction().execute((trx) => recordAudit(trx, auditActorAs(request, admin), entry));

  const twoStep = registerTwoFactorRoutes(app, { db, secret, issuer: config.siteName, sessions, devices, audit });

  const invalid = () => new HttpError(401, ERROR_CODES.unauthorized, 'Invalid username or password');
  /** A refused sign-in: recorded with the name tried (never the password), then answered as invalid. */
  const refuse = async (request: FastifyRequest, username: string) => {
    await audit(request, null, { action: 'auth.login_failed', changes: { username } });
    return invalid();
  };

  app.post(
    API.login,
    { schema: { tags: ['auth'], body: loginSchema, response: { 200: loginResultSchema } } },
    async function signInHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      const { username, password } = request.body;
      const attempt = { ip: request.ip, username, device: devices.deviceFor(request, username) };
      await countLoginAttempt(db, attempt);
      const admin = await findAdminForLogin(db, username);
      if (!admin) {
        await burnVerifyTime(password);
        throw await refuse(request, username);
      }
      if (!(await verifyPassword(admin.password_hash, password))) throw await refuse(request, username);
      if (needsRehash(admin.password_hash)) await updatePasswordHash(db, admin.id, await hashPassword(password));
      // A second step due: a challenge, no session, and the limits stay until that step succeeds. Not
      // recorded: its outcome is (auth.login with the method, or auth.login_failed per wrong code).
      const challenge = await twoStep.afterPassword(admin.id);
      if (challenge) return challenge;
      await clearLoginLimits(db, attempt);
      try {
        await sessions.start(reply, request, admin.id);
      } catch (err) {
        // The account was deleted while its password was being checked: as for an unknown name.
        if (isForeignKeyViolation(err)) throw await refuse(request, username);
        throw err;
      }
      await audit(request, admin, { action: 'auth.login', target: { type: 'admin', id: admin.id }, changes: { method: 'password' } });
      devices.issue(reply, request, admin.username);
      return toAdminProfile(admin);
    },
  );

  app.post(API.logout, { schema: { tags: ['auth'], response: { 200: okSchema } } }, async function signOutHandler(request, reply) {
    reply.header('cache-control', 'no-store');
    const admin = await sessions.load(request, reply);
    await sessions.end(request, reply);
    if (admin) await audit(request, admin, { action: 'auth.logout', target: { type: 'admin', id: admin.id } });
    return { ok: true as const };
  });

  app.get(
    API.me,
    { schema: { tags: ['auth'], security: [{ session: [] }], response: { 200: signedInAdminSchema } } },
    async function getMeHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      const session = await sessions.loadSession(request, reply);
      if (!session) throw unauthorized();
      return { ...session.admin, must_change_password: session.mustChangePassword };
    },
  );

  await passkeyRoutes(app, { config, db, sessions, devices, audit });
};
