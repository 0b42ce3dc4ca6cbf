import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';

describe.each(TEST_DATABASES)('admin announcements API on %s', (kind) => {
  let t: TestApp;
  let editor: SignedIn;
  let other: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    editor = await createAndSignIn(t.app, t.database, 'ann_editor');
    other = await createAndSignIn(t.app, t.database, 'ann_other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: SignedIn = editor) =>
    t.app.inject({ method, url, payload: payload as object | undefined, headers: { cookie: who.cookie } });
  const rows = () => db().selectFrom('announcements').selectAll().orderBy('id').execute();

  it('creates an active announcement with a trimmed message, authored by the signed-in admin', async () => {
    const res = await call('POST', API.adminAnnouncements, { message: '  New packs every Friday!  ' }, other);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      message: 'New packs every Friday!',
      is_active: true,
      admin_id: other.admin.id,
      created_at: expect.any(String),
      starts_at: null,
      ends_at: null,
    });
    const row = (await rows()).find((r) => r.id === res.json().id)!;
    expect(row).toMatchObject({ is_active: 1, admin_id: other.admin.id });
  });

  it('accepts a message of exactly the maximum length', async () => {
    const res = await call('POST', API.adminAnnouncements, { message: 'm'.repeat(500) });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toHaveLength(500);
  });

  it('lists all announcements newest first, active or not', async () => {
    await db().deleteFrom('announcements').execute();
    const a = (await call('POST', API.adminAnnouncements, { message: 'first' })).json().id;
    const b = (await call('POST', API.adminAnnouncements, { message: 'second' })).json().id;
    const c = (await call('POST', API.adminAnnouncements, { message: 'third' })).json().id;
    await db().updateTable('announcements').set({ created_at: '2025-05-05T00:00:00.000Z' }).where('id', 'in', [b, c]).execute();
    await db().updateTable('announcements').set({ created_at: '2024-05-05T00:00:00.000Z', is_active: 0 }).where('id', '=', a).execute();
    const res = await call('GET', API.adminAnnouncements);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((x: { id: number }) => x.id)).toEqual([c, b, a]);
    expect(res.json().items[2].is_active).toBe(false);
  });

  it('toggles is_active and edits the message', async () => {
    const id = (await call('POST', API.adminAnnouncements, { message: 'toggle me' })).json().id;
    const off = await call('PATCH', API.adminAnnouncement(id), { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id, is_active: false, message: 'toggle me', admin_id: editor.admin.id });
    const on = await call('PATCH', API.adminAnnouncement(id), { is_active: true, message: ' edited ' }, other);
    expect(on.json()).toMatchObject({ is_active: true, message: 'edited', admin_id: editor.admin.id });
    const row = (await rows()).find((r) => r.id === id)!;
    expect(row).toMatchObject({ is_active: 1, message: 'edited' });
  });

  it('deletes; unknown ids 404, bad ids 400', async () => {
    const id = (await call('POST', API.adminAnnouncements, { message: 'short-lived' })).json().id;
    const res = await call('DELETE', API.adminAnnouncement(id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await rows()).some((r) => r.id === id)).toBe(false);
    for (const method of ['PATCH', 'DELETE'] as const) {
      const payload = method === 'PATCH' ? { is_active: false } : undefined;
      const missing = await call(method, API.adminAnnouncement(id), payload);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Announcement not found' } });
      expect((await call(method, API.adminAnnouncement('x1'), payload)).statusCode).toBe(400);
    }
  });

  const badCreate: [string, unknown][] = [
    ['no message', {}],
    ['empty message', { message: '' }],
    ['whitespace-only message', { message: '   \n\t ' }],
    ['message too long', { message: 'm'.repeat(501) }],
    ['message as number', { message: 5 }],
    ['message as null', { message: null }],
    ['control characters', { message: 'hi\u0007there' }],
    ['admin_id in the body', { message: 'hello', admin_id: 1 }],
    ['is_active in the body', { message: 'hello', is_active: false }],
    ['a list', [{ message: 'hello' }]],
  ];
  it.each(badCreate)('POST with %s → 400, nothing written', async (_name, payload) => {
    const before = await rows();
    const res = await call('POST', API.adminAnnouncements, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
    expect(await rows()).toEqual(before);
  });

  const badPatch: [string, unknown][] = [
    ['nothing to update', {}],
    ['is_active as text', { is_active: 'false' }],
    ['is_active as 0', { is_active: 0 }],
    ['blank message', { message: '  ' }],
    ['message too long', { message: 'm'.repeat(501) }],
    ['admin_id', { admin_id: 99 }],
    ['created_at', { created_at: '2020-01-01T00:00:00.000Z' }],
  ];
  it.each(badPatch)('PATCH with %s → 400, unchanged', async (_name, payload) => {
    const id = (await call('POST', API.adminAnnouncements, { message: 'stable' })).json().id;
    const before = await rows();
    const res = await call('PATCH', API.adminAnnouncement(id), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
    expect(await rows()).toEqual(before);
  });

  it('takes a window (starts_at, ends_at) in any zone, stores it in UTC, and clears a side with null', async () => {
    const res = await call('POST', API.adminAnnouncements, { message: 'Black Friday', starts_at: '2030-11-28T09:00:00+01:00', ends_at: '2030-11-29T00:00:00Z' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ starts_at: '2030-11-28T08:00:00.000Z', ends_at: '2030-11-29T00:00:00.000Z' });
    const edited = await call('PATCH', API.adminAnnouncement(res.json().id), { starts_at: null });
    expect(edited.json()).toMatchObject({ starts_at: null, ends_at: '2030-11-29T00:00:00.000Z' });
  });

  const badWindows: [string, unknown][] = [
    ['an end before the start', { message: 'm', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' }],
    ['an end equal to the start', { message: 'm', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-02T00:00:00Z' }],
    ['a time without its zone', { message: 'm', starts_at: '2030-01-02T00:00' }],
    ['no time at all', { message: 'm', ends_at: 'tomorrow' }],
    ['an impossible date', { message: 'm', ends_at: '2030-02-31T00:00:00Z' }],
  ];
  it.each(badWindows)('POST with %s → 400 on its field, nothing written', async (_name, payload) => {
    const before = await rows();
    const res = await call('POST', API.adminAnnouncements, payload);
    expect(res.statusCode).toBe(400);
    const field = 'ends_at' in (payload as object) ? 'ends_at' : 'starts_at';
    expect(res.json().error.fields).toHaveProperty(field);
    expect(await rows()).toEqual(before);
  });

  it('PATCH moving one side of the window past the stored other → 400 on ends_at, unchanged', async () => {
    const id = (await call('POST', API.adminAnnouncements, { message: 'sale', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-03T00:00:00Z' })).json().id;
    const before = await rows();
    const res = await call('PATCH', API.adminAnnouncement(id), { starts_at: '2030-01-04T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { ends_at: 'The end must be after the start' } } });
    expect(await rows()).toEqual(before);
  });

  it('refuses malformed JSON and oversized bodies, writing nothing', async () => {
    const id = (await call('POST', API.adminAnnouncements, { message: 'stable' })).json().id;
    const before = await rows();
    const headers = { cookie: editor.cookie, 'content-type': 'application/json' };
    for (const [method, url] of [['POST', API.adminAnnouncements], ['PATCH', API.adminAnnouncement(id)]] as const) {
      const broken = await t.app.inject({ method, url, headers, payload: '{"message": ' });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ error: { code: 'BAD_JSON' } });
      const huge = await t.app.inject({ method, url, headers, payload: JSON.stringify({ message: 'm'.repeat(80_000) }) });
      expect(huge.statusCode).toBe(413);
    }
    expect(await rows()).toEqual(before);
  });
});
