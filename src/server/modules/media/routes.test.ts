import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../storage/local';
import { createTestApp, type TestApp } from '../../testing/test-utils';
import { mediaUrl } from '../../../contract/files';
import { mediaKey } from '../../storage/keys';
import { insertResource } from '../../testing/resource-fixtures';
import { setMediaOwners } from './owners';

describe('GET /media/:name', () => {
  let t: TestApp;
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.json`;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  /** Into the store the app reads (the local store under DATA_DIR, as buildApp makes it), owned by a resource. */
  async function store() {
    const files = new LocalFileStore(path.join(t.config.dataDir, 'files'));
    await files.put(mediaKey(name), Readable.from([bytes]), { maxBytes: bytes.length });
    const owner = owned ?? (owned = await insertResource(t.database, { title: 'Owner', category: 'color_grading' }));
    await setMediaOwners(t.database.db, [owner], 'preview', [mediaKey(name)]);
  }
  let owned: number | undefined;

  it('serves a stored file whole, immutable, uncompressed and not sniffable', async () => {
    await store();
    const res = await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['accept-ranges']).toBe('bytes');
  });

  it('answers ranges with 206 and the exact bytes, and a range past the end with 416', async () => {
    await store();
    const part = await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const past = await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { range: `bytes=${bytes.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(past.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('honours If-None-Match (304) and ignores a range whose If-Range is another version', async () => {
    await store();
    const first = await t.app.inject({ method: 'GET', url: mediaUrl(name) });
    const etag = String(first.headers.etag);
    expect((await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const stale = await t.app.inject({ method: 'GET', url: mediaUrl(name), headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
  });

  it('is 404 once no resource owns the file, though its bytes are still stored', async () => {
    await store();
    expect((await t.app.inject({ method: 'GET', url: mediaUrl(name) })).statusCode).toBe(200);
    await setMediaOwners(t.database.db, [owned!], 'preview', []);
    const res = await t.app.inject({ method: 'GET', url: mediaUrl(name) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('is 404 in the error shape for anything that is not a stored derived file', async () => {
    for (const url of ['/media/nothing.json', `/media/${'0'.repeat(32)}.json`, `/media/${'a'.repeat(32)}.html`, `/media/${'a'.repeat(32)}.svg`, '/media/..%2f..%2fetc%2fpasswd']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });
});
