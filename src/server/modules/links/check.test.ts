import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink, isPublicAddress, LINK_CHECK_DEFAULTS, type LinkCheckOptions } from './check';

describe('checking an external link', () => {
  let base: string;
  let port: number;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.range ?? ''}`.trim());
    const url = req.url ?? '/';
    if (url === '/ok') res.writeHead(200, { 'content-length': '5' }).end(req.method === 'HEAD' ? undefined : 'hello');
    else if (url === '/missing') res.writeHead(404).end();
    else if (url === '/no-head') {
      if (req.method === 'HEAD') res.writeHead(405).end();
      else res.writeHead(req.headers.range === 'bytes=0-0' ? 206 : 200, { 'content-range': 'bytes 0-0/100000' }).end('x');
    } else if (url === '/gone-for-good') res.writeHead(410).end();
    else if (url === '/moved') res.writeHead(301, { location: '/ok' }).end();
    else if (url.startsWith('/hops/')) {
      const n = Number(url.slice('/hops/'.length));
      res.writeHead(302, { location: n > 0 ? `/hops/${n - 1}` : '/ok' }).end();
    } else if (url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (url === '/to-loopback-v6') res.writeHead(302, { location: `http://[::1]:${port}/ok` }).end();
    else if (url === '/to-ftp') res.writeHead(302, { location: 'ftp://files.example.com/pack.zip' }).end();
    else if (url === '/slow') {
      // Never answers: the check's deadline ends it.
    } else res.writeHead(500).end();
  });
  /** Our test server is on 127.0.0.1: that one address is allowed, every other private one is not. */
  const options = (o: Partial<LinkCheckOptions> = {}): LinkCheckOptions => ({ ...LINK_CHECK_DEFAULTS, allowAddress: (a) => a === '127.0.0.1', ...o });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a link that answers is ok, by HEAD alone', async () => {
    seen.length = 0;
    expect(await checkLink(`${base}/ok`, options())).toEqual({ state: 'ok', status: 200, url: `${base}/ok` });
    expect(seen).toEqual(['HEAD /ok']);
  });

  it('marks a 404 and a 410 broken, with the status', async () => {
    expect(await checkLink(`${base}/missing`, options())).toEqual({ state: 'broken', status: 404, reason: 'The server answered 404 Not Found' });
    expect(await checkLink(`${base}/gone-for-good`, options())).toEqual({ state: 'broken', status: 410, reason: 'The server answered 410 Gone' });
  });

  it('asks for one byte where HEAD is refused', async () => {
    seen.length = 0;
    expect(await checkLink(`${base}/no-head`, options())).toEqual({ state: 'ok', status: 206, url: `${base}/no-head` });
    expect(seen).toEqual(['HEAD /no-head', 'GET /no-head bytes=0-0']);
  });

  it('follows redirects, at most five', async () => {
    expect(await checkLink(`${base}/moved`, options())).toEqual({ state: 'ok', status: 200, url: `${base}/ok` });
    expect(await checkLink(`${base}/hops/4`, options())).toEqual({ state: 'ok', status: 200, url: `${base}/ok` });
    expect(await checkLink(`${base}/hops/5`, options())).toEqual({ state: 'broken', status: 302, reason: 'More than 5 redirects' });
  });

  it('marks a link that does not answer in time broken, at the deadline', async () => {
    const started = performance.now();
    expect(await checkLink(`${base}/slow`, options({ timeoutMs: 300 }))).toEqual({ state: 'broken', status: null, reason: 'No answer within 0.3 s' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('asks beforeRequest before every request, and its wait does not count in the deadline', async () => {
    const asked: string[] = [];
    const beforeRequest = async (url: URL) => {
      asked.push(url.pathname);
      await new Promise((resolve) => setTimeout(resolve, 150));
    };
    // Each wait alone is more than half the deadline; together they pass it.
    expect(await checkLink(`${base}/moved`, options({ timeoutMs: 250, beforeRequest }))).toEqual({ state: 'ok', status: 200, url: `${base}/ok` });
    expect(asked).toEqual(['/moved', '/ok']);
    asked.length = 0;
    expect(await checkLink(`${base}/no-head`, options({ timeoutMs: 250, beforeRequest }))).toMatchObject({ state: 'ok', status: 206 });
    expect(asked).toEqual(['/no-head', '/no-head']);
  });

  it('never reaches loopback, private, link-local or metadata addresses unless allowed, nor through a redirect', async () => {
    seen.length = 0;
    const strict = { ...LINK_CHECK_DEFAULTS };
    expect(await checkLink(`${base}/ok`, strict)).toEqual({ state: 'broken', status: null, reason: 'The host 127.0.0.1 is a private or reserved address (127.0.0.1), which link checks do not reach' });
    expect(await checkLink(`http://localhost:${port}/ok`, strict)).toMatchObject({ state: 'broken', reason: expect.stringMatching(/^The host localhost is a private or reserved address/) });
    expect(await checkLink('http://169.254.169.254/latest/meta-data/', strict)).toMatchObject({ state: 'broken', reason: expect.stringContaining('169.254.169.254') });
    expect(await checkLink(`http://[::ffff:127.0.0.1]:${port}/ok`, strict)).toMatchObject({ state: 'broken', reason: expect.stringContaining('private or reserved') });
    expect(seen).toEqual([]);
    // Redirects are checked again: our server is allowed, where it points is not.
    expect(await checkLink(`${base}/to-metadata`, options())).toMatchObject({ state: 'broken', reason: expect.stringContaining('169.254.169.254') });
    expect(await checkLink(`${base}/to-loopback-v6`, options())).toMatchObject({ state: 'broken', reason: expect.stringContaining('::1') });
    expect(await checkLink(`${base}/to-ftp`, options())).toEqual({ state: 'broken', status: null, reason: 'Links must be http(s), not ftp' });
    // Allowed (LINK_CHECK_ALLOW_PRIVATE=true): reached.
    expect(await checkLink(`${base}/ok`, { ...strict, allowPrivate: true })).toMatchObject({ state: 'ok' });
  });

  it('gives a reason for what is no link at all', async () => {
    expect(await checkLink('not a url', options())).toEqual({ state: 'broken', status: null, reason: 'Not a valid URL' });
    expect(await checkLink('http://user:secret@example.com/', options())).toEqual({ state: 'broken', status: null, reason: 'Links must not carry a user name or password' });
    expect(await checkLink(`http://127.0.0.1:1/ok`, options())).toEqual({ state: 'broken', status: null, reason: 'The server refused the connection' });
  });
});

describe('which addresses are public', () => {
  it('refuses every special-purpose range, IPv4 inside IPv6 included', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2001:db8::1', 'not-an-ip']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('allows ordinary public addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
  });
});
