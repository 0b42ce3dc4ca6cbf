import { z } from 'zod';

/** The one error shape every failing API response has. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_CODES = {
  validation: 'VALIDATION_ERROR',
  badJson: 'BAD_JSON',
  notFound: 'NOT_FOUND',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  /** 403: this admin must change the password before doing anything else. */
  passwordChangeRequired: 'PASSWORD_CHANGE_REQUIRED',
  conflict: 'CONFLICT',
  /** 401: a sign-in challenge (two-step sign-in) expired, was used, or took too many wrong codes: sign in again. */
  challengeExpired: 'CHALLENGE_EXPIRED',
  rateLimited: 'RATE_LIMITED',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  badOrigin: 'BAD_ORIGIN',
  /** 408: the request did not arrive in time. */
  requestTimeout: 'REQUEST_TIMEOUT',
  /** 503: the service cannot take the request now (e.g. the database cannot take writes). */
  unavailable: 'UNAVAILABLE',
  /** 507: the file store has no room. */
  storageFull: 'STORAGE_FULL',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
