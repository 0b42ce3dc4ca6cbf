import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createTestApp, type TestApp } from '../testing/test-utils';
import { isErrorShape } from '../testing/hostile-input';

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

});

describe('requests the server makes to itself', () => {
  // Server rendering reads its data through app.inject: no socket, nothing to time. Those requests
  // must not be watched (they were, and 30 s later the sweep called destroy() on their fake socket
  // in a timer, which would have ended the process).
  it('are not timed, and the server is still up after the limit', async () => {
    const t = await createTestApp('sqlite', { timeouts: LIMITS });
    try {
      for (const url of ['/api/site', '/api/resources', '/api/categories']) expect((await t.app.inject({ url })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, LIMITS.requestMs * 2));
      expect((await t.app.inject({ url: '/api/site' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('hundreds of slow clients', () => {
  // Longer limits than above, so the stalled requests are surely still open while /api/site is asked.
  const LONGER = { headersMs: 3_000, requestMs: 4_000, uploadRequestMs: 10_000, keepAliveMs: 3_000 };
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { timeouts: LONGER });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves GET /api/site while 300 stalled requests are open, then answers each of them 408', async () => {
    const stalledBody =
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"username":"a';
    const stalled = Array.from({ length: 300 }, (_, i) => stall(port, i % 2 ? stalledBody : 'GET /api/site HTTP/1.1\r\nHost: x\r\n'));
    await Promise.all(stalled.map((s) => s.connected));
    let closed = 0;
    for (const s of stalled) void s.closed.then(() => closed++);
    const res = await fetch(`http://127.0.0.1:${port}/api/site`);
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('Resource Vault');
    // Answered while every stalled request was still open.
    expect(closed).toBe(0);
    const results = await Promise.all(stalled.map((s) => s.closed));
    expect(results.filter((r) => /^HTTP\/1.1 408 /.test(r.text))).toHaveLength(300);
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(LONGER.requestMs + SLACK_MS * 2);
  });
});

describe('timeout settings', () => {
  const env = { SESSION_SECRET: 'config-test-session-secret-0123456789' };
  it('default to 10 s headers, 30 s request, 600 s upload request, 72 s keep-alive, and read seconds', () => {
    expect(loadConfig(env).timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, uploadRequestMs: 600_000, keepAliveMs: 72_000 });
    expect(loadConfig({ ...env, REQUEST_TIMEOUT: '2.5', KEEP_ALIVE_TIMEOUT: '5' }).timeouts).toMatchObject({ requestMs: 2_500, keepAliveMs: 5_000 });
  });

  it.each([
    ['REQUEST_TIMEOUT', 'abc', 'REQUEST_TIMEOUT must be a number of seconds'],
    ['HEADERS_TIMEOUT', '-1', 'HEADERS_TIMEOUT must be a number of seconds'],
    ['UPLOAD_REQUEST_TIMEOUT', '0', 'UPLOAD_REQUEST_TIMEOUT must be between 0.1 and 86400 seconds'],
    ['KEEP_ALIVE_TIMEOUT', '100000', 'KEEP_ALIVE_TIMEOUT must be between 0.1 and 86400 seconds'],
  ])('refuses %s=%s with one line naming it', (name, value, message) => {
    expect(() => loadConfig({ ...env, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, [name]: value })).toThrow(`Invalid configuration: ${message}`);
  });
});
