import { z } from 'zod';
import { text, timestamp } from './common';

/** Longest name an admin may give a passkey. */
export const PASSKEY_NAME_MAX = 64;

/** One of the signed-in admin's passkeys, as the Security page lists it. */
export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: timestamp,
  /** The last sign-in with it (UTC); null: never used yet. */
  last_used_at: timestamp.nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ items: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const passkeyNameSchema = text(PASSKEY_NAME_MAX, { label: 'Name' });

/**
 * The options for the browser's WebAuthn call, as @simplewebauthn/server writes them
 * (PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON): passed to
 * @simplewebauthn/browser as they are. Only the challenge is named here.
 */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });

/** base64url text of at most `max` characters, as WebAuthn responses carry their binary parts. */
const b64url = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} is too long` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${label} must be base64url` });

// A credential id is at most 1023 bytes (WebAuthn §5.8.3): 1364 base64url characters.
const credentialFields = {
  id: b64url('Credential id', 1400),
  rawId: b64url('Credential id', 1400),
  type: z.literal('public-key', { error: 'type must be "public-key"' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** What @simplewebauthn/browser's startRegistration() answers (RegistrationResponseJSON), in bounded sizes. */
export const registrationResponseSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url('clientDataJSON', 4000),
    attestationObject: b64url('attestationObject', 40_000),
    // usb, nfc, ble, internal, hybrid, smart-card…: names, never free text.
    transports: z.array(z.string().max(32).regex(/^[a-z-]+$/, { error: 'transports must be names such as usb or internal' })).max(10).optional(),
  }),
});

/** What @simplewebauthn/browser's startAuthentication() answers (AuthenticationResponseJSON), in bounded sizes. */
export const authenticationResponseSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url('clientDataJSON', 4000),
    authenticatorData: b64url('authenticatorData', 4000),
    signature: b64url('signature', 6000),
    userHandle: b64url('userHandle', 200).optional(),
  }),
});

/** "Add a passkey", second half: the name the admin gave and the browser's answer. */
export const passkeyRegisterSchema = z.strictObject({
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type PasskeyRegister = z.input<typeof passkeyRegisterSchema>;

export const passkeyRenameSchema = z.strictObject({ name: passkeyNameSchema });
export type PasskeyRename = z.infer<typeof passkeyRenameSchema>;

/** Sign-in with a passkey, second half: the browser's answer (a discoverable credential: no username). */
export const passkeySignInSchema = z.strictObject({ response: authenticationResponseSchema });
export type PasskeySignIn = z.input<typeof passkeySignInSchema>;
