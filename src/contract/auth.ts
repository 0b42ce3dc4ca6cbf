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
});
export type AdminCreate = z.input<typeof adminCreateSchema>;

export const adminListSchema = z.object({ items: z.array(adminProfileSchema) });
export type AdminList = z.infer<typeof adminListSchema>;
