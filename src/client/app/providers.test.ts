import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '@/lib/api';
import { makeQueryClient } from './providers';

interface Received {
  method: string;
  contentType: string | undefined;
  body: Buffer;
}

/** A real HTTP server that records each request and answers as `answer` says. */
let server: Server;
let base = '';
let received: Received[] = [];
let answer: { status: number; body?: string } = { status: 200 };

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    received.push({ method: req.method!, contentType: req.headers['content-type'], body: await read(req) });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body ?? JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = { status: 200 };
});

describe('the app query client retries', () => {
  /** The app's query client, with the waits between retries cut so the test does not sleep. */
  function client() {
    const c = makeQueryClient();
    const defaults = c.getDefaultOptions();
    c.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retryDelay: 0 } });
    return c;
  }

  it('a failing upload (a write) is sent once; a failing read is retried', async () => {
    answer = { status: 503, body: '' };
    const c = client();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]));
    const upload = c.getMutationCache().build(c, { mutationFn: () => api(`${base}/upload`, { method: 'POST', body: form }) });
    await expect(upload.execute(undefined)).rejects.toMatchObject({ status: 503 });
    expect(received.map((r) => r.method)).toEqual(['POST']);

    received = [];
    await expect(c.fetchQuery({ queryKey: ['read'], queryFn: () => api(`${base}/read`) })).rejects.toMatchObject({ status: 503 });
    expect(received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
  });
});
