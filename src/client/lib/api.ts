import { DATA_RETRY_ATTEMPTS, DATA_RETRY_BASE_DELAY_MS, FETCH_TIMEOUT_MS } from '@contract/constants';
import type { ErrorBody } from '@contract/errors';

/** Every failed API call throws this: the server's error shape, or a network/timeout error (status 0). */
export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public fields?: Record<string, string>,
    public retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The code of the error a request that ran out of time throws. */
export const TIMEOUT_CODE = 'TIMEOUT';

type Unauthorized = (path: string) => void;
const unauthorizedListeners = new Set<Unauthorized>();

/** The admin area subscribes here: a 401 from an admin call means the session is gone. */
export function onUnauthorized(fn: Unauthorized): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

type ErrorListener = (error: ApiError, path: string) => void;
const errorListeners = new Set<ErrorListener>();

/** Every failed API call with the server's error shape, e.g. for the admin area to react to a code any route may answer. */
export function onApiError(fn: ErrorListener): () => void {
  errorListeners.add(fn);
  return () => errorListeners.delete(fn);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /**
   * Sent as JSON, except a `FormData` (multipart, the browser writes its boundary) and binary data
   * (`Blob`, `ArrayBuffer`, a typed array), which go as they are.
   */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
}

const BINARY_TYPE = 'application/octet-stream';

/** The fetch body and its content type (none for FormData: fetch sets it with the boundary). */
function encodeBody(body: unknown): { data?: BodyInit; type?: string } {
  if (body === undefined) return {};
  if (body instanceof FormData) return { data: body };
  if (body instanceof Blob) return { data: body, type: body.type || BINARY_TYPE };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { data: body as BodyInit, type: BINARY_TYPE };
  return { data: JSON.stringify(body), type: 'application/json' };
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, timeoutMs = FETCH_TIMEOUT_MS } = opts;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const encoded = encodeBody(body);
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers: encoded.type ? { accept: 'application/json', 'content-type': encoded.type } : { accept: 'application/json' },
      body: encoded.data,
    });
  } catch (err) {
    if (timeout.aborted) throw new ApiError(0, TIMEOUT_CODE, `Operation timed out after ${timeoutMs}ms`);
    if (opts.signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK_ERROR', 'Network error: could not reach the server');
  }
  if (res.status === 204) return undefined as T;
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const body = isErrorBody(data) ? data.error : undefined;
    const retryAfter = Number(res.headers.get('retry-after')) || undefined;
    const error = body
      ? new ApiError(res.status, body.code, body.message, body.fields, retryAfter)
      : new ApiError(res.status, 'HTTP_ERROR', res.status >= 500 ? 'Service unavailable' : `Request failed (${res.status})`, undefined, retryAfter);
    if (res.status === 401) unauthorizedListeners.forEach((fn) => fn(path));
    if (body) errorListeners.forEach((fn) => fn(error, path));
    throw error;
  }
  return data as T;
}

// A hand check, not the zod schema: keeps zod out of the public bundle.
function isErrorBody(v: unknown): v is ErrorBody {
  const e = (v as ErrorBody | undefined)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string';
}

/** PRODUCT.md: reads retry on network errors, 5xx and 429 only; writes never. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.status === 0 || err.status >= 500 || err.status === 429;
}

export function queryRetry(failureCount: number, err: unknown): boolean {
  return failureCount < DATA_RETRY_ATTEMPTS && isRetryable(err);
}

/** 1 s, 2 s, 4 s. */
export function queryRetryDelay(attempt: number): number {
  return DATA_RETRY_BASE_DELAY_MS * 2 ** attempt;
}
