/**
 * Thrown by routes and services for an expected failure; the error handler (errors.ts) turns it into
 * the error shape. No imports, so every layer may use it without loading anything else.
 */
export class HttpError extends Error {
  constructor(
    public statusCode: number,
    /** One of the contract's ERROR_CODES. */
    public code: string,
    message: string,
    public fields?: Record<string, string>,
    public headers?: Record<string, string>,
  ) {
    super(message);
  }
}
