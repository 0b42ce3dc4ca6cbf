import { z } from 'zod';
import { adminProfileSchema } from './auth';
import { str } from './common';
import { PASSWORD_MAX } from './constants';

/** Two-step sign-in (docs/decisions/410–414): TOTP, recovery codes and the site's policy. */

export const TWO_FACTOR_POLICIES = ['off', 'optional', 'required'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];
export const TWO_FACTOR_POLICY_DEFAULT: TwoFactorPolicy = 'optional';

export const RECOVERY_CODE_COUNT = 10;
/** A sign-in challenge lives this long, and dies after this many wrong codes. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_FAILURES = 5;

/** Six digits; spaces are forgiven (apps show "123 456"). */
export const totpCodeSchema = str('Code')
  .transform((s) => s.replace(/\s+/g, ''))
  .refine((s) => /^\d{6}$/.test(s), { error: 'Code must be 6 digits' });

/** Ten letters or digits in two groups (`abcde-23456`); case, spaces and dashes are forgiven. */
export const recoveryCodeSchema = str('Recovery code')
  .max(64, { error: 'Recovery code is not valid' })
  .transform((s) => s.toLowerCase().replace(/[\s-]+/g, ''))
  .refine((s) => /^[a-z0-9]{10}$/.test(s), { error: 'Recovery code is not valid' });

const challengeSchema = str('Challenge', { trim: false }).regex(/^[A-Za-z0-9_-]{43}$/, { error: 'Challenge is not valid' });

/** What POST /api/auth/login answers instead of a profile when a second step is due (no cookie). */
export const twoFactorChallengeSchema = z.object({ two_factor_required: z.literal(true), challenge: z.string() });
/** Policy `required` and no second factor yet: the challenge allows enrolment only. */
export const twoFactorSetupChallengeSchema = z.object({ two_factor_setup_required: z.literal(true), challenge: z.string() });
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;
export type TwoFactorSetupChallenge = z.infer<typeof twoFactorSetupChallengeSchema>;
export const loginResultSchema = z.union([adminProfileSchema, twoFactorChallengeSchema, twoFactorSetupChallengeSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

/** POST /api/auth/login/2fa: a current code or one unused recovery code (exactly one of them). */
export const loginSecondStepSchema = z
  .strictObject({ challenge: challengeSchema, code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), {
    error: 'Send either code or recovery_code',
    path: ['code'],
    // Only once the fields themselves are valid: a bad field is reported alone.
    when: (payload) => payload.issues.length === 0,
  });
export type LoginSecondStep = z.input<typeof loginSecondStepSchema>;

/** POST /api/auth/totp (and /api/auth/login/totp): the new key, shown once. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const codeBodySchema = z.strictObject({ code: totpCodeSchema });
export type CodeBody = z.input<typeof codeBodySchema>;
export const challengeBodySchema = z.strictObject({ challenge: challengeSchema });
export const challengeCodeBodySchema = z.strictObject({ challenge: challengeSchema, code: totpCodeSchema });

export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
/** Enrolment at sign-in: the recovery codes, and the session is open. */
export const enrolledSignInSchema = recoveryCodesSchema.extend({ admin: adminProfileSchema });
export type EnrolledSignIn = z.infer<typeof enrolledSignInSchema>;

export const totpDisableSchema = z.strictObject({
  password: str('Password', { trim: false }).min(1, { error: 'Password is required' }).max(PASSWORD_MAX),
  code: totpCodeSchema,
});
export type TotpDisable = z.input<typeof totpDisableSchema>;

/** GET /api/auth/totp: the signed-in admin's two-step state, for the Security page. */
export const twoFactorStatusSchema = z.object({
  totp_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  policy: z.enum(TWO_FACTOR_POLICIES),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorPolicySchema = z.strictObject({
  policy: z.enum(TWO_FACTOR_POLICIES, { error: `Policy must be one of: ${TWO_FACTOR_POLICIES.join(', ')}` }),
});
export type TwoFactorPolicyBody = z.infer<typeof twoFactorPolicySchema>;
