import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-utils';
import { isErrorShape } from '../testing/hostile-input';

/** Requests Node's HTTP parser refuses before Fastify routes them still get the error shape. */
describe('refused on the wire', () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', (err) => (out ? resolve(out) : reject(err)));
      socket.end(bytes);
    });

  it.each([
    ['a URL over 16 KiB', `GET /api/resources?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['a header over 16 KiB', `GET /api/site HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
    ['bytes that are not HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a NUL in the request line', 'GET /api/site\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ])('%s', async (_name, bytes, status) => {
    const res = await raw(bytes);
    expect(res).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(isErrorShape(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)))).toBe(true);
  });

  // A HEAD answer has no body (RFC 9110): a client reading one would take the JSON for the next
  // response and fail the connection (seen as HPE_CLOSED_CONNECTION in the 100k fuzz).
  it.each([
    ['a URL over 16 KiB', `HEAD /api/resources?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a header over 16 KiB', `HEAD /api/site HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`],
  ])('HEAD with %s: 431 without a body', async (_name, bytes) => {
    const res = await raw(bytes);
    expect(res).toMatch(/^HTTP\/1.1 431 /);
    expect(res.slice(res.indexOf('\r\n\r\n') + 4)).toBe('');
  });
});
