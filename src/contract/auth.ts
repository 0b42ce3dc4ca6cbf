import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants';
import { str, timestamp } from './common';

/** The public profile of an admin: the only admin shape that ever leaves the server. */
export const adminProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  is_super_user: z.boolean(),
  created_at: timestamp,
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;

export const usernameSchema = str('Username')
  .min(USERNAME_MIN, { error: `Username must be at least ${USERNAME_MIN} characters` })
  .max(USERNAME_MAX, { error: `Username must be at most ${USERNAME_MAX} characters` })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'Username may contain only letters, digits, _ . and -' });

export const passwordSchema = str('Password', { trim: false })
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` });

/** Login accepts any strings within size bounds: a wrong shape is just a failed login. */
export const loginSchema = z.strictObject({
  username: str('Username', { trim: false }).min(1, { error: 'Username is required' }).max(USERNAME_MAX * 4),
  password: str('Password', { trim: false }).min(1, { error: 'Password is required' }).max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof loginSchema>;

export const adminCreateSchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  is_super_user: z.boolean({ error: 'is_super_user must be true or false' }).default(false),
  /** Off by default, so the spec's flow is unchanged (docs/decisions/417-must-change-password.md). */
  must_change_password: z.boolean({ error: 'must_change_password must be true or false' }).default(false),
});
export type AdminCreate = z.input<typeof adminCreateSchema>;

export const adminListSchema = z.object({ items: z.array(adminProfileSchema) });
export type AdminList = z.infer<typeof adminListSchema>;

/** GET /api/auth/me: the profile, and whether this admin must change the password before anything else. */
export const signedInAdminSchema = adminProfileSchema.extend({ must_change_password: z.boolean() });
export type SignedInAdmin = z.infer<typeof signedInAdminSchema>;

/**
 * POST /api/auth/password. The current password is only compared, so any text within bounds is
 * taken; the new one follows the password rules (the server also refuses common leaked passwords).
 */
export const passwordChangeSchema = z.strictObject({
  current_password: str('Current password', { trim: false }).min(1, { error: 'Current password is required' }).max(PASSWORD_MAX),
  new_password: passwordSchema,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** A session's public id (never the secret token or its hash). */
export const sessionIdSchema = z.string().regex(/^[0-9a-f]{32}$/, { error: 'Invalid session id' });
export const sessionParamsSchema = z.strictObject({ id: sessionIdSchema });

/** One of the signed-in admin's sessions, as GET /api/auth/sessions lists it. */
export const adminSessionSchema = z.object({
  id: sessionIdSchema,
  created_at: timestamp,
  last_seen_at: timestamp,
  /** Where it began; null for a session older than these records. */
  ip: z.string().nullable(),
  /** Read from the User-Agent, e.g. "Chrome 131" and "Linux"; null when it does not say. */
  browser: z.string().nullable(),
  system: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;
export const adminSessionListSchema = z.object({ items: z.array(adminSessionSchema) });
export type AdminSessionList = z.infer<typeof adminSessionListSchema>;

/** How many sessions a request ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int() });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
