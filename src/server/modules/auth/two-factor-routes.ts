import { adminProfileSchema } from '../../../contract/auth';
import { API } from '../../../contract/api-paths';
import { okSchema } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import {
  challengeBodySchema,
  challengeCodeBodySchema,
  codeBodySchema,
  enrolledSignInSchema,
  recoveryCodesSchema,
  totpDisableSchema,
  totpEnrolmentSchema,
  twoFactorPolicySchema,
  twoFactorStatusSchema,
  loginSecondStepSchema,
  RECOVERY_CODE_COUNT,
  type TwoFactorChallenge,
  type TwoFactorSetupChallenge,
} from '../../../contract/two-factor';
import type { App } from '../../context';
import type { Tables } from '../../db/schema';
import { HttpError } from '../../http-error';
import { nowIso } from '../../time';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { challengeStore, type LiveChallenge } from './challenges';
import type { DeviceCookies } from './device-cookies';
import { signedInAdmin } from './guard';
import { verifyPassword } from './passwords';
import { isForeignKeyViolation, toAdminProfile } from './queries';
import { clearLoginLimits, countLoginAttempt } from './rate-limit';
import { hasSecondFactor } from './second-factor';
import type { SessionStore } from './sessions';
import { totpKeyCipher } from './totp';
import { ChallengeGone, clearCodeAttempts, countCodeAttempt, removeTotp, twoFactor, wrongCode } from './two-factor';
import { readTwoFactorPolicy, writeTwoFactorPolicy } from './two-factor-policy';
import { auditActor, auditActorAs, changedFields, type RecordSignIn, recordAudit } from '../audit/record';

interface Deps {
  db: Kysely<Tables>;
  secret: string;
  issuer: string;
  sessions: SessionStore;
  devices: DeviceCookies;
  audit: RecordSignIn;
}

const challengeExpired = () => new HttpError(401, ERROR_CODES.challengeExpired, 'Your sign-in expired. Please enter your password again.');
const signInWrongCode = (recovery: boolean) =>
  new HttpError(401, ERROR_CODES.unauthorized, recovery ? 'That recovery code is wrong or was already used' : 'That code is wrong or was already used');
const conflict = (message: string) => new HttpError(409, ERROR_CODES.conflict, message);

/**
 * Two-step sign-in (docs/decisions/410–414): the TOTP routes of the signed-in admin, the second
 * sign-in step, enrolment at sign-in under policy `required`, and the policy. Returns what
 * POST /api/auth/login calls after a right password: a challenge instead of a session when a
 * second step is due, or null.
 */
export function registerTwoFactorRoutes(app: App, { db, secret, issuer, sessions, devices, audit }: Deps) {
  const challenges = challengeStore(secret);
  const tf = twoFactor(db, totpKeyCipher(secret), () => issuer);

  /** The challenge to answer after a right password, or null: sign in at once. */
  async function afterPassword(adminId: number): Promise<TwoFactorChallenge | TwoFactorSetupChallenge | null> {
    if (await hasSecondFactor(db, adminId)) return { two_factor_required: true, challenge: await challenges.create(db, adminId, 'second_factor') };
    if ((await readTwoFactorPolicy(db)) === 'required') return { two_factor_setup_required: true, challenge: await challenges.create(db, adminId, 'enrol') };
    return null;
  }

  /** Each code given at sign-in counts as a sign-in attempt (rate-limit.ts), before it is checked. */
  const signInAttempt = async (request: Parameters<DeviceCookies['deviceFor']>[0], found: LiveChallenge) => {
    const attempt = { ip: request.ip, username: found.username, device: devices.deviceFor(request, found.username) };
    await countLoginAttempt(db, attempt);
    return attempt;
  };

  const openSession = async (request: Parameters<DeviceCookies['deviceFor']>[0], reply: Parameters<SessionStore['start']>[0], found: LiveChallenge) => {
    try {
      await sessions.start(reply, request, found.adminId);
    } catch (err) {
      if (isForeignKeyViolation(err)) throw challengeExpired();
      throw err;
    }
    devices.issue(reply, request, found.username);
    const admin = await db.selectFrom('admins').select(['id', 'username', 'is_super_user', 'created_at']).where('id', '=', found.adminId).executeTakeFirstOrThrow();
    return toAdminProfile(admin);
  };

  /**
   * A wrong code after a right password, in the transaction that counts it against the challenge.
   * The password was right, so the entry names the account's admin: they see that their password
   * was used (decision 420). Never the code.
   */
  const recordFailure = (trx: Transaction<Tables>, request: FastifyRequest, found: LiveChallenge, method: 'totp' | 'recovery_code') =>
    recordAudit(trx, auditActorAs(request, { id: found.adminId, username: found.username }), {
      action: 'auth.login_failed',
      target: { type: 'admin', id: found.adminId },
      changes: { username: found.username, method },
    });

  app.post(
    API.loginSecondStep,
    { schema: { tags: ['auth'], body: loginSecondStepSchema, response: { 200: adminProfileSchema } } },
    async function secondStepHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      const { challenge, code, recovery_code } = request.body;
      const found = await challenges.find(db, challenge, 'second_factor');
      if (!found) throw challengeExpired();
      const attempt = await signInAttempt(request, found);
      const recoveryId = recovery_code === undefined ? undefined : await tf.matchRecoveryCode(found.adminId, recovery_code);
      const method = code !== undefined ? 'totp' : 'recovery_code';
      const outcome = await db.transaction().execute(async (trx) => {
        const right = code !== undefined ? await tf.acceptCode(trx, found.adminId, code, true) : recoveryId !== undefined && (await tf.spendRecoveryCode(trx, recoveryId));
        if (!right) {
          await challenges.fail(trx, found.id);
          await recordFailure(trx, request, found, method);
          return 'wrong' as const;
        }
        if (!(await challenges.consume(trx, found.id))) throw new ChallengeGone();
        return 'right' as const;
      }).catch((err) => {
        if (err instanceof ChallengeGone) return 'gone' as const;
        throw err;
      });
      if (outcome === 'gone') throw challengeExpired();
      if (outcome === 'wrong') throw signInWrongCode(recovery_code !== undefined);
      await clearLoginLimits(db, attempt);
      const admin = await openSession(request, reply, found);
      await audit(request, admin, { action: 'auth.login', target: { type: 'admin', id: admin.id }, changes: { method } });
      return admin;
    },
  );

  // Policy `required`, no second factor yet: the challenge lets the admin enrol, and nothing else.
  app.post(
    API.loginTotp,
    { schema: { tags: ['auth'], body: challengeBodySchema, response: { 200: totpEnrolmentSchema } } },
    async function enrolAtSignInHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      const found = await challenges.find(db, request.body.challenge, 'enrol');
      if (!found) throw challengeExpired();
      const enrolment = await tf.start({ id: found.adminId, username: found.username });
      if (!enrolment) throw conflict('Two-step sign-in is already on for this account');
      return enrolment;
    },
  );

  app.post(
    API.loginTotpConfirm,
    { schema: { tags: ['auth'], body: challengeCodeBodySchema, response: { 200: enrolledSignInSchema } } },
    async function confirmAtSignInHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      const found = await challenges.find(db, request.body.challenge, 'enrol');
      if (!found) throw challengeExpired();
      const attempt = await signInAttempt(request, found);
      let codes: string[] | null;
      try {
        codes = await tf.confirm(found.adminId, request.body.code, async (trx) => {
          if (!(await challenges.consume(trx, found.id))) return false;
          await recordAudit(trx, auditActorAs(request, { id: found.adminId, username: found.username }), { action: 'totp.enable', target: { type: 'admin', id: found.adminId } });
          return true;
        });
      } catch (err) {
        if (err instanceof ChallengeGone) throw challengeExpired();
        throw err;
      }
      if (!codes) {
        await db.transaction().execute(async (trx) => {
          await challenges.fail(trx, found.id);
          await recordFailure(trx, request, found, 'totp');
        });
        throw signInWrongCode(false);
      }
      await clearLoginLimits(db, attempt);
      const admin = await openSession(request, reply, found);
      await audit(request, admin, { action: 'auth.login', target: { type: 'admin', id: admin.id }, changes: { method: 'totp' } });
      return { recovery_codes: codes, admin };
    },
  );

  // The signed-in admin's own TOTP. Guarded by their session (config.access, guard.ts).
  app.get(
    API.totp,
    { config: { access: 'admin' }, schema: { tags: ['auth'], security: [{ session: [] }], response: { 200: twoFactorStatusSchema } } },
    async function totpStatusHandler(request) {
      const s = await tf.status(signedInAdmin(request).id);
      return { totp_enabled: s.totpEnabled, recovery_codes_left: s.recoveryCodesLeft, policy: await readTwoFactorPolicy(db) };
    },
  );

  app.post(
    API.totp,
    { config: { access: 'admin' }, schema: { tags: ['auth'], security: [{ session: [] }], response: { 200: totpEnrolmentSchema } } },
    async function totpStartHandler(request) {
      const admin = signedInAdmin(request);
      if ((await readTwoFactorPolicy(db)) === 'off') throw conflict('Two-step sign-in is turned off on this site');
      const enrolment = await tf.start(admin);
      if (!enrolment) throw conflict('Two-step sign-in is already on. Turn it off first to use another key.');
      return enrolment;
    },
  );

  app.post(
    API.totpConfirm,
    { config: { access: 'admin' }, schema: { tags: ['auth'], security: [{ session: [] }], body: codeBodySchema, response: { 200: recoveryCodesSchema } } },
    async function totpConfirmHandler(request) {
      const admin = signedInAdmin(request);
      await countCodeAttempt(db, admin.id);
      const codes = await tf.confirm(admin.id, request.body.code, async (trx) => {
        await recordAudit(trx, auditActor(request), { action: 'totp.enable', target: { type: 'admin', id: admin.id } });
        return true;
      });
      if (!codes) throw wrongCode();
      await clearCodeAttempts(db, admin.id);
      return { recovery_codes: codes };
    },
  );

  app.post(
    API.totpRecoveryCodes,
    { config: { access: 'admin' }, schema: { tags: ['auth'], security: [{ session: [] }], body: codeBodySchema, response: { 200: recoveryCodesSchema } } },
    async function regenerateRecoveryCodesHandler(request) {
      const admin = signedInAdmin(request);
      if (!(await tf.status(admin.id)).totpEnabled) throw conflict('Two-step sign-in is not on');
      await countCodeAttempt(db, admin.id);
      // The count only: the codes themselves are shown once, to the admin, and stored hashed.
      const codes = await tf.regenerate(admin.id, request.body.code, (trx) =>
        recordAudit(trx, auditActor(request), { action: 'totp.recovery_codes', target: { type: 'admin', id: admin.id }, changes: { count: RECOVERY_CODE_COUNT } }),
      );
      if (!codes) throw wrongCode();
      await clearCodeAttempts(db, admin.id);
      return { recovery_codes: codes };
    },
  );

  app.delete(
    API.totp,
    { config: { access: 'admin' }, schema: { tags: ['auth'], security: [{ session: [] }], body: totpDisableSchema, response: { 200: okSchema } } },
    async function totpDisableHandler(request) {
      const admin = signedInAdmin(request);
      if (!(await tf.status(admin.id)).totpEnabled) throw conflict('Two-step sign-in is not on');
      await countCodeAttempt(db, admin.id);
      const row = await db.selectFrom('admins').select('password_hash').where('id', '=', admin.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(row.password_hash, request.body.password))) {
        throw new HttpError(400, ERROR_CODES.validation, 'Password is wrong', { password: 'Password is wrong' });
      }
      await db.transaction().execute(async (trx) => {
        if (!(await tf.acceptCode(trx, admin.id, request.body.code, true))) throw wrongCode();
        await removeTotp(trx, admin.id);
        if ((await readTwoFactorPolicy(trx)) === 'required' && !(await hasSecondFactor(trx, admin.id))) {
          throw conflict('This site requires two-step sign-in: it cannot be turned off');
        }
        await recordAudit(trx, auditActor(request), { action: 'totp.disable', target: { type: 'admin', id: admin.id } });
      });
      await clearCodeAttempts(db, admin.id);
      return { ok: true as const };
    },
  );

  app.get(
    API.adminTwoFactorPolicy,
    { config: { access: 'super' }, schema: { tags: ['auth'], security: [{ session: [] }], response: { 200: twoFactorPolicySchema } } },
    async function getPolicyHandler() {
      return { policy: await readTwoFactorPolicy(db) };
    },
  );

  app.patch(
    API.adminTwoFactorPolicy,
    { config: { access: 'super' }, schema: { tags: ['auth'], security: [{ session: [] }], body: twoFactorPolicySchema, response: { 200: twoFactorPolicySchema } } },
    async function setPolicyHandler(request) {
      const admin = signedInAdmin(request);
      const { policy } = request.body;
      await db.transaction().execute(async (trx) => {
        const changes = changedFields({ policy: await readTwoFactorPolicy(trx) }, { policy });
        await writeTwoFactorPolicy(trx, policy, admin.id, nowIso());
        // The same policy again changed nothing: no entry.
        if (changes) await recordAudit(trx, auditActor(request), { action: 'two_factor.policy', target: { type: 'policy', id: 'two_factor' }, changes });
      });
      return { policy };
    },
  );

  return { afterPassword };
}
