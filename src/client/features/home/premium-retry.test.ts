import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ApiError } from '@/lib/api';
import { isPremiumRetryable, withPremiumRetry } from './premium-retry';

/**
 * A server that never answers the first request for a path and answers the others. Per path: a
 * request the client gave up on can reach a loaded server after the next test has begun.
 */
let server: Server;
let base = '';
const requests = new Map<string, number>();
beforeAll(async () => {
  server = createServer((req, res) => {
    const n = (requests.get(req.url!) ?? 0) + 1;
    requests.set(req.url!, n);
    if (n === 1) return; // hangs until the client gives up
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the premium carousel retry rule', () => {
  it('retries the spec’s transient failures and a fetch that timed out, nothing else', async () => {
    const timedOut = await api(`${base}/premium-once`, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ApiError);
    expect((timedOut as ApiError).message).toBe('Operation timed out after 50ms');
    expect(isPremiumRetryable(timedOut)).toBe(true);

    for (const message of ['Gateway timeout', 'Network error: could not reach the server', 'Rate limit reached', 'Service unavailable']) {
      expect(isPremiumRetryable(new Error(message)), message).toBe(true);
    }
    for (const message of ['Failed to fetch resources', 'Not found', 'Invalid cursor']) {
      expect(isPremiumRetryable(new Error(message)), message).toBe(false);
    }
  });

  it('a premium fetch that times out is tried again, announcing the retry', async () => {
    const notices: (number | null)[] = [];
    // Long enough that the second (answered) request never times out on a loaded machine.
    const result = await withPremiumRetry(() => api<{ items: unknown[] }>(`${base}/premium`, { timeoutMs: 1500 }), {
      onNotice: (n) => notices.push(n ? n.attempt : null),
    });
    expect(result).toEqual({ items: [] });
    expect(requests.get('/premium')).toBe(2);
    expect(notices).toEqual([1, null]);
  });
});
