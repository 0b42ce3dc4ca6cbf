import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertResource } from './testing/resource-fixtures';
import { PUBLIC_CACHE_MAX_AGE_MS, PUBLIC_CACHE_MAX_BYTES } from './public-cache';
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

  /**
   * A download raises a count without changing the data version (migration 004): an answer that
   * still shows the old count came from the cache, one that shows the new count was made afresh.
   * The clock is frozen so no entry ages out meanwhile.
   */
  async function withFrozenClock(run: () => Promise<void>) {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await run();
    } finally {
      vi.useRealTimers();
    }
  }
  const countIn = (res: { json(): { items: { id: number; download_count: number }[] } }, id: number) => res.json().items.find((r) => r.id === id)!.download_count;
  const recordDownload = async (id: number) =>
    expect((await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER })).statusCode).toBe(200);

  it('keys entries by the parameters a route takes: unknown ones, their order and other spellings make no new entry', async () => {
    const id = await insertResource(t.database, { category: 'anime_edits', title: 'One entry' });
    await withFrozenClock(async () => {
      const first = await t.app.inject({ url: '/api/resources?category=anime_edits&limit=100' });
      await recordDownload(id);
      // Each of these would have been a miss (showing the new count) had it made an entry of its own.
      for (let z = 0; z < 50; z++) {
        const res = await t.app.inject({ url: `/api/resources?category=anime_edits&limit=100&z=${z}` });
        expect(countIn(res, id), `z=${z}`).toBe(countIn(first, id));
      }
      for (const query of ['limit=100&category=anime_edits', 'category=anime_edits&limit=0100&sort=popular', 'category=anime_edits&limit=100&_=1']) {
        expect(countIn(await t.app.inject({ url: `/api/resources?${query}` }), id), query).toBe(countIn(first, id));
      }
      // A route without query parameters ignores any: one entry.
      const premium = await insertResource(t.database, { category: 'premium_resources', is_premium: true });
      const plain = await t.app.inject({ url: '/api/resources/premium' });
      await recordDownload(premium);
      expect(countIn(await t.app.inject({ url: '/api/resources/premium?x=1' }), premium)).toBe(countIn(plain, premium));
    });
  });

  it('is bounded in bytes: large answers push the oldest out long before a thousand entries', async () => {
    for (let i = 0; i < 100; i++) await insertResource(t.database, { category: 'motion_graphics', description: `${i} ${'long text '.repeat(490)}` });
    await withFrozenClock(async () => {
      const url = (limit: number) => `/api/resources?category=motion_graphics&limit=${limit}`;
      const first = await t.app.inject({ url: url(100) });
      const id = first.json<{ items: { id: number }[] }>().items[0].id;
      await recordDownload(id);
      expect(countIn(await t.app.inject({ url: url(100) }), id)).toBe(countIn(first, id)); // kept
      // Other answers, together larger than the bound: a few dozen entries.
      let stored = first.rawPayload.length;
      let limit = 99;
      for (; stored <= PUBLIC_CACHE_MAX_BYTES && limit > 0; limit--) stored += (await t.app.inject({ url: url(limit) })).rawPayload.length;
      expect(stored).toBeGreaterThan(PUBLIC_CACHE_MAX_BYTES);
      // The first entry has been pushed out: made afresh, it shows the download.
      expect(countIn(await t.app.inject({ url: url(100) }), id)).toBe(countIn(first, id) + 1);
    });
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
