import {
  PREMIUM_RETRY_INITIAL_DELAY_MS,
  PREMIUM_RETRY_MAX_ATTEMPTS,
  PREMIUM_RETRY_MAX_DELAY_MS,
  PREMIUM_RETRY_MULTIPLIER,
  PREMIUM_RETRYABLE_MESSAGES,
} from '@contract/constants';
import { ApiError, TIMEOUT_CODE } from '@/lib/api';

/**
 * The premium carousel's own retry policy (spec section 9), separate from the app-wide
 * TanStack default: it decides from the error's message, and it shows its countdown.
 */

export const PREMIUM_FALLBACK_MESSAGE = 'Failed to fetch resources';

/** Delay before retry number `retry` (1-based): initial × multiplier^(retry-1), capped. */
export function premiumRetryDelay(retry: number): number {
  return Math.min(PREMIUM_RETRY_INITIAL_DELAY_MS * PREMIUM_RETRY_MULTIPLIER ** (retry - 1), PREMIUM_RETRY_MAX_DELAY_MS);
}

/**
 * Spec: retry when the message says 'timeout', 'network error', 'rate limit' or 'service
 * unavailable'. A fetch that timed out says 'Operation timed out after {ms}ms' (the spec's own
 * wording, which the list misses): it is a timeout, so it is retried too.
 */
export function isPremiumRetryable(err: unknown): boolean {
  if (err instanceof ApiError && err.code === TIMEOUT_CODE) return true;
  const message = err instanceof Error ? err.message.toLowerCase() : '';
  return PREMIUM_RETRYABLE_MESSAGES.some((m) => message.includes(m));
}

/**
 * The policy reads messages, but a server may word a 429 or a gateway error its own way:
 * make sure those transient statuses say so, keeping the server's words after it.
 */
export function normalizePremiumError(err: unknown): Error {
  if (err instanceof ApiError) {
    const lower = err.message.toLowerCase();
    if (err.status === 429 && !lower.includes('rate limit')) {
      return new ApiError(err.status, err.code, `Rate limit reached: ${err.message}`, err.fields, err.retryAfterSeconds);
    }
    if ([502, 503, 504].includes(err.status) && !lower.includes('service unavailable')) {
      return new ApiError(err.status, err.code, `Service unavailable: ${err.message}`, err.fields, err.retryAfterSeconds);
    }
    return err;
  }
  if (err instanceof Error && err.message) return err;
  return new Error(PREMIUM_FALLBACK_MESSAGE);
}

export interface RetryNotice {
  /** 1-based retry number. */
  attempt: number;
  max: number;
  /** Date.now() when the next attempt starts. */
  at: number;
}

/** 'Retry attempt 2/3 in 1.5s...' — seconds rounded up to a tenth, without a trailing '.0'. */
export function formatRetryNotice(notice: RetryNotice, now: number): string {
  const tenths = Math.max(0, Math.ceil((notice.at - now) / 100));
  return `Retry attempt ${notice.attempt}/${notice.max} in ${tenths / 10}s...`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` once, then retries up to PREMIUM_RETRY_MAX_ATTEMPTS times while the error is
 * retryable, announcing each wait through `onNotice` (null when done either way).
 */
export async function withPremiumRetry<T>(
  attempt: () => Promise<T>,
  opts: { signal?: AbortSignal; onNotice?: (notice: RetryNotice | null) => void } = {},
): Promise<T> {
  const { signal, onNotice } = opts;
  try {
    for (let retry = 1; ; retry++) {
      try {
        return await attempt();
      } catch (raw) {
        if (signal?.aborted) throw raw;
        const err = normalizePremiumError(raw);
        if (retry > PREMIUM_RETRY_MAX_ATTEMPTS || !isPremiumRetryable(err)) throw err;
        const delay = premiumRetryDelay(retry);
        onNotice?.({ attempt: retry, max: PREMIUM_RETRY_MAX_ATTEMPTS, at: Date.now() + delay });
        await sleep(delay, signal);
      }
    }
  } finally {
    onNotice?.(null);
  }
}
