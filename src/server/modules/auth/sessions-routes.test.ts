import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { generatedThumbnailPath } from '../../../contract/thumbnail-choice';
import type { AdminSession } from '../../../contract/auth';
import { LOGIN_LIMIT } from '../../../contract/constants';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, login, nextIp, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { nowIso } from '../../time';
import { runAdminCli } from '../admins/admin-cli';
import { COMMON_PASSWORD_MESSAGE, verifyPassword } from './passwords';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';

type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT' | 'OPTIONS';

describe.each(TEST_DATABASES)('own sessions and password on %s', (kind) => {
  let t: TestApp;
  let unique = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A fresh admin signed in once (from Chrome on Linux unless told). */
  const newAdmin = async (opts: { superUser?: boolean } = {}): Promise<SignedIn> =>
    createAndSignIn(t.app, t.database, `sess_${kind}_${unique++}`, opts);

  /** Another session of the same admin, from the given browser and address. */
  const signInAgain = async (who: SignedIn, userAgent = CHROME_LINUX, ip = nextIp()) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.login,
      payload: { username: who.admin.username, password: who.password },
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(res.statusCode, res.body).toBe(200);
    return sessionCookie(res);
  };

  const call = (cookie: string | undefined, method: Method, url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object | undefined, headers: cookie ? { cookie } : {} });
  const me = async (cookie: string) => (await call(cookie, 'GET', API.me)).statusCode;
  const list = async (cookie: string) => {
    const res = await call(cookie, 'GET', API.authSessions);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as AdminSession[];
  };
  const sessionRows = (adminId: number) => db().selectFrom('sessions').selectAll().where('admin_id', '=', adminId).execute();

  it('lists one’s own sessions with browser, system and address read from where each began, this one marked', async () => {
    const a = await newAdmin();
    const chrome = await signInAgain(a, CHROME_LINUX, '192.0.2.10');
    const firefox = await signInAgain(a, FIREFOX_WINDOWS, '192.0.2.11');
    await signInAgain(a, SAFARI_MAC, '192.0.2.12');
    const other = await newAdmin();
    await signInAgain(other, FIREFOX_WINDOWS);

    const items = await list(chrome);
    expect(items).toHaveLength(4);
    expect(items[0]).toMatchObject({ current: true, browser: 'Chrome 131', system: 'Linux', ip: '192.0.2.10', user_agent: CHROME_LINUX });
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(items).toContainEqual(expect.objectContaining({ current: false, browser: 'Firefox 133', system: 'Windows 10', ip: '192.0.2.11' }));
    expect(items).toContainEqual(expect.objectContaining({ current: false, browser: 'Safari 17', system: 'macOS Catalina', ip: '192.0.2.12' }));
    for (const s of items) {
      expect(Object.keys(s).sort()).toEqual(['browser', 'created_at', 'current', 'id', 'ip', 'last_seen_at', 'system', 'user_agent']);
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
    }
    // Seen from another of the same admin's sessions, that one is current instead.
    const fromFirefox = await list(firefox);
    expect(fromFirefox[0]).toMatchObject({ current: true, browser: 'Firefox 133' });
    expect(new Set(fromFirefox.map((s) => s.id))).toEqual(new Set(items.map((s) => s.id)));

    // Neither the token nor the stored hash of any session ever leaves.
    const raw = (await call(chrome, 'GET', API.authSessions)).body;
    for (const row of await sessionRows(a.admin.id)) expect(raw).not.toContain(row.id);
    for (const cookie of [a.cookie, chrome, firefox]) expect(raw).not.toContain(cookie.split('=')[1]);
    expect((await call(chrome, 'GET', API.authSessions)).headers['cache-control']).toBe('no-store');
  });

  it('a session without a User-Agent is listed with nulls; a long one is kept bounded', async () => {
    const a = await newAdmin();
    const bare = await t.app.inject({ method: 'POST', url: API.login, payload: { username: a.admin.username, password: a.password }, headers: { 'user-agent': '' } });
    const cookie = sessionCookie(bare);
    const mine = (await list(cookie)).find((s) => s.current)!;
    expect(mine).toMatchObject({ browser: null, system: null, user_agent: null });
    const long = await signInAgain(a, `${CHROME_LINUX} ${'x'.repeat(5000)}`);
    expect((await list(long)).find((s) => s.current)!.user_agent).toHaveLength(512);
  });

  it('ends one of one’s own sessions (that one is signed out, this one stays); another admin’s is 404 and untouched', async () => {
    const a = await newAdmin();
    const second = await signInAgain(a);
    const target = (await list(second)).find((s) => s.current)!;
    const b = await newAdmin();
    const bSession = (await list(b.cookie))[0];

    const res = await call(a.cookie, 'DELETE', API.authSession(target.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await me(second)).toBe(401);
    expect(await me(a.cookie)).toBe(200);
    expect((await list(a.cookie)).map((s) => s.id)).not.toContain(target.id);

    const again = await call(a.cookie, 'DELETE', API.authSession(target.id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Session not found' } });
    const foreign = await call(a.cookie, 'DELETE', API.authSession(bSession.id));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Session not found' } });
    expect(await me(b.cookie)).toBe(200);

    for (const bad of ['abc', 'A'.repeat(32), '0'.repeat(33), `${'0'.repeat(31)}g`]) {
      const r = await call(a.cookie, 'DELETE', API.authSession(bad));
      expect(r.statusCode, bad).toBe(400);
      expect(r.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('ending the current session signs out: the cookie is cleared and it no longer works', async () => {
    const a = await newAdmin();
    const current = (await list(a.cookie))[0];
    const res = await call(a.cookie, 'DELETE', API.authSession(current.id));
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === 'rv_session');
    expect(cleared?.value).toBe('');
    expect(await me(a.cookie)).toBe(401);
  });

  it('revoke-others ends every other session of one’s own and keeps this one and other admins’', async () => {
    const a = await newAdmin();
    const others = [await signInAgain(a), await signInAgain(a, FIREFOX_WINDOWS)];
    const b = await newAdmin();
    const res = await call(a.cookie, 'POST', API.authSessionsRevokeOthers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const c of others) expect(await me(c)).toBe(401);
    expect(await me(a.cookie)).toBe(200);
    expect(await me(b.cookie)).toBe(200);
    expect(await list(a.cookie)).toHaveLength(1);
    expect((await call(a.cookie, 'POST', API.authSessionsRevokeOthers)).json()).toEqual({ ended: 0 });
  });

  it('changing the password ends the other sessions and keeps this one; the new password signs in, the old does not', async () => {
    const a = await newAdmin();
    const other = await signInAgain(a);
    const b = await newAdmin();
    const res = await call(a.cookie, 'POST', API.authPassword, { current_password: a.password, new_password: 'a-brand-new-passphrase' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 1 });
    expect(await me(a.cookie)).toBe(200);
    expect(await me(other)).toBe(401);
    expect(await me(b.cookie)).toBe(200);
    expect((await login(t.app, a.admin.username, a.password)).statusCode).toBe(401);
    expect((await login(t.app, a.admin.username, 'a-brand-new-passphrase')).statusCode).toBe(200);
    const row = await db().selectFrom('admins').select('password_hash').where('id', '=', a.admin.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('a-brand-new-passphrase');
  });

  it('a wrong current password is a clear 400 on that field and changes nothing', async () => {
    const a = await newAdmin();
    const other = await signInAgain(a);
    const before = await db().selectFrom('admins').select('password_hash').where('id', '=', a.admin.id).executeTakeFirstOrThrow();
    const res = await call(a.cookie, 'POST', API.authPassword, { current_password: 'not-my-password', new_password: 'a-brand-new-passphrase' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Current password is incorrect', fields: { current_password: 'Current password is incorrect' } },
    });
    const after = await db().selectFrom('admins').select('password_hash').where('id', '=', a.admin.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await me(other)).toBe(200);
    expect(await me(a.cookie)).toBe(200);
  });

  it('wrong current passwords are limited like sign-ins, per admin: the next try is 429 even when right', async () => {
    const a = await newAdmin();
    const b = await newAdmin();
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const r = await call(a.cookie, 'POST', API.authPassword, { current_password: `guess-${i}`, new_password: 'a-brand-new-passphrase' });
      expect(r.statusCode).toBe(400);
    }
    const locked = await call(a.cookie, 'POST', API.authPassword, { current_password: a.password, new_password: 'a-brand-new-passphrase' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many password attempts\. Try again in \d+ minutes?\.$/) } });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await verifyPassword((await db().selectFrom('admins').select('password_hash').where('id', '=', a.admin.id).executeTakeFirstOrThrow()).password_hash, a.password)).toBe(true);
    // Another admin, and signing in (which an anonymous client could be blocking), are unaffected.
    const other = await call(b.cookie, 'POST', API.authPassword, { current_password: b.password, new_password: 'another-new-passphrase' });
    expect(other.statusCode).toBe(200);
    expect((await login(t.app, a.admin.username, a.password)).statusCode).toBe(200);
  });

  it.each([
    ['the same as the current one', (pw: string) => ({ current_password: pw, new_password: pw }), 'new_password', 'Choose a password different from the current one'],
    ['a common leaked password', (pw: string) => ({ current_password: pw, new_password: 'password123' }), 'new_password', COMMON_PASSWORD_MESSAGE],
    ['a common one in other letter case', (pw: string) => ({ current_password: pw, new_password: 'PassWord123' }), 'new_password', COMMON_PASSWORD_MESSAGE],
    ['too short', (pw: string) => ({ current_password: pw, new_password: 'short' }), 'new_password', 'Password must be at least 8 characters'],
    ['too long', (pw: string) => ({ current_password: pw, new_password: 'p'.repeat(257) }), 'new_password', 'Password must be at most 256 characters'],
    ['missing the current one', () => ({ new_password: 'a-brand-new-passphrase' }), 'current_password', 'Current password is required'],
    ['missing the new one', (pw: string) => ({ current_password: pw }), 'new_password', 'Password is required'],
    ['with an unknown field', (pw: string) => ({ current_password: pw, new_password: 'a-brand-new-passphrase', admin_id: 1 }), '_', undefined],
    ['of the wrong types', () => ({ current_password: 1, new_password: ['x'] }), 'current_password', undefined],
  ])('a new password %s is refused with a clear 400, nothing changed', async (_name, body, field, message) => {
    const a = await newAdmin();
    const other = await signInAgain(a);
    const res = await call(a.cookie, 'POST', API.authPassword, body(a.password));
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(error.fields ?? {})).toContain(field);
    if (message) expect(error.fields[field]).toBe(message);
    expect(await me(other)).toBe(200);
    expect((await login(t.app, a.admin.username, a.password)).statusCode).toBe(200);
  });

  it('refuses a common password when a super admin creates an admin, and in the admin CLI', async () => {
    const root = await newAdmin({ superUser: true });
    const count = async () => (await db().selectFrom('admins').select('id').execute()).length;
    const before = await count();
    const res = await call(root.cookie, 'POST', API.adminAdmins, { username: `common_${kind}`, password: 'Qwerty123' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: COMMON_PASSWORD_MESSAGE, fields: { password: COMMON_PASSWORD_MESSAGE } } });

    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l) };
    expect(await runAdminCli(['create', `cli_common_${kind}`, '--password', 'letmein123'], t.database, io)).toBe(1);
    expect(await runAdminCli(['reset-password', root.admin.username, '--password', 'iloveyou1'], t.database, io)).toBe(1);
    expect(err).toEqual([COMMON_PASSWORD_MESSAGE, COMMON_PASSWORD_MESSAGE]);
    expect(await count()).toBe(before);
    expect(await me(root.cookie)).toBe(200);
  });

  it('is for signed-in admins only: 401 without a live session, nothing changed', async () => {
    const a = await newAdmin();
    const target = (await list(a.cookie))[0];
    const forged = `rv_session=${'A'.repeat(43)}`;
    for (const cookie of [undefined, forged]) {
      for (const [method, url, payload] of [
        ['GET', API.authSessions],
        ['DELETE', API.authSession(target.id)],
        ['POST', API.authSessionsRevokeOthers],
        ['POST', API.authPassword, { current_password: a.password, new_password: 'a-brand-new-passphrase' }],
      ] as [Method, string, unknown?][]) {
        const res = await call(cookie, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Please sign in' } });
      }
    }
    expect(await me(a.cookie)).toBe(200);
    expect(await sessionRows(a.admin.id)).toHaveLength(1);
  });

  describe('must change the password', () => {
    /** Every admin route the app registered, plus one's own sessions: all refused until the password is changed. */
    const everyOtherRoute = (): [Method, string][] => [
      ...t.app.adminRouteTable.map((r): [Method, string] => [r.method as Method, r.url.replace(/:id/g, '1')]),
      ['GET', API.authSessions],
      ['POST', API.authSessionsRevokeOthers],
      ['DELETE', API.authSession('0'.repeat(32))],
    ];

    it('created with the box ticked: may sign in, read /me and change the password, nothing else; then everything', async () => {
      const root = await newAdmin({ superUser: true });
      const username = `must_${kind}`;
      const created = await call(root.cookie, 'POST', API.adminAdmins, {
        username,
        password: 'first-given-password',
        is_super_user: true,
        must_change_password: true,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(Object.keys(created.json()).sort()).toEqual(['created_at', 'id', 'is_super_user', 'username']);
      const signIn = await login(t.app, username, 'first-given-password');
      expect(signIn.statusCode).toBe(200);
      const cookie = sessionCookie(signIn);
      const other = sessionCookie(await login(t.app, username, 'first-given-password'));

      const meRes = await call(cookie, 'GET', API.me);
      expect(meRes.statusCode).toBe(200);
      expect(meRes.json()).toMatchObject({ username, must_change_password: true });

      const routes = everyOtherRoute();
      expect(routes.length).toBeGreaterThan(30);
      for (const [method, url] of routes) {
        const res = await call(cookie, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json(), `${method} ${url}`).toEqual({ error: { code: 'PASSWORD_CHANGE_REQUIRED', message: 'Change your password to continue' } });
      }

      const wrong = await call(cookie, 'POST', API.authPassword, { current_password: 'nope-nope-nope', new_password: 'my-own-passphrase' });
      expect(wrong.statusCode).toBe(400);
      const changed = await call(cookie, 'POST', API.authPassword, { current_password: 'first-given-password', new_password: 'my-own-passphrase' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ ended: 1 });
      expect(await me(other)).toBe(401);
      expect((await call(cookie, 'GET', API.me)).json()).toMatchObject({ must_change_password: false });
      expect((await call(cookie, 'GET', API.dashboard)).statusCode).toBe(200);
      expect((await call(cookie, 'GET', API.adminAdmins)).statusCode).toBe(200);
      expect((await call(cookie, 'GET', API.authSessions)).statusCode).toBe(200);
    });

    it('is off by default, and signing out stays possible while it is on', async () => {
      const root = await newAdmin({ superUser: true });
      const created = await call(root.cookie, 'POST', API.adminAdmins, { username: `free_${kind}`, password: 'first-given-password' });
      expect(created.statusCode).toBe(201);
      const cookie = sessionCookie(await login(t.app, `free_${kind}`, 'first-given-password'));
      expect((await call(cookie, 'GET', API.me)).json()).toMatchObject({ must_change_password: false });
      expect((await call(cookie, 'GET', API.dashboard)).statusCode).toBe(200);

      await db().updateTable('admins').set({ must_change_password: 1 }).where('id', '=', created.json().id).execute();
      expect((await call(cookie, 'GET', API.dashboard)).statusCode).toBe(403);
      const out = await call(cookie, 'POST', API.logout);
      expect(out.statusCode).toBe(200);
      expect(await me(cookie)).toBe(401);
    });

    it('is not treated as an admin on public routes either: a draft’s thumbnail stays hidden until the change', async () => {
      const now = nowIso();
      const draft = await db()
        .insertInto('resources')
        .values({ title: 'Hidden draft', description: 'd', category: 'typography', thumbnail_url: '', download_url: 'https://example.com/d.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null, status: 'draft' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const a = await newAdmin();
      const thumbnail = async () => (await call(a.cookie, 'GET', generatedThumbnailPath(draft.id))).statusCode;
      expect(await thumbnail()).toBe(200);
      await db().updateTable('admins').set({ must_change_password: 1 }).where('id', '=', a.admin.id).execute();
      expect(await thumbnail()).toBe(404);
      expect((await call(a.cookie, 'POST', API.authPassword, { current_password: a.password, new_password: 'a-brand-new-passphrase' })).statusCode).toBe(200);
      expect(await thumbnail()).toBe(200);
    });

    it('the admin CLI’s reset sets it', async () => {
      const a = await newAdmin();
      const io = { out: () => {}, err: () => {} };
      expect(await runAdminCli(['reset-password', a.admin.username, '--password', 'reset-by-the-owner'], t.database, io)).toBe(0);
      expect(await me(a.cookie)).toBe(401);
      const cookie = sessionCookie(await login(t.app, a.admin.username, 'reset-by-the-owner'));
      expect((await call(cookie, 'GET', API.me)).json()).toMatchObject({ must_change_password: true });
      expect((await call(cookie, 'GET', API.dashboard)).statusCode).toBe(403);
      const changed = await call(cookie, 'POST', API.authPassword, { current_password: 'reset-by-the-owner', new_password: 'chosen-by-the-owner' });
      expect(changed.statusCode).toBe(200);
      expect((await call(cookie, 'GET', API.dashboard)).statusCode).toBe(200);
    });
  });

  describe('a super admin ends another admin’s sessions', () => {
    it('ends them all and says how many; that admin is signed out everywhere, others are not', async () => {
      const root = await newAdmin({ superUser: true });
      const a = await newAdmin();
      const second = await signInAgain(a);
      const b = await newAdmin();
      const res = await call(root.cookie, 'DELETE', API.adminAdminSessions(a.admin.id));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ended: 2 });
      expect(await me(a.cookie)).toBe(401);
      expect(await me(second)).toBe(401);
      expect(await me(b.cookie)).toBe(200);
      expect(await me(root.cookie)).toBe(200);
      expect((await call(root.cookie, 'DELETE', API.adminAdminSessions(a.admin.id))).json()).toEqual({ ended: 0 });
      // They can sign in again: only the sessions ended, not the account.
      expect((await login(t.app, a.admin.username, a.password)).statusCode).toBe(200);
    });

    it('an unknown admin is 404, a bad id 400; a plain admin is refused (403) and ends nothing', async () => {
      const root = await newAdmin({ superUser: true });
      const plain = await newAdmin();
      const victim = await newAdmin();
      const missing = await call(root.cookie, 'DELETE', API.adminAdminSessions(99_999_999));
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Admin not found' } });
      expect((await call(root.cookie, 'DELETE', API.adminAdminSessions('abc'))).statusCode).toBe(400);
      const refused = await call(plain.cookie, 'DELETE', API.adminAdminSessions(victim.admin.id));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      expect(await me(victim.cookie)).toBe(200);
      expect((await call(undefined, 'DELETE', API.adminAdminSessions(victim.admin.id))).statusCode).toBe(401);
      expect(await me(victim.cookie)).toBe(200);
    });
  });
});
