import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { encodeAdminCursor } from './cursor';
import { resourceSearch, SEARCH_LIMITS } from './search';
import { purgeResource } from './trash';

const SEARCH_TOTAL_CAP = SEARCH_LIMITS.countCap;
import { insertResource } from '../../testing/resource-fixtures';

type Page = { items: { id: number; title: string }[]; total: number; offset: number; nextCursor: string | null; prevCursor: string | null };

const valid = {
  title: 'Cinematic LUT Pack',
  description: 'Twelve film looks for evening footage.',
  category: 'color_grading',
  thumbnail_url: 'https://cdn.example.com/lut.jpg',
  download_url: 'https://files.example.com/lut.zip',
  tags: ['Cinematic', ' Film ', 'cinematic', 'Moody'],
  is_premium: false,
};

describe.each(TEST_DATABASES)('admin resources API on %s', (kind) => {
  let t: TestApp;
  let editor: SignedIn;
  let other: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    editor = await createAndSignIn(t.app, t.database, 'res_editor');
    other = await createAndSignIn(t.app, t.database, 'res_other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: SignedIn = editor) =>
    t.app.inject({ method, url, payload: payload as object | undefined, headers: { cookie: who.cookie } });
  const tagRows = async (id: number) =>
    (await db().selectFrom('resource_tags').select('tag').where('resource_id', '=', id).orderBy('tag').execute()).map((r) => r.tag);
  const snapshot = async () => ({
    resources: await db().selectFrom('resources').selectAll().orderBy('id').execute(),
    tags: await db().selectFrom('resource_tags').selectAll().orderBy('resource_id').orderBy('tag').execute(),
  });

  it('creates a resource: 201, normalised tags in both places, owner from the session, zero counters', async () => {
    const res = await call('POST', API.adminResources, { ...valid, title: '  Cinematic LUT Pack  ' });
    expect(res.statusCode).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      title: 'Cinematic LUT Pack',
      category: 'color_grading',
      tags: ['Cinematic', 'Film', 'Moody'],
      is_premium: false,
      download_count: 0,
      popularity: 0,
      download_url: valid.download_url,
      admin_id: editor.admin.id,
    });
    expect(r.created_at).toBe(r.updated_at);
    expect(await tagRows(r.id)).toEqual(['cinematic', 'film', 'moody']);
    const row = await db().selectFrom('resources').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.tags)).toEqual(['Cinematic', 'Film', 'Moody']);
  });

  it('defaults tags to none and is_premium to false; accepts a site-relative thumbnail', async () => {
    const { tags: _t, is_premium: _p, ...bare } = valid;
    const res = await call('POST', API.adminResources, { ...bare, thumbnail_url: '/thumbnails/12.svg', category: 'premium_resources' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ tags: [], is_premium: false, thumbnail_url: '/thumbnails/12.svg' });
    expect(await tagRows(res.json().id)).toEqual([]);
  });

  it('lists newest first (created_at, then id), with every field, filtered by category value or slug', async () => {
    await db().deleteFrom('resources').execute();
    const ids: number[] = [];
    for (const [i, category] of ['typography', 'video_editing', 'typography', 'typography'].entries()) {
      ids.push((await call('POST', API.adminResources, { ...valid, title: `Item ${i}`, category })).json().id);
    }
    // Same created_at for two rows: the id breaks the tie.
    const same = '2025-01-01T00:00:00.000Z';
    await db().updateTable('resources').set({ created_at: same }).where('id', 'in', [ids[2], ids[3]]).execute();
    await db().updateTable('resources').set({ created_at: '2024-01-01T00:00:00.000Z' }).where('id', '=', ids[0]).execute();

    const all = await call('GET', API.adminResources);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 4, offset: 0, nextCursor: null, prevCursor: null });
    expect(all.json().items.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[3], ids[2], ids[0]]);
    expect(all.json().items[0]).toHaveProperty('download_url');
    expect(all.json().items[0]).toHaveProperty('admin_id', editor.admin.id);

    for (const category of ['typography', 'typography']) {
      const res = await call('GET', `${API.adminResources}?category=${category}`);
      expect(res.json().items.map((r: { id: number }) => r.id)).toEqual([ids[3], ids[2], ids[0]]);
    }
    const bySlug = await call('GET', `${API.adminResources}?category=video-editing`);
    expect(bySlug.json().items.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
    expect((await call('GET', `${API.adminResources}?category=motion_graphics`)).json().items).toEqual([]);

    const bad = await call('GET', `${API.adminResources}?category=nope`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: 'Unknown category' } });
  });

  it('edits: changes only what is sent, bumps updated_at, never touches download_count or popularity', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id;
    await db()
      .updateTable('resources')
      .set({ download_count: 42, popularity: 7, updated_at: '2024-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    const before = await db().selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    const res = await call('PATCH', API.adminResource(id), { title: 'Renamed', is_premium: true }, other);
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ id, title: 'Renamed', is_premium: true, download_count: 42, popularity: 7, description: valid.description });
    expect(r.created_at).toBe(before.created_at);
    expect(r.updated_at > before.updated_at).toBe(true);
    // The creator stays the owner.
    expect(r.admin_id).toBe(editor.admin.id);
    // Tags untouched when not sent.
    expect(await tagRows(id)).toEqual(['cinematic', 'film', 'moody']);

    const retag = await call('PATCH', API.adminResource(id), { tags: ['Vintage', 'VINTAGE', 'Warm'] });
    expect(retag.json().tags).toEqual(['Vintage', 'Warm']);
    expect(await tagRows(id)).toEqual(['vintage', 'warm']);
    const cleared = await call('PATCH', API.adminResource(id), { tags: [] });
    expect(cleared.json().tags).toEqual([]);
    expect(await tagRows(id)).toEqual([]);
  });

  it('keeps which picture stands for a resource (its thumbnail by default, or its video poster), in the admin and public answers', async () => {
    const created = await call('POST', API.adminResources, valid);
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    // Docs/decisions/362: an admin who set a thumbnail expects to see it.
    expect(created.json().thumbnail_choice).toBe('image');
    const poster = await call('PATCH', API.adminResource(id), { thumbnail_choice: 'poster' });
    expect(poster.statusCode).toBe(200);
    expect(poster.json().thumbnail_choice).toBe('poster');
    expect((await t.app.inject({ method: 'GET', url: API.resource(id) })).json().thumbnail_choice).toBe('poster');
    const row = await db().selectFrom('resources').select('thumbnail_choice').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.thumbnail_choice).toBe('poster');
    // Another field's edit keeps the choice; a new one is taken at create as well.
    expect((await call('PATCH', API.adminResource(id), { title: 'Renamed' })).json().thumbnail_choice).toBe('poster');
    expect((await call('POST', API.adminResources, { ...valid, thumbnail_choice: 'poster' })).json().thumbnail_choice).toBe('poster');

    const before = await snapshot();
    for (const [method, url] of [['PATCH', API.adminResource(id)], ['POST', API.adminResources]] as const) {
      const bad = await call(method, url, { ...(method === 'POST' ? valid : {}), thumbnail_choice: 'video' });
      expect(bad.statusCode, method).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { thumbnail_choice: 'Thumbnail must be one of image, poster' } } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('does not lose downloads counted while an edit is saved', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id;
    const bump = () => db().updateTable('resources').set((eb) => ({ download_count: eb('download_count', '+', 1) })).where('id', '=', id).execute();
    await Promise.all([
      bump(),
      call('PATCH', API.adminResource(id), { description: 'Edited during downloads' }),
      bump(),
      call('PATCH', API.adminResource(id), { title: 'Edited again' }),
      bump(),
    ]);
    const row = await db().selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ download_count: 3, title: 'Edited again', description: 'Edited during downloads' });
  });

  it('answers 404 for unknown ids and 400 for bad ones', async () => {
    for (const method of ['PATCH', 'DELETE'] as const) {
      const missing = await call(method, API.adminResource(987654), method === 'PATCH' ? { title: 'x' } : undefined);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Resource not found' } });
      for (const bad of ['abc', '0', '-5', '2.5', '1e3x', '0x10', '1e1', '16.0', '+16', '%2016']) {
        const r = await call(method, API.adminResource(bad), method === 'PATCH' ? { title: 'x' } : undefined);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      }
    }
  });

  it('takes an id in digits only: another spelling of an existing id is a 400 and changes nothing', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id as number;
    const before = await snapshot();
    for (const spelling of [`0x${id.toString(16)}`, `${id}.0`, `${id}e0`, `+${id}`, `%20${id}`]) {
      for (const method of ['PATCH', 'DELETE'] as const) {
        const r = await call(method, API.adminResource(spelling), method === 'PATCH' ? { title: 'Renamed' } : undefined);
        expect(r.statusCode, `${method} ${spelling}`).toBe(400);
        expect(r.json(), spelling).toEqual({
          error: { code: 'VALIDATION_ERROR', message: 'id must be a whole number written in digits', fields: { id: 'id must be a whole number written in digits' } },
        });
      }
      expect((await t.app.inject({ url: API.resource(spelling) })).statusCode, spelling).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    expect((await t.app.inject({ url: API.resource(id) })).statusCode).toBe(200);
  });

  it('deletes a resource into the trash (row and tags kept); the purge removes the row and its tag rows', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id;
    const tags = await tagRows(id);
    expect(tags).not.toEqual([]);
    const res = await call('DELETE', API.adminResource(id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await db().selectFrom('resources').select(['status', 'status_before_trash']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'trashed', status_before_trash: 'published' });
    expect(await tagRows(id)).toEqual(tags);
    expect((await call('DELETE', API.adminResource(id))).statusCode).toBe(404);
    expect(await purgeResource(t.database, id)).toBe(true);
    expect(await db().selectFrom('resources').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await tagRows(id)).toEqual([]);
  });

  const badCreate: [string, Record<string, unknown>][] = [
    ['missing title', { title: undefined }],
    ['missing download URL', { download_url: undefined }],
    ['blank title', { title: '   ' }],
    ['title as number', { title: 12 }],
    ['title too long', { title: 't'.repeat(201) }],
    ['description too long', { description: 'd'.repeat(5001) }],
    ['control characters', { title: 'bad\u0000title' }],
    ['unknown category', { category: 'cooking' }],
    ['category slug', { category: 'color-grading' }],
    ['javascript: download URL', { download_url: 'javascript:alert(1)' }],
    ['data: download URL', { download_url: 'data:text/html,<script>alert(1)</script>' }],
    ['relative download URL', { download_url: '/files/a.zip' }],
    ['ftp download URL', { download_url: 'ftp://files.example.com/a.zip' }],
    ['download URL too long', { download_url: `https://example.com/${'a'.repeat(2040)}` }],
    ['javascript: thumbnail', { thumbnail_url: 'javascript:alert(1)' }],
    ['data: thumbnail', { thumbnail_url: 'data:image/svg+xml,<svg onload=alert(1)>' }],
    ['protocol-relative thumbnail', { thumbnail_url: '//evil.example/x.png' }],
    ['thumbnail path escaping', { thumbnail_url: '/thumbnails/../../etc/passwd' }],
    ['tags not a list', { tags: 'Film' }],
    ['tag not text', { tags: ['Film', 3] }],
    ['tag too long', { tags: ['x'.repeat(41)] }],
    ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => `tag${i}`) }],
    ['is_premium as text', { is_premium: 'yes' }],
    ['unknown field admin_id', { admin_id: 1 }],
    ['unknown field download_count', { download_count: 1000 }],
  ];

  it.each(badCreate)('POST with %s → 400, nothing written', async (_name, change) => {
    const before = await snapshot();
    const res = await call('POST', API.adminResources, { ...valid, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([...badCreate.filter(([name]) => !name.startsWith('missing')), ['nothing to update', {}] as [string, Record<string, unknown>]])(
    'PATCH with %s → 400, resource unchanged',
    async (_name, change) => {
      const id = (await call('POST', API.adminResources, valid)).json().id;
      const before = await snapshot();
      const res = await call('PATCH', API.adminResource(id), change);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
      expect(await snapshot()).toEqual(before);
    },
  );

  it('refuses malformed JSON, a non-JSON type and an oversized body, writing nothing', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id;
    const before = await snapshot();
    const headers = { cookie: editor.cookie, 'content-type': 'application/json' };
    for (const [method, url] of [['POST', API.adminResources], ['PATCH', API.adminResource(id)]] as const) {
      const broken = await t.app.inject({ method, url, headers, payload: '{"title": "x",' });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ error: { code: 'BAD_JSON' } });
      const text = await t.app.inject({ method, url, headers: { cookie: editor.cookie, 'content-type': 'text/plain' }, payload: 'title=x' });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      const form = await t.app.inject({
        method,
        url,
        headers: { cookie: editor.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'title=x',
      });
      expect(form.statusCode).toBe(415);
      expect(form.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
      const huge = await t.app.inject({ method, url, headers, payload: JSON.stringify({ ...valid, description: 'd'.repeat(70_000) }) });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    }
    expect(await snapshot()).toEqual(before);
  });

  describe('pages', () => {
    /** 3 categories; typography gets 61 rows with many created_at ties, so the id tie-breaker matters. */
    let expected: number[];
    const list = async (query: string, who: SignedIn = editor) => {
      const res = await call('GET', `${API.adminResources}?${query}`, undefined, who);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const ids = (p: Page) => p.items.map((r) => r.id);

    beforeAll(async () => {
      await db().deleteFrom('resources').execute();
      for (let i = 0; i < 61; i++) {
        await insertResource(t.database, {
          category: 'typography',
          title: i % 10 === 0 ? `Grotesk Sans ${i}` : `Serif family ${i}`,
          description: i % 7 === 0 ? `Has 100% coverage_${i}` : `Plain text ${i}`,
          tags: i % 5 === 0 ? ['Display', 'Vintage'] : ['Body'],
          created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000).toISOString(),
        });
      }
      for (let i = 0; i < 5; i++) await insertResource(t.database, { category: 'sound_effects', title: `Grotesk boom ${i}` });
      expected = (
        await db()
          .selectFrom('resources')
          .select('id')
          .where('category', '=', 'typography')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute()
      ).map((r) => r.id);
      expect(expected).toHaveLength(61);
    });

    it('25 rows by default: the first page, its total and a next cursor', async () => {
      const p = await list('category=typography');
      expect(p.items).toHaveLength(25);
      expect(ids(p)).toEqual(expected.slice(0, 25));
      expect(p).toMatchObject({ total: 61, totalExact: true, offset: 0, prevCursor: null });
      expect(p.nextCursor).toEqual(expect.any(String));
      expect(p.items[0]).toHaveProperty('download_url');
    });

    it('next cursors walk the whole category exactly once, in order; prev cursors walk back the same pages', async () => {
      const pages: Page[] = [];
      let p = await list('category=typography&limit=7');
      pages.push(p);
      while (p.nextCursor) {
        p = await list(`category=typography&limit=7&cursor=${p.nextCursor}`);
        pages.push(p);
        expect(pages.length).toBeLessThan(20);
      }
      expect(pages.flatMap(ids)).toEqual(expected);
      expect(pages.map((x) => x.offset)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 56]);
      expect(pages.every((x) => x.total === 61)).toBe(true);
      expect(pages.at(-1)!.items).toHaveLength(5);

      const back: Page[] = [pages.at(-1)!];
      while (back.at(-1)!.prevCursor) {
        back.push(await list(`category=typography&limit=7&cursor=${back.at(-1)!.prevCursor}`));
        expect(back.length).toBeLessThan(20);
      }
      expect(back.map(ids).reverse()).toEqual(pages.map(ids));
      expect(back.map((x) => x.offset).reverse()).toEqual(pages.map((x) => x.offset));
      expect(back.at(-1)!.prevCursor).toBeNull();
    });

    it('without a category, pages walk every resource once', async () => {
      const seen: number[] = [];
      let p = await list('limit=20');
      seen.push(...ids(p));
      while (p.nextCursor) {
        p = await list(`limit=20&cursor=${p.nextCursor}`);
        seen.push(...ids(p));
      }
      expect(p.total).toBe(66);
      expect(new Set(seen).size).toBe(66);
      expect(seen).toHaveLength(66);
    });

    it('q: title, description or tag contains it, ignoring case; wildcards are literal; totals follow the filter', async () => {
      const rows = await db().selectFrom('resources').selectAll().where('category', '=', 'typography').execute();
      const match = (needle: string) =>
        expected.filter((id) => {
          const r = rows.find((x) => x.id === id)!;
          const n = needle.toLowerCase();
          return r.title.toLowerCase().includes(n) || r.description.toLowerCase().includes(n) || JSON.parse(r.tags).some((x: string) => x.toLowerCase().includes(n));
        });
      for (const q of ['grotesk', 'GROTESK', 'vintage', 'Coverage_', '100%', 'serif FAMILY 1', '  grotesk  ']) {
        const want = match(q.trim());
        expect(want.length, q).toBeGreaterThan(0);
        const p = await list(`category=typography&q=${encodeURIComponent(q)}`);
        expect(ids(p), q).toEqual(want.slice(0, 25));
        expect(p.total, q).toBe(want.length);
      }
      // "%" and "_" match themselves only.
      expect((await list('category=typography&q=%25')).total).toBe(match('%').length);
      expect((await list('category=typography&q=_')).total).toBe(match('_').length);
      expect((await list('category=typography&q=nothing-like-this')).items).toEqual([]);
      expect((await list('category=typography&q=nothing-like-this')).total).toBe(0);
      // Empty q is no filter; the category still applies.
      expect((await list('category=typography&q=')).total).toBe(61);
      expect((await list('category=sound_effects&q=grotesk')).total).toBe(5);

      // Paging through a search visits exactly its matches.
      const want = match('serif');
      const seen: number[] = [];
      let p = await list('category=typography&q=serif&limit=10');
      seen.push(...ids(p));
      while (p.nextCursor) {
        p = await list(`category=typography&q=serif&limit=10&cursor=${p.nextCursor}`);
        expect(p.total).toBe(want.length);
        seen.push(...ids(p));
      }
      expect(seen).toEqual(want);
      // And back with prev cursors (the search's matches are gathered from the text index and sorted both ways).
      const back: number[][] = [];
      while (p.prevCursor) {
        p = await list(`category=typography&q=serif&limit=10&cursor=${p.prevCursor}`);
        back.unshift(ids(p));
      }
      expect(back.flat()).toEqual(want.slice(0, back.flat().length));
      expect(back.flat().length + 10 >= want.length).toBe(true);

      // Without a category, and a 1–2 character q (no index: checked on rows), the same rule.
      const all = await db().selectFrom('resources').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      const everywhere = (needle: string) =>
        all
          .filter((r) => [r.title, r.description, ...JSON.parse(r.tags)].some((x: string) => x.toLowerCase().includes(needle.toLowerCase())))
          .map((r) => r.id);
      for (const q of ['Grotesk', 'SE', 'x']) {
        const want = everywhere(q);
        const p = await list(`q=${encodeURIComponent(q)}`);
        expect(ids(p), q).toEqual(want.slice(0, 25));
        expect(p.total, q).toBe(Math.min(want.length, 1000));
      }
    });

    it('id picks one resource of the category (the edit screen), nothing in another', async () => {
      const p = await list(`category=typography&id=${expected[40]}`);
      expect(ids(p)).toEqual([expected[40]]);
      expect(p).toMatchObject({ total: 1, offset: 0, nextCursor: null, prevCursor: null });
      const other = await list(`category=sound_effects&id=${expected[40]}`);
      expect(other).toMatchObject({ items: [], total: 0 });
    });

    it('totals and pages follow creates and deletes at once', async () => {
      const first = await list('category=typography&limit=10');
      const second = await list(`category=typography&limit=10&cursor=${first.nextCursor}`);
      const created = (await call('POST', API.adminResources, { ...valid, category: 'typography', title: 'Fresh typeface' })).json();
      const fresh = await list('category=typography&limit=10');
      expect(fresh.total).toBe(62);
      expect(fresh.items[0].id).toBe(created.id);
      // A cursor is a position, not a page number: the second page still follows the same row.
      expect(ids(await list(`category=typography&limit=10&cursor=${first.nextCursor}`))).toEqual(ids(second));
      await call('DELETE', API.adminResource(created.id));
      await call('DELETE', API.adminResource(second.items[0].id));
      const after = await list(`category=typography&limit=10&cursor=${first.nextCursor}`);
      expect(after.total).toBe(60);
      expect(ids(after)).toEqual(expected.filter((id) => id !== second.items[0].id).slice(10, 20));
      expected = expected.filter((id) => id !== second.items[0].id);
    });

    it('a cursor past everything left shows the last page; one before less than a page shows the first', async () => {
      const oldest = await db().selectFrom('resources').select(['id', 'created_at']).where('id', '=', expected.at(-1)!).executeTakeFirstOrThrow();
      const past = encodeAdminCursor({ direction: 'older', createdAt: oldest.created_at, id: oldest.id, offset: 500 });
      const last = await list(`category=typography&limit=7&cursor=${past}`);
      expect(ids(last)).toEqual(expected.slice(-7));
      expect(last.offset).toBe(expected.length - 7);
      expect(last.nextCursor).toBeNull();
      expect(last.prevCursor).toEqual(expect.any(String));

      const third = await db().selectFrom('resources').select(['id', 'created_at']).where('id', '=', expected[2]).executeTakeFirstOrThrow();
      const before = encodeAdminCursor({ direction: 'newer', createdAt: third.created_at, id: third.id, offset: 0 });
      const firstPage = await list(`category=typography&limit=7&cursor=${before}`);
      expect(ids(firstPage)).toEqual(expected.slice(0, 7));
      expect(firstPage).toMatchObject({ offset: 0, prevCursor: null });
      // An offset that no longer fits is kept within the total.
      const forged = encodeAdminCursor({ direction: 'older', createdAt: third.created_at, id: third.id, offset: 1_000_000 });
      const p = await list(`category=typography&limit=7&cursor=${forged}`);
      expect(ids(p)).toEqual(expected.slice(3, 10));
      expect(p.offset + p.items.length).toBeLessThan(p.total);
    });

    it('a search counts up to the cap (totalExact false beyond it) and still pages on', async () => {
      const rows = Array.from({ length: SEARCH_TOTAL_CAP + 10 }, (_, i) => ({
        title: `Capword ${i}`,
        description: 'Bulk row',
        category: 'anime_edits',
        thumbnail_url: '/thumbnails/1.svg',
        download_url: `https://files.example.com/bulk-${i}.zip`,
        tags: '[]',
        is_premium: 0,
        download_count: 0,
        popularity: 0,
        admin_id: null,
        created_at: new Date(Date.UTC(2023, 0, 1) + i * 1000).toISOString(),
        updated_at: '2023-01-01T00:00:00.000Z',
      }));
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const ids = await db().insertInto('resources').values(chunk).returning('id').execute();
        await resourceSearch(t.database).writeStoredText(db(), chunk.map((r, j) => ({ id: Number(ids[j].id), title: r.title, description: r.description, tags: [] })));
      }
      const plain = await list('category=anime_edits');
      expect(plain).toMatchObject({ total: SEARCH_TOTAL_CAP + 10, totalExact: true });
      const p = await list('category=anime_edits&q=capword');
      expect(p).toMatchObject({ total: SEARCH_TOTAL_CAP, totalExact: false });
      expect(p.items[0].title).toBe(`Capword ${SEARCH_TOTAL_CAP + 9}`);
      const next = await list(`category=anime_edits&q=capword&cursor=${p.nextCursor}`);
      expect(next.items[0].title).toBe(`Capword ${SEARCH_TOTAL_CAP + 9 - 25}`);
      expect(next.offset).toBe(25);
      const few = await list('category=anime_edits&q=capword 12');
      // "Capword 12", "Capword 120"–"129", and "Capword 1200"… as far as the rows go.
      const twelves = rows.filter((r) => r.title.toLowerCase().includes('capword 12')).length;
      expect(few).toMatchObject({ total: twelves, totalExact: true });
      await db().deleteFrom('resources').where('category', '=', 'anime_edits').execute();
    }, 60_000);

    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    it.each([
      ['limit=0', 'limit must be at least 1'],
      ['limit=101', 'limit must be at most 100'],
      ['limit=abc', 'limit must be a number'],
      ['limit=2.5', 'limit must be a whole number'],
      ['limit=', 'limit must be at least 1'],
      ['limit=1&limit=2', undefined],
      [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
      ['q=a%00b', 'q contains control characters'],
      ['q=a%0Ab', 'q contains control characters'],
      ['q=a&q=b', undefined],
      ['id=0', 'id must be at least 1'],
      ['id=abc', 'id must be a whole number written in digits'],
      ['id=1.5', 'id must be a whole number written in digits'],
      ['id=0x10', 'id must be a whole number written in digits'],
      ['id=1e3', 'id must be a whole number written in digits'],
      ['id=99999999999', 'id is too large'],
      ['category=nope', 'Unknown category'],
      ['cursor=not%20base64!', 'Invalid cursor'],
      [`cursor=${'A'.repeat(513)}`, 'Invalid cursor'],
      [`cursor=${b64('not json')}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: '2025-01-01T00:00:00.000Z', id: 1 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'x', createdAt: '2025-01-01T00:00:00.000Z', id: 1, offset: 0 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: '2025\u0000', id: 1, offset: 0 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: "x' or 1=1 --", id: 1, offset: 0 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: '2025-01-01T00:00:00.000Z', id: 0, offset: 0 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: '2025-01-01T00:00:00.000Z', id: 1, offset: -1 })}`, 'Invalid cursor'],
      [`cursor=${b64({ direction: 'older', createdAt: '2025-01-01T00:00:00.000Z', id: 1, offset: 0, extra: 1 })}`, 'Invalid cursor'],
      [`cursor=${b64([1, 2])}`, 'Invalid cursor'],
    ])('GET ?%s → 400 with the error shape', async (query, message) => {
      const url = query.startsWith('category=') ? `${API.adminResources}?${query}` : `${API.adminResources}?category=typography&${query}`;
      const res = await call('GET', url);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: message ?? expect.any(String) } });
    });

    it('any signed-in admin may list (access admin); nobody else', async () => {
      expect(editor.admin.is_super_user).toBe(false);
      expect((await list('category=typography', other)).total).toBe(expected.length);
      const anonymous = await t.app.inject({ method: 'GET', url: `${API.adminResources}?category=typography` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: { code: expect.any(String) } });
      const forged = await t.app.inject({ method: 'GET', url: `${API.adminResources}?category=typography`, headers: { cookie: 'rv_session=forged' } });
      expect(forged.statusCode).toBe(401);
    });
  });
});
