import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertResource } from './testing/resource-fixtures';
import { PUBLIC_CACHE_MAX_AGE_MS } from './public-cache';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from './testing/test-utils';

describe.each(TEST_DATABASES)('public GET cache on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (headers: Record<string, string> = {}) => t.app.inject({ url: '/api/resources?category=typography', headers });

  it('answers a repeated read with the same body and ETag, and 304 to If-None-Match', async () => {
    // Non-Latin-1 text: a hit is written from the UTF-8 bytes kept at the miss.
    await insertResource(t.database, { category: 'typography', title: 'Cached once — café ✓ 日本' });
    const first = await list();
    expect(first.body).toContain('Cached once — café ✓ 日本');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const second = await list();
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(second.headers['content-length'])).toBe(Buffer.byteLength(first.body));
    expect(second.headers.etag).toBe(etag);
    const notModified = await list({ 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect((await list({ 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
  });

  it('serves cached bodies compressed as the client asks, decoding to the same JSON', async () => {
    for (let i = 0; i < 5; i++) await insertResource(t.database, { category: 'typography', description: 'x'.repeat(400) });
    const plain = await list();
    await list(); // stored; the next ones are hits
    const br = await list({ 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await list({ 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.headers['content-type']).toContain('application/json');
  });

  it('never serves stale data: any write to resources, even outside the API, changes the answer', async () => {
    const id = await insertResource(t.database, { category: 'typography', title: 'Before the write' });
    const before = await list();
    expect(before.json().items.some((r: { title: string }) => r.title === 'Before the write')).toBe(true);
    await t.database.db.updateTable('resources').set({ title: 'After the write' }).where('id', '=', id).execute();
    const after = await list({ 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().items.some((r: { title: string }) => r.title === 'After the write')).toBe(true);

    // A download changes the count shown in lists once the entry is PUBLIC_CACHE_MAX_AGE_MS old (not before:
    // visitors' downloads must not empty the cache many times a second).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const countShown = async () => (await list()).json().items.find((r: { id: number }) => r.id === id).download_count;
      vi.setSystemTime(Date.now() + PUBLIC_CACHE_MAX_AGE_MS); // the entry is stored now, on the frozen clock
      const stored = Date.now();
      const shown = await countShown();
      expect((await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER })).statusCode).toBe(200);
      expect(await countShown()).toBe(shown);
      vi.setSystemTime(stored + PUBLIC_CACHE_MAX_AGE_MS - 1);
      expect(await countShown()).toBe(shown);
      vi.setSystemTime(stored + PUBLIC_CACHE_MAX_AGE_MS);
      expect(await countShown()).toBe(shown + 1);
    } finally {
      vi.useRealTimers();
    }

    // Announcements and settings count as public data too.
    const bell = await t.app.inject({ url: '/api/announcements/active' });
    await t.database.db.insertInto('announcements').values({ message: 'Fresh news', is_active: 1, created_at: new Date().toISOString() }).execute();
    const bellAfter = await t.app.inject({ url: '/api/announcements/active' });
    expect(bellAfter.body).not.toBe(bell.body);
    expect(bellAfter.body).toContain('Fresh news');
  });

  it('does not cache errors or admin routes', async () => {
    const bad = await t.app.inject({ url: '/api/resources?sort=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers.etag).toBeUndefined();
    const admin = await t.app.inject({ url: '/api/admin/resources' });
    expect(admin.statusCode).toBe(401);
    expect(admin.headers.etag).toBeUndefined();
  });
});
