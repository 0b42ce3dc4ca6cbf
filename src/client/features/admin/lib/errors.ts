import { ApiError } from '@/lib/api';

/** A 401 belongs to the session (it sends the admin to login); screens stay quiet about it. */
export const isSessionError = (err: unknown) => err instanceof ApiError && err.status === 401;

export const errorMessage = (err: unknown, fallback = 'Something went wrong. Please try again.') =>
  err instanceof Error && err.message ? err.message : fallback;
