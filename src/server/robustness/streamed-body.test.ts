import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context';
import { openDatabase, type Database } from '../db/connection';
import { registerErrorHandling } from '../errors';
import { installRequestTimeouts, JSON_BODY_LIMIT, receiveBody, serverTimeoutOptions, streamBodies } from '../request-limits';
import { LocalFileStore } from '../storage/local';
import { isErrorShape } from '../testing/hostile-input';

/**
 * The seam an upload route is built on, on a real listening server: a route that streams its body
 * into the file store with its own size limit and its own (longer) time bound; other routes keep
 * the small JSON limit. The same pieces buildApp uses, on a small route of that kind. The real tus
 * upload route is tested the same way (408 mid-chunk, a steady slow chunk, 413 past 50 MiB without
 * a declared length) in src/server/modules/files/chunks.test.ts.
 */
const TIMEOUTS = { headersMs: 600, requestMs: 800, uploadRequestMs: 6_000, keepAliveMs: 500 };
const UPLOAD_MAX = 256 * 1024;

describe('a route that streams its body into the file store', () => {
  let app: App;
  let database: Database;
  let files: LocalFileStore;
  let dir = '';
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rv-streamed-'));
    files = new LocalFileStore(dir);
    database = await openDatabase({ kind: 'sqlite', file: ':memory:' });
    app = Fastify({ ...serverTimeoutOptions(TIMEOUTS), bodyLimit: JSON_BODY_LIMIT }) as unknown as App;
    registerErrorHandling(app, database);
    installRequestTimeouts(app, TIMEOUTS);
    await app.register(async (uploads) => {
      streamBodies(uploads, ['application/offset+octet-stream']);
      uploads.put(
        '/uploads/:name',
        { config: { requestTimeoutMs: TIMEOUTS.uploadRequestMs } },
        async (request, reply) => {
          const key = `uploads/${(request.params as { name: string }).name}`;
          const stored = await receiveBody(request, reply, UPLOAD_MAX, (body) => files.put(key, body, { maxBytes: UPLOAD_MAX }));
          if (!stored) return reply;
          return reply.status(201).send({ size: stored.size, sha256: stored.sha256 });
        },
      );
    });
    app.post('/json', async () => ({ ok: true }));
    app.post('/json-large', { bodyLimit: 1024 * 1024 }, async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends `head`, then each chunk `gapMs` apart; resolves with the raw answer once the server closes or answers. */
  function send(head: string, chunks: Buffer[], gapMs: number, stopAfter = chunks.length): Promise<{ text: string; ms: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', async () => {
        socket.write(head);
        for (let i = 0; i < stopAfter && !socket.destroyed; i++) {
          await new Promise((r) => (timer = setTimeout(r, gapMs)));
          if (!socket.destroyed) socket.write(chunks[i]);
        }
      });
      socket.on('data', (d) => {
        text += d.toString();
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) socket.end();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ text, ms: Date.now() - started });
      });
    });
  }
  const status = (text: string) => Number(/^HTTP\/1.1 (\d{3})/.exec(text)?.[1]);
  const json = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  const uploadHead = (name: string, length: number) =>
    `PUT /uploads/${name} HTTP/1.1\r\nHost: x\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

  it('lets a slow but steady body take longer than the ordinary limit, and stores it whole', async () => {
    const chunks = Array.from({ length: 16 }, () => randomBytes(8 * 1024));
    const all = Buffer.concat(chunks);
    // 16 chunks 200 ms apart: about 3.2 s in all, four times REQUEST_TIMEOUT, never idle that long.
    const { text, ms } = await send(uploadHead('steady', all.length), chunks, 200);
    expect(status(text)).toBe(201);
    expect(ms).toBeGreaterThan(TIMEOUTS.requestMs * 3);
    expect(json(text)).toEqual({ size: all.length, sha256: createHash('sha256').update(all).digest('hex') });
    expect((await files.stat('uploads/steady'))?.size).toBe(all.length);
  });

  it('answers 408 when the body stops arriving, and keeps nothing of it', async () => {
    const chunks = Array.from({ length: 8 }, () => randomBytes(8 * 1024));
    const { text, ms } = await send(uploadHead('stalled', 8 * 8 * 1024), chunks, 50, 3);
    expect(status(text)).toBe(408);
    expect(isErrorShape(json(text))).toBe(true);
    expect(ms).toBeLessThan(TIMEOUTS.requestMs + 1_500);
    expect(await files.stat('uploads/stalled')).toBeNull();
  });

  it('refuses a declared length over the route limit before reading it', async () => {
    const { text } = await send(uploadHead('declared-too-big', UPLOAD_MAX + 1), [], 0);
    expect(status(text)).toBe(413);
    expect(isErrorShape(json(text))).toBe(true);
    expect(await files.stat('uploads/declared-too-big')).toBeNull();
  });

  it('stops a chunked body at the route limit and keeps nothing of it', async () => {
    const head = `PUT /uploads/chunked-too-big HTTP/1.1\r\nHost: x\r\nContent-Type: application/offset+octet-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const piece = randomBytes(64 * 1024);
    const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    const { text } = await send(head, Array.from({ length: 6 }, () => chunk), 10);
    expect(status(text)).toBe(413);
    expect(await files.stat('uploads/chunked-too-big')).toBeNull();
    // The request was answered before its body ended, and its connection is gone: the timeout sweep
    // that still holds it must let it go (it once threw on the socket Node had taken away).
    await new Promise((r) => setTimeout(r, TIMEOUTS.requestMs));
  });

  it('keeps the small JSON limit on routes that declare none, and a larger one where declared', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(100 * 1024) });
    const res = await app.inject({ method: 'POST', url: '/json', payload: big, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
    expect(isErrorShape(res.json())).toBe(true);
    const large = await app.inject({ method: 'POST', url: '/json-large', payload: big, headers: { 'content-type': 'application/json' } });
    expect(large.statusCode).toBe(200);
  });
});
