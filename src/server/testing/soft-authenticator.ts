import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * Test-only: a WebAuthn authenticator in software (an ES256 key pair from node:crypto), answering
 * the options our server gives as a browser with a platform authenticator would, so that API tests
 * run real ceremonies through the real @simplewebauthn/server verification. Attestation 'none'.
 * Each answer may be altered (another origin, RP id, flags, counter) to test refusals.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Alter {
  origin?: string;
  rpId?: string;
  /** Authenticator flags; default UP|UV (and AT when registering). */
  userVerified?: boolean;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  type?: string;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export function softAuthenticator(defaults: { rpId: string; origin: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(32);
  let counter = 0;

  const cosePublicKey = () =>
    isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );

  const authData = (rpId: string, flags: number, count: number, attested?: Buffer) => {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(count);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), c, attested ?? Buffer.alloc(0)]);
  };

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** The credential's id as base64url (what the server stores). */
    id: b64url(credentialId),

    /** navigator.credentials.create(), as @simplewebauthn/browser's startRegistration() answers it. */
    register(options: { challenge: string }, alter: Alter = {}) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), len, credentialId, cosePublicKey()]);
      const flags = FLAG_UP | (alter.userVerified === false ? 0 : FLAG_UV) | FLAG_AT;
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(alter.rpId ?? defaults.rpId, flags, alter.counter ?? 0, attested)],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData(alter.type ?? 'webauthn.create', options.challenge, alter.origin ?? defaults.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },

    /** navigator.credentials.get(), as startAuthentication() answers it. */
    authenticate(options: { challenge: string }, alter: Alter = {}) {
      counter = alter.counter ?? counter + 1;
      const flags = FLAG_UP | (alter.userVerified === false ? 0 : FLAG_UV);
      const data = authData(alter.rpId ?? defaults.rpId, flags, counter);
      const client = clientData(alter.type ?? 'webauthn.get', options.challenge, alter.origin ?? defaults.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: b64url(Buffer.from('user')),
        },
      };
    },
  };
}
