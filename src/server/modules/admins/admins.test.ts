import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { nowIso } from '../../time';
import { createAndSignIn, login, type SignedIn } from '../../testing/auth-helpers';
import { deleteAdmin } from './queries';
import { SYSTEM_ACTOR } from '../audit/record';

describe.each(TEST_DATABASES)('managing admins on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let editor: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'root', { superUser: true });
    editor = await createAndSignIn(t.app, t.database, 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const adminCount = async () => (await db().selectFrom('admins').select('id').execute()).length;
  const asRoot = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: root.cookie } });

  /** An admin row for deletion tests; nobody signs in as it, so no real hash is needed. */
  const insertTarget = async (username: string, superUser = false) =>
    (
      await db()
        .insertInto('admins')
        .values({
          username,
          username_key: username.toLowerCase(),
          password_hash: '$argon2id$v=19$m=19456,t=2,p=1$placeholder$placeholder',
          is_super_user: superUser ? 1 : 0,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('lists admins newest first with public fields only', async () => {
    const res = await asRoot('GET', API.adminAdmins);
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Record<string, unknown>[];
    expect(items.map((a) => a.username).slice(-2)).toEqual(['editor', 'root']);
    for (const a of items) expect(Object.keys(a).sort()).toEqual(['created_at', 'id', 'is_super_user', 'username']);
    const sorted = [...items].sort((a, b) => (a.created_at === b.created_at ? Number(b.id) - Number(a.id) : a.created_at! < b.created_at! ? 1 : -1));
    expect(items).toEqual(sorted);
    expect(res.body).not.toMatch(/argon2|password/i);
  });

  it('creates an admin (201, profile), who can then sign in; super switch honoured', async () => {
    const res = await asRoot('POST', API.adminAdmins, { username: 'New.Editor-1', password: 'a-good-password' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), username: 'New.Editor-1', is_super_user: false, created_at: expect.any(String) });
    const signIn = await login(t.app, 'new.editor-1', 'a-good-password');
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().is_super_user).toBe(false);

    const sup = await asRoot('POST', API.adminAdmins, { username: 'second_root', password: 'another-password', is_super_user: true });
    expect(sup.statusCode).toBe(201);
    expect(sup.json().is_super_user).toBe(true);
    const row = await db().selectFrom('admins').selectAll().where('id', '=', sup.json().id).executeTakeFirstOrThrow();
    expect(row.is_super_user).toBe(1);
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
  });

  it('refuses a duplicate username in any letter case with 409 and fields.username', async () => {
    const before = await adminCount();
    for (const username of ['root', 'ROOT', ' Root ', 'Editor']) {
      const res = await asRoot('POST', API.adminAdmins, { username, password: 'whatever-password' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: {
          code: 'CONFLICT',
          message: 'An admin with this username already exists',
          fields: { username: 'An admin with this username already exists' },
        },
      });
    }
    expect(await adminCount()).toBe(before);
  });

  it('lets only one of two simultaneous creations of the same name through', async () => {
    const before = await adminCount();
    const [a, b] = await Promise.all([
      asRoot('POST', API.adminAdmins, { username: 'racer', password: 'racer-password-1' }),
      asRoot('POST', API.adminAdmins, { username: 'RACER', password: 'racer-password-2' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await adminCount()).toBe(before + 1);
  });

  const badBodies: [string, unknown, string][] = [
    ['missing password', { username: 'valid_name' }, 'password'],
    ['missing username', { password: 'long-enough-1' }, 'username'],
    ['username too short', { username: 'ab', password: 'long-enough-1' }, 'username'],
    ['username too long', { username: 'a'.repeat(33), password: 'long-enough-1' }, 'username'],
    ['username with spaces', { username: 'two words', password: 'long-enough-1' }, 'username'],
    ['username with markup', { username: '<script>', password: 'long-enough-1' }, 'username'],
    ['password too short', { username: 'valid_name', password: 'short' }, 'password'],
    ['password too long', { username: 'valid_name', password: 'p'.repeat(257) }, 'password'],
    ['wrong types', { username: 42, password: ['x'] }, 'username'],
    ['is_super_user as text', { username: 'valid_name', password: 'long-enough-1', is_super_user: 'true' }, 'is_super_user'],
    ['unknown field password_hash', { username: 'valid_name', password: 'long-enough-1', password_hash: 'plain' }, '_'],
  ];
  it.each(badBodies)('%s → 400 with the error shape, nothing written', async (_name, payload, field) => {
    const before = await adminCount();
    const res = await asRoot('POST', API.adminAdmins, payload as object);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
    expect(Object.keys(body.error.fields ?? {})).toContain(field);
    expect(await adminCount()).toBe(before);
  });

  it('refuses malformed JSON and an oversized body without writing', async () => {
    const before = await adminCount();
    const bad = await t.app.inject({
      method: 'POST',
      url: API.adminAdmins,
      headers: { cookie: root.cookie, 'content-type': 'application/json' },
      payload: '{"username":"x",',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'BAD_JSON' } });
    const huge = await asRoot('POST', API.adminAdmins, { username: 'valid_name', password: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await adminCount()).toBe(before);
  });

  it('deletes an admin (their resources stay, unowned); unknown id 404; bad id 400', async () => {
    const id = await insertTarget('leaving');
    const now = nowIso();
    const resource = await db()
      .insertInto('resources')
      .values({ title: 'Kept', description: 'd', category: 'typography', thumbnail_url: '/t.svg', download_url: 'https://example.com/a', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await asRoot('DELETE', API.adminAdmin(id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await db().selectFrom('admins').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const kept = await db().selectFrom('resources').select('admin_id').where('id', '=', resource.id).executeTakeFirstOrThrow();
    expect(kept.admin_id).toBeNull();

    const again = await asRoot('DELETE', API.adminAdmin(id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Admin not found' } });
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const r = await asRoot('DELETE', API.adminAdmin(bad));
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('never lets an admin delete themselves', async () => {
    const before = await adminCount();
    const res = await asRoot('DELETE', API.adminAdmin(root.admin.id));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'CONFLICT', message: 'You cannot delete your own account' } });
    expect(await adminCount()).toBe(before);
    expect((await t.app.inject({ url: API.me, headers: { cookie: root.cookie } })).statusCode).toBe(200);
  });

  it('never deletes the last super user', async () => {
    const supers = await db().selectFrom('admins').select('id').where('is_super_user', '=', 1).execute();
    // Leave root as the only super user, then try to remove root as someone else.
    await db().updateTable('admins').set({ is_super_user: 0 }).where('id', '!=', root.admin.id).execute();
    try {
      expect(await deleteAdmin(t.database, { ...SYSTEM_ACTOR, adminId: editor.admin.id }, root.admin.id)).toBe('last_super');
      expect(await db().selectFrom('admins').select('id').where('id', '=', root.admin.id).executeTakeFirst()).toBeDefined();
      const plain = await insertTarget('plain_target');
      expect(await deleteAdmin(t.database, { ...SYSTEM_ACTOR, adminId: editor.admin.id }, plain)).toBe('deleted');
    } finally {
      await db().updateTable('admins').set({ is_super_user: 1 }).where('id', 'in', supers.map((s) => s.id)).execute();
    }
  });

  it('keeps one super user when the only two delete each other at the same moment', async () => {
    const others = (await db().selectFrom('admins').select('id').where('is_super_user', '=', 1).execute()).map((r) => r.id);
    const a = await createAndSignIn(t.app, t.database, 'duel_a', { superUser: true });
    const b = await createAndSignIn(t.app, t.database, 'duel_b', { superUser: true });
    await db().updateTable('admins').set({ is_super_user: 0 }).where('id', 'in', others).execute();
    try {
      const [ra, rb] = await Promise.all([
        t.app.inject({ method: 'DELETE', url: API.adminAdmin(b.admin.id), headers: { cookie: a.cookie } }),
        t.app.inject({ method: 'DELETE', url: API.adminAdmin(a.admin.id), headers: { cookie: b.cookie } }),
      ]);
      const codes = [ra.statusCode, rb.statusCode].sort();
      expect(codes[0]).toBe(200);
      // The loser is either refused as the last super user or already signed out by the deletion.
      expect([401, 409]).toContain(codes[1]);
      const left = await db().selectFrom('admins').select('id').where('id', 'in', [a.admin.id, b.admin.id]).execute();
      expect(left).toHaveLength(1);
    } finally {
      await db().updateTable('admins').set({ is_super_user: 1 }).where('id', 'in', others).execute();
    }
  });
});
