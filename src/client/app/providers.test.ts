import { describe, expect, it } from 'vitest';
import { api } from '@/lib/api';
import { makeQueryClient } from './providers';
import { startRecordingServer } from '@/testing/test-server';

/** A real HTTP server that records each request and answers as `srv.answer` says. */
const srv = startRecordingServer();

describe('the app query client retries', () => {
  /** The app's query client, with the waits between retries cut so the test does not sleep. */
  function client() {
    const c = makeQueryClient();
    const defaults = c.getDefaultOptions();
    c.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retryDelay: 0 } });
    return c;
  }

  it('a failing upload (a write) is sent once; a failing read is retried', async () => {
    srv.answer = { status: 503, body: '' };
    const c = client();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]));
    const upload = c.getMutationCache().build(c, { mutationFn: () => api(`${srv.base}/upload`, { method: 'POST', body: form }) });
    await expect(upload.execute(undefined)).rejects.toMatchObject({ status: 503 });
    expect(srv.received.map((r) => r.method)).toEqual(['POST']);

    srv.received = [];
    await expect(c.fetchQuery({ queryKey: ['read'], queryFn: () => api(`${srv.base}/read`) })).rejects.toMatchObject({ status: 503 });
    expect(srv.received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
  });
});
