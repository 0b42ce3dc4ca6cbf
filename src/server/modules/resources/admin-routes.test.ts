import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../test-utils';
import { createAndSignIn, type SignedIn } from '../auth/test-helpers';

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
      for (const bad of ['abc', '0', '-5', '2.5', '1e3x']) {
        const r = await call(method, API.adminResource(bad), method === 'PATCH' ? { title: 'x' } : undefined);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      }
    }
  });

  it('deletes a resource and its tag rows', async () => {
    const id = (await call('POST', API.adminResources, valid)).json().id;
    expect(await tagRows(id)).not.toEqual([]);
    const res = await call('DELETE', API.adminResource(id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await db().selectFrom('resources').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await tagRows(id)).toEqual([]);
    expect((await call('DELETE', API.adminResource(id))).statusCode).toBe(404);
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
});
