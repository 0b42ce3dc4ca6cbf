import { createRequire } from 'node:module';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '../../../contract/errors';
import { UPLOAD_CHUNK_BYTES, UPLOADS_PATH } from '../../../contract/files';
import { isErrorShape } from '../../testing/hostile-input';
import { TEST_DATABASES } from '../../testing/test-utils';
import { type FilesTestApp, randomData, sha256, startFilesApp } from '../../testing/files-helpers';

/**
 * One tus request (a chunk) on the real upload route, bounded in time and in size: a chunk that
 * stops arriving or takes longer than UPLOAD_REQUEST_TIMEOUT gets 408, one over 50 MiB without a
 * declared length gets 413, and either way what was stored stays consistent so the upload resumes.
 */
// Keep-alive longer than the test's gaps: fetch reuses its connections.
const TIMEOUTS = { headersMs: 5_000, requestMs: 1_000, uploadRequestMs: 4_000, keepAliveMs: 30_000 };
// The fs module object the logger's writer (sonic-boom, CommonJS) calls.
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const MiB = 1024 * 1024;

describe.each(TEST_DATABASES)('upload chunks on the tus route on %s', (kind) => {
  let t: FilesTestApp;
  const logged: string[] = [];
  beforeAll(async () => {
    // What the server logs (pino's writer calls Node's fs on fd 1): a second reply to one request shows there.
    const text = (data: unknown) => (typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString() : '');
    const isLog = (fd: number, data: unknown) => fd === 1 && text(data).startsWith('{"level"');
    const { write, writeSync } = fs;
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
      if (!isLog(fd, data)) return (writeSync as (...args: unknown[]) => number).call(fs, fd, data, ...rest);
      logged.push(text(data));
      return Buffer.byteLength(text(data));
    }) as typeof fs.writeSync);
    vi.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
      if (!isLog(fd, data)) return (write as (...args: unknown[]) => void).call(fs, fd, data, ...rest);
      logged.push(text(data));
      const done = rest.at(-1) as (err: null, bytes: number) => void;
      process.nextTick(done, null, Buffer.byteLength(text(data)));
    }) as typeof fs.write);
    t = await startFilesApp(kind, 'local', { timeouts: TIMEOUTS, logLevel: 'warn' });
  }, 120_000); // a real server per database: slow to start on a busy machine
  afterAll(async () => {
    await t?.close();
    vi.restoreAllMocks();
  });

  async function create(size: number): Promise<string> {
    const res = await fetch(`${t.base}${UPLOADS_PATH}`, {
      method: 'POST',
      headers: { ...t.headers, ...TUS, 'upload-length': String(size), 'upload-metadata': `filename ${b64('chunked.zip')}` },
    });
    expect(res.status).toBe(201);
    return new URL(res.headers.get('location')!, t.base).pathname;
  }
  const offsetOf = async (path: string) =>
    Number((await fetch(`${t.base}${path}`, { method: 'HEAD', headers: { ...t.headers, ...TUS } })).headers.get('upload-offset'));
  const patch = (path: string, offset: number, body: Buffer) =>
    fetch(`${t.base}${path}`, { method: 'PATCH', headers: { ...t.headers, ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
  const recorded = async (path: string) =>
    (await t.database.db.selectFrom('uploads').select('sha256').where('id', '=', path.slice(path.lastIndexOf('/') + 1)).executeTakeFirstOrThrow()).sha256;

  /**
   * A PATCH written by hand: its headers, then `pieces` one every `gapMs` (stopping after `stopAfter`,
   * the connection left open and silent). Resolves with the answer once the server closes.
   */
  function rawPatch(path: string, offset: number, headers: string, pieces: Buffer[], gapMs: number, stopAfter = pieces.length): Promise<{ status: number; body: string; ms: number }> {
    const { cookie, origin } = t.headers;
    const head =
      `PATCH ${path} HTTP/1.1\r\nHost: ${new URL(t.base).host}\r\nCookie: ${cookie}\r\nOrigin: ${origin}\r\nTus-Resumable: 1.0.0\r\n` +
      `Upload-Offset: ${offset}\r\nContent-Type: application/offset+octet-stream\r\nConnection: close\r\n${headers}\r\n`;
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(Number(new URL(t.base).port), '127.0.0.1');
      let text = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', async () => {
        socket.write(head);
        for (let i = 0; i < stopAfter && !socket.destroyed; i++) {
          if (gapMs > 0) await new Promise((r) => (timer = setTimeout(r, gapMs)));
          if (!socket.destroyed && !socket.write(pieces[i])) await new Promise((r) => socket.once('drain', r));
        }
      });
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ status: Number(/^HTTP\/1.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4), ms: Date.now() - started });
      });
    });
  }
  const split = (data: Buffer, size: number) => Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));

  it('answers 408 to a chunk that stops arriving; the bytes stored so far stay and the upload resumes', async () => {
    const data = randomData(3 * MiB);
    const path = await create(data.length);
    // 1.5 MiB, then silence: cut after REQUEST_TIMEOUT without a byte (well before the upload limit).
    const sent = split(data, 256 * 1024);
    const { status, body, ms } = await rawPatch(path, 0, `Content-Length: ${data.length}\r\n`, sent, 0, 6);
    expect(status).toBe(408);
    expect(isErrorShape(JSON.parse(body))).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.requestMs);
    expect(ms).toBeLessThan(TIMEOUTS.uploadRequestMs);
    const offset = await offsetOf(path);
    expect(offset).toBeLessThanOrEqual(1.5 * MiB);
    const rest = await patch(path, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(await recorded(path)).toBe(sha256(data));
  });

  it('lets a steady chunk take longer than REQUEST_TIMEOUT, and cuts one that takes longer than UPLOAD_REQUEST_TIMEOUT', async () => {
    const data = randomData(4 * MiB);
    const path = await create(data.length);
    // 2 MiB in 8 pieces 300 ms apart: about 2.4 s, over REQUEST_TIMEOUT, never silent that long.
    const first = data.subarray(0, 2 * MiB);
    const steady = await rawPatch(path, 0, `Content-Length: ${first.length}\r\n`, split(first, 256 * 1024), 300);
    expect(steady.status).toBe(204);
    expect(steady.ms).toBeGreaterThan(TIMEOUTS.requestMs * 2);
    expect(await offsetOf(path)).toBe(2 * MiB);

    // The other 2 MiB in 16 pieces 400 ms apart: 6.4 s, over UPLOAD_REQUEST_TIMEOUT — cut at the limit.
    const second = data.subarray(2 * MiB);
    const slow = await rawPatch(path, 2 * MiB, `Content-Length: ${second.length}\r\n`, split(second, 128 * 1024), 400);
    expect(slow.status).toBe(408);
    expect(isErrorShape(JSON.parse(slow.body))).toBe(true);
    expect(slow.ms).toBeGreaterThanOrEqual(TIMEOUTS.uploadRequestMs);
    expect(slow.ms).toBeLessThan(TIMEOUTS.uploadRequestMs + 1_500);
    const offset = await offsetOf(path);
    expect(offset).toBeGreaterThanOrEqual(2 * MiB);
    expect(offset).toBeLessThan(data.length);
    const rest = await patch(path, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(await recorded(path)).toBe(sha256(data));
    // tus finished its write after the 408 had gone out: nothing answered the request a second time.
    expect(logged.filter((l) => /already sent/i.test(l))).toEqual([]);
  }, 30_000);

  it('answers 413 to a chunked body past 50 MiB, keeping exactly the bytes allowed; the upload resumes', async () => {
    // 52 MiB at loopback speed: the default time bounds, so a busy machine does not turn this into a 408.
    const small = t;
    t = await startFilesApp(kind, 'local');
    try {
      await chunkedTooLarge();
    } finally {
      await t.close();
      t = small;
    }
  }, 120_000);

  async function chunkedTooLarge() {
    const data = randomData(UPLOAD_CHUNK_BYTES + 8 * MiB);
    const path = await create(data.length);
    // Transfer-Encoding: chunked declares no length: 52 MiB in 1 MiB chunks.
    const pieces = split(data.subarray(0, UPLOAD_CHUNK_BYTES + 2 * MiB), MiB).map((p) =>
      Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]),
    );
    const res = await rawPatch(path, 0, 'Transfer-Encoding: chunked\r\n', [...pieces, Buffer.from('0\r\n\r\n')], 0);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: ERROR_CODES.payloadTooLarge } });
    const offset = await offsetOf(path);
    expect(offset).toBe(UPLOAD_CHUNK_BYTES);
    const rest = await patch(path, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(await recorded(path)).toBe(sha256(data));
  }
});
