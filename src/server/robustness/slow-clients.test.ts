import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils';
import { isErrorShape } from './hostile-input';

/**
 * Every connection has bounded time: a client that stops sending its headers or its body is
 * answered 408 and closed, an idle keep-alive connection is closed, and hundreds of such clients
 * do not stop anyone else from being served. Real sockets against a listening server.
 */
const LIMITS = { headersMs: 600, requestMs: 800, uploadRequestMs: 5_000, keepAliveMs: 500 };
/** How late past its limit a stalled connection may be answered (the sweep's period plus a busy machine). */
const SLACK_MS = 1_500;

interface RawResult {
  text: string;
  ms: number;
}

/** Opens a socket, writes `bytes`, then sends nothing more; resolves when the server closes it. */
function stall(port: number, bytes: string): { connected: Promise<void>; closed: Promise<RawResult> } {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let text = '';
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.on('connect', () => {
    if (bytes) socket.write(bytes);
  });
  socket.on('data', (d) => (text += d.toString()));
  const closed = new Promise<RawResult>((resolve) => socket.on('close', () => resolve({ text, ms: Date.now() - started })));
  socket.on('error', () => {});
  return { connected, closed };
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

describe('slow clients', () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { timeouts: LIMITS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  const STALLED_BODY =
    'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"username":"a';

  it('answers a request whose body stops arriving with 408 in the error shape, then closes it', async () => {
    const { text, ms } = await stall(port, STALLED_BODY).closed;
    expect(text).toMatch(/^HTTP\/1.1 408 /);
    expect(isErrorShape(bodyOf(text))).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(LIMITS.requestMs - 50);
    expect(ms).toBeLessThan(LIMITS.requestMs + SLACK_MS);
  });

  it('answers headers that stop arriving with 408 and closes the connection', async () => {
    const { text, ms } = await stall(port, 'GET /api/site HTTP/1.1\r\nHost: x\r\nX-Slow: ').closed;
    expect(text).toMatch(/^HTTP\/1.1 408 /);
    expect(isErrorShape(bodyOf(text))).toBe(true);
    expect(ms).toBeLessThan(LIMITS.headersMs + SLACK_MS);
  });

  it('closes a connection that never sends a byte', async () => {
    const { ms } = await stall(port, '').closed;
    expect(ms).toBeLessThan(LIMITS.headersMs + SLACK_MS);
  });

  it('closes an idle keep-alive connection', async () => {
    const { text, ms } = await stall(port, 'GET /api/site HTTP/1.1\r\nHost: x\r\n\r\n').closed;
    expect(text).toMatch(/^HTTP\/1.1 200 /);
    expect(ms).toBeLessThan(LIMITS.keepAliveMs + SLACK_MS);
  });

  it('serves GET /api/site while 300 stalled requests are open, then answers each of them 408', async () => {
    const stalled = Array.from({ length: 300 }, (_, i) => stall(port, i % 2 ? STALLED_BODY : 'GET /api/site HTTP/1.1\r\nHost: x\r\n'));
    await Promise.all(stalled.map((s) => s.connected));
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/site`);
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('Resource Vault');
    // Answered while the stalled ones were still waiting (none of them has reached its limit yet).
    expect(Date.now() - started).toBeLessThan(LIMITS.headersMs);
    const results = await Promise.all(stalled.map((s) => s.closed));
    expect(results.filter((r) => /^HTTP\/1.1 408 /.test(r.text))).toHaveLength(300);
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(LIMITS.requestMs + SLACK_MS * 2);
  });
});
