import { ERROR_CODES } from '@contract/errors';
import { ApiError } from '@/lib/api';

/** This admin must change the password first: the session shows that screen instead (session.tsx). */
export const isPasswordChangeRequired = (err: unknown) => err instanceof ApiError && err.status === 403 && err.code === ERROR_CODES.passwordChangeRequired;

/**
 * A 401 belongs to the session (it sends the admin to login), and so does a 403 asking for a new
 * password (the change-password screen takes over); screens stay quiet about them.
 */
export const isSessionError = (err: unknown) => (err instanceof ApiError && err.status === 401) || isPasswordChangeRequired(err);

export const errorMessage = (err: unknown, fallback = 'Something went wrong. Please try again.') =>
  err instanceof Error && err.message ? err.message : fallback;
