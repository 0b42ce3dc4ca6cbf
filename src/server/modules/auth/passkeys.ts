import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { API } from '../../../contract/api-paths';
import { adminProfileSchema } from '../../../contract/auth';
import { idParamsSchema, okSchema } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import {
  passkeyListSchema,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  passkeySchema,
  passkeySignInSchema,
  webauthnOptionsSchema,
} from '../../../contract/passkeys';
import type { Config } from '../../config';
import type { App } from '../../context';
import type { Tables } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { HttpError } from '../../http-error';
import type { DeviceCookies } from './device-cookies';
import { signedInAdmin } from './guard';
import {
  type ChallengePurpose,
  credentialsOf,
  deletePasskey,
  findCredential,
  insertPasskey,
  isUniqueViolation,
  listPasskeys,
  markPasskeyUsed,
  renamePasskey,
  saveChallenge,
  takeChallenge,
} from './passkey-queries';
import { isForeignKeyViolation, toAdminProfile } from './queries';
import { countPasskeyOptions, countPasskeySignIn } from './rate-limit';
import type { SessionStore } from './sessions';
import { auditActor, auditActorAs, changedFields, type RecordSignIn, recordAudit } from '../audit/record';

/** How long a ceremony may take, from the options to the verification (also the browser's timeout). */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;

/** Any port of localhost: where PUBLIC_URL is unset, the site is only reachable as localhost. */
const LOCALHOST_ORIGIN = /^https?:\/\/localhost(:\d{1,5})?$/;

/**
 * The relying party (docs/decisions/425-passkey-relying-party-from-public-url.md): its id and origin come from
 * PUBLIC_URL, or are `localhost` (any port) when it is unset, never from the request's Host header,
 * which a client chooses.
 */
export interface RelyingParty {
  id: string;
  name: string;
  /** The origin a ceremony's clientData must name. */
  expectedOrigin(claimed: string): string;
}

export function relyingParty(config: Pick<Config, 'publicUrl' | 'siteName'>): RelyingParty {
  if (config.publicUrl) {
    const url = new URL(config.publicUrl);
    return { id: url.hostname, name: config.siteName, expectedOrigin: () => url.origin };
  }
  return {
    id: 'localhost',
    name: config.siteName,
    expectedOrigin: (claimed) => (LOCALHOST_ORIGIN.test(claimed) ? claimed : 'http://localhost'),
  };
}

/** The challenge and origin a browser's clientDataJSON names, or a 400 when it is not readable. */
function readClientData(clientDataJSON: string): { challenge: string; origin: string } {
  let data: unknown;
  try {
    data = decodeClientDataJSON(clientDataJSON);
  } catch {
    throw badRequest('clientDataJSON is not valid base64url JSON', { 'response.response.clientDataJSON': 'Not valid base64url JSON' });
  }
  const { challenge, origin } = (data ?? {}) as { challenge?: unknown; origin?: unknown };
  if (typeof challenge !== 'string' || !challenge || challenge.length > 200 || typeof origin !== 'string') {
    throw badRequest('clientDataJSON has no challenge or origin', { 'response.response.clientDataJSON': 'No challenge or origin' });
  }
  return { challenge, origin };
}

const expiredChallenge = (what: string) =>
  new HttpError(400, ERROR_CODES.validation, `This ${what} has expired or was already used. Please try again.`);
const signInFailed = () => new HttpError(401, ERROR_CODES.unauthorized, 'Passkey sign-in failed');

/** Reads and uses up the challenge a response answers; a 400 when it is unknown, used, expired or not this ceremony's. */
async function useChallenge(db: Kysely<Tables>, clientDataJSON: string, purpose: ChallengePurpose, adminId: number | null) {
  const client = readClientData(clientDataJSON);
  if (!(await takeChallenge(db, client.challenge, purpose, adminId, new Date().toISOString()))) {
    throw expiredChallenge(purpose === 'register' ? 'request to add a passkey' : 'sign-in request');
  }
  return client;
}

const docs = { tags: ['passkeys'], security: [{ session: [] }] };

/**
 * Passkeys (WebAuthn through @simplewebauthn/server; docs/decisions/428-a-passkey-signs-in-by-itself.md): the signed-in admin
 * adds, lists, renames and removes their own, and anyone may sign in with one (a discoverable
 * credential with user verification: a session by itself). Registered by the auth module, which
 * owns the session store.
 */
export async function passkeyRoutes(
  app: App,
  { config, db, sessions, devices, audit }: { config: Config; db: Kysely<Tables>; sessions: SessionStore; devices: DeviceCookies; audit: RecordSignIn },
): Promise<void> {
  const rp = relyingParty(config);
  /** A failed assertion (unknown credential, failed verification): recorded with no actor, never the assertion; then answered. */
  const refuse = async (request: FastifyRequest, passkeyId?: number) => {
    await audit(request, null, { action: 'auth.login_failed', ...(passkeyId === undefined ? {} : { target: { type: 'passkey', id: passkeyId } }), changes: { method: 'passkey' } });
    return signInFailed();
  };
  const expiresAt = () => new Date(Date.now() + PASSKEY_CHALLENGE_MS).toISOString();

  app.get(
    API.adminPasskeys,
    { config: { access: 'admin' }, schema: { ...docs, response: { 200: passkeyListSchema } } },
    async function listPasskeysHandler(request) {
      return { items: await listPasskeys(db, signedInAdmin(request).id) };
    },
  );

  app.post(
    API.adminPasskeyOptions,
    { config: { access: 'admin' }, schema: { ...docs, response: { 200: webauthnOptionsSchema } } },
    async function passkeyRegistrationOptionsHandler(request) {
      const admin = signedInAdmin(request);
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: admin.username,
        userDisplayName: admin.username,
        timeout: PASSKEY_CHALLENGE_MS,
        attestationType: 'none',
        // One passkey per authenticator: the browser refuses one already registered to this admin.
        excludeCredentials: await credentialsOf(db, admin.id),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      });
      await saveChallenge(db, { challenge: options.challenge, purpose: 'register', adminId: admin.id, expiresAt: expiresAt() }, new Date().toISOString());
      return { ...options };
    },
  );

  app.post(
    API.adminPasskeys,
    { config: { access: 'admin' }, schema: { ...docs, body: passkeyRegisterSchema, response: { 201: passkeySchema } } },
    async function addPasskeyHandler(request, reply) {
      const admin = signedInAdmin(request);
      const { name, response } = request.body;
      const client = await useChallenge(db, response.response.clientDataJSON, 'register', admin.id);
      let info;
      try {
        const verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: client.challenge,
          expectedOrigin: rp.expectedOrigin(client.origin),
          expectedRPID: rp.id,
          requireUserVerification: true,
        });
        info = verification.verified ? verification.registrationInfo : undefined;
      } catch (err) {
        request.log.info({ reason: (err as Error).message }, 'passkey registration refused');
        throw badRequest(`The passkey could not be verified: ${(err as Error).message}`);
      }
      if (!info) throw badRequest('The passkey could not be verified');
      const { credential } = info;
      try {
        // One transaction per write, with its audit entry (the name only: never the credential or its key).
        const created = await db.transaction().execute(async (trx) => {
          const passkey = await insertPasskey(trx, {
            adminId: admin.id,
            credentialId: credential.id,
            publicKey: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports ?? response.response.transports ?? [],
            name,
            now: new Date().toISOString(),
          });
          await recordAudit(trx, auditActor(request), { action: 'passkey.add', target: { type: 'passkey', id: passkey.id }, changes: { after: { name: passkey.name } } });
          return passkey;
        });
        return reply.status(201).send(created);
      } catch (err) {
        if (isUniqueViolation(err)) throw new HttpError(409, ERROR_CODES.conflict, 'This passkey is already registered');
        throw err;
      }
    },
  );

  const one = `${API.adminPasskeys}/:id`;

  app.patch(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, body: passkeyRenameSchema, response: { 200: passkeySchema } } },
    async function renamePasskeyHandler(request) {
      const admin = signedInAdmin(request);
      const renamed = await db.transaction().execute(async (trx) => {
        const r = await renamePasskey(trx, admin.id, request.params.id, request.body.name);
        const changes = r && changedFields({ name: r.before }, { name: r.passkey.name });
        // The same name again changed nothing: no entry.
        if (changes) await recordAudit(trx, auditActor(request), { action: 'passkey.rename', target: { type: 'passkey', id: request.params.id }, changes });
        return r?.passkey;
      });
      if (!renamed) throw notFound('Passkey not found');
      return renamed;
    },
  );

  app.delete(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async function removePasskeyHandler(request) {
      const admin = signedInAdmin(request);
      const removed = await db.transaction().execute(async (trx) => {
        const name = await deletePasskey(trx, admin.id, request.params.id);
        if (name !== undefined) await recordAudit(trx, auditActor(request), { action: 'passkey.remove', target: { type: 'passkey', id: request.params.id }, changes: { before: { name } } });
        return name !== undefined;
      });
      if (!removed) throw notFound('Passkey not found');
      return { ok: true as const };
    },
  );

  // Sign-in ------------------------------------------------------------------------------------

  app.post(
    API.passkeySignInOptions,
    { schema: { tags: ['auth'], response: { 200: webauthnOptionsSchema } } },
    async function passkeySignInOptionsHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      await countPasskeyOptions(db, request.ip);
      // No allowCredentials: the authenticator offers the discoverable credentials it holds for us.
      const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: PASSKEY_CHALLENGE_MS });
      await saveChallenge(db, { challenge: options.challenge, purpose: 'sign_in', adminId: null, expiresAt: expiresAt() }, new Date().toISOString());
      return { ...options };
    },
  );

  app.post(
    API.passkeySignIn,
    { schema: { tags: ['auth'], body: passkeySignInSchema, response: { 200: adminProfileSchema } } },
    async function passkeySignInHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      await countPasskeySignIn(db, request.ip);
      const { response } = request.body;
      const client = await useChallenge(db, response.response.clientDataJSON, 'sign_in', null);
      const found = await findCredential(db, response.id);
      if (!found) {
        request.log.info('passkey sign-in with an unknown credential');
        throw await refuse(request);
      }
      const { credential, admin } = found;
      let newCounter: number;
      try {
        const verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: client.challenge,
          expectedOrigin: rp.expectedOrigin(client.origin),
          expectedRPID: rp.id,
          credential: {
            id: credential.credentialId,
            publicKey: isoBase64URL.toBuffer(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports as never,
          },
          requireUserVerification: true,
        });
        if (!verification.verified) throw new Error('not verified');
        newCounter = verification.authenticationInfo.newCounter;
      } catch (err) {
        request.log.info({ reason: (err as Error).message }, 'passkey sign-in refused');
        // Nobody proved to be the admin: no actor; the passkey it named is the target.
        throw await refuse(request, credential.id);
      }
      try {
        await sessions.start(reply, request, admin.id);
      } catch (err) {
        // The admin was deleted while their passkey was being checked.
        if (isForeignKeyViolation(err)) throw signInFailed();
        throw err;
      }
      // After the session, as a password sign-in's entry (decision 420): the counter and the entry together.
      await db.transaction().execute(async (trx) => {
        await markPasskeyUsed(trx, credential.id, newCounter, new Date().toISOString());
        await recordAudit(trx, auditActorAs(request, admin), {
          action: 'auth.login',
          target: { type: 'admin', id: admin.id },
          changes: { method: 'passkey', passkey: { id: credential.id, name: credential.name } },
        });
      });
      devices.issue(reply, request, admin.username);
      return toAdminProfile(admin);
    },
  );
}
