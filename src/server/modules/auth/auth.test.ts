import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '../../../contract/api-paths';
import { DEVICE_COOKIE_MAX_MS, LOGIN_IP_LIMIT, LOGIN_LIMIT, LOGIN_WINDOW_MS, SESSION_IDLE_MS } from '../../../contract/constants';
import { buildApp } from '../../app';
import { ConfigError, loadConfig } from '../../config';
import type { App } from '../../context';
import { captureLogWrites } from '../../testing/log-capture';
import { createTestApp, tampered, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { installAdminGuard } from './guard';
import { deleteExpired } from './queries';
import { SWEEP_INTERVAL_MS } from './routes';
import { DEVICE_COOKIE } from './device-cookies';
import { loginDeviceKey, loginIpKey, loginIpUserKey, loginUserKey } from './rate-limit';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import { createAndSignIn, login, nextIp, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { TEST_HASH_OPTIONS } from '../../testing/test-setup';
import { createAccount } from '../admins/accounts';
import { setHashOptionsForTests, verifyPassword } from './passwords';

const INVALID = { error: { code: 'UNAUTHORIZED', message: 'Invalid username or password' } };
const PLEASE_SIGN_IN = { error: { code: 'UNAUTHORIZED', message: 'Please sign in' } };

describe.each(TEST_DATABASES)('sign-in and sessions on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let editor: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'Root_Admin', { superUser: true });
    editor = await createAndSignIn(t.app, t.database, 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const me = (cookie?: string) => t.app.inject({ url: API.me, headers: cookie ? { cookie } : {} });
  const sessionRows = () => db().selectFrom('sessions').selectAll().execute();
  const rateRow = (key: string) => db().selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();

  it('signs in: public profile, httpOnly SameSite=Strict cookie, hashed session id in the database', async () => {
    const res = await login(t.app, 'editor', editor.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: editor.admin.id, username: 'editor', is_super_user: false, created_at: editor.admin.created_at });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: SESSION_IDLE_MS / 1000 });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['cache-control']).toBe('no-store');

    const rows = await sessionRows();
    expect(rows.some((r) => r.id === cookie.value)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
    const mine = rows.filter((r) => r.admin_id === editor.admin.id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    for (const r of mine) {
      expect(r.id).toMatch(/^[0-9a-f]{64}$/);
      expect(Date.parse(r.expires_at) - Date.parse(r.last_seen_at)).toBe(SESSION_IDLE_MS);
    }
  });

  it('accepts the username in any letter case and surrounding spaces', async () => {
    const res = await login(t.app, '  root_admin ', root.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('Root_Admin');
  });

  it('refuses a wrong password and an unknown user with the same 401 and no cookie', async () => {
    const wrong = await login(t.app, 'editor', 'not-the-password');
    const unknown = await login(t.app, 'nobody_here', 'not-the-password');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
  });

  it('stores only an argon2id PHC hash, with the production parameters, and never returns it or the password', async () => {
    const PHC = (params: string) => new RegExp(`^\\$argon2id\\$v=19\\$${params}\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}$`);
    const row = await db().selectFrom('admins').selectAll().where('id', '=', editor.admin.id).executeTakeFirstOrThrow();
    // The tests hash at a cheaper cost (testing/test-setup.ts); the product's own parameters:
    expect(row.password_hash).toMatch(PHC('m=\\d+,t=\\d+,p=1'));
    expect(row.password_hash).not.toContain(editor.password);
    setHashOptionsForTests(undefined);
    try {
      const { admin } = await createAccount(db(), { username: 'production_cost', password: 'production-cost-password-1', isSuperUser: false });
      const stored = await db().selectFrom('admins').select('password_hash').where('id', '=', admin.id).executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(PHC('m=19456,t=2,p=1'));
      expect(await verifyPassword(stored.password_hash, 'production-cost-password-1')).toBe(true);
    } finally {
      setHashOptionsForTests(TEST_HASH_OPTIONS);
    }
    const bodies = [
      (await login(t.app, 'editor', editor.password)).body,
      (await me(editor.cookie)).body,
      (await t.app.inject({ url: API.adminAdmins, headers: { cookie: root.cookie } })).body,
      (
        await t.app.inject({
          method: 'POST',
          url: API.adminAdmins,
          headers: { cookie: root.cookie },
          payload: { username: 'fresh_one', password: 'fresh-password-1' },
        })
      ).body,
    ];
    for (const raw of bodies) {
      // /me's flag names the password without holding any of it.
      const body = raw.replace('"must_change_password":false', '');
      expect(body).not.toMatch(/argon2|password/i);
      expect(body).not.toContain(editor.password);
      expect(body).not.toContain('fresh-password-1');
    }
  });

  it('GET /me answers the profile for a session and 401 without one', async () => {
    expect((await me(root.cookie)).json()).toEqual({ ...root.admin, must_change_password: false });
    const anon = await me();
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual(PLEASE_SIGN_IN);
    const garbage = await me(`${SESSION_COOKIE}=not-a-token`);
    expect(garbage.statusCode).toBe(401);
    expect(garbage.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
  });

  it('logs out: deletes the session row, clears the cookie, the old cookie stops working', async () => {
    const s = sessionCookie(await login(t.app, 'editor', editor.password));
    const before = (await sessionRows()).length;
    expect((await me(s)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: API.logout, headers: { cookie: s } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    const cleared = out.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    expect((await sessionRows()).length).toBe(before - 1);
    expect((await me(s)).statusCode).toBe(401);
    expect((await t.app.inject({ url: API.adminResources, headers: { cookie: s } })).statusCode).toBe(401);
    // Other sessions of the same admin live on.
    expect((await me(editor.cookie)).statusCode).toBe(200);
    // Logging out twice, or without a session, is harmless.
    expect((await t.app.inject({ method: 'POST', url: API.logout, headers: { cookie: s } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: API.logout })).statusCode).toBe(200);
  });

  it('expires a session after the idle time and removes its row', async () => {
    const before = new Set((await sessionRows()).map((r) => r.id));
    const s = sessionCookie(await login(t.app, 'editor', editor.password));
    const added = (await sessionRows()).filter((r) => !before.has(r.id));
    expect(added).toHaveLength(1);
    expect((await me(s)).statusCode).toBe(200);

    await db()
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - SESSION_IDLE_MS - 1000).toISOString(), expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', added[0].id)
      .execute();
    const res = await me(s);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(PLEASE_SIGN_IN);
    expect((await t.app.inject({ url: API.dashboard, headers: { cookie: s } })).statusCode).toBe(401);
    expect((await sessionRows()).some((r) => r.id === added[0].id)).toBe(false);
    // The same admin's other sessions are untouched.
    expect((await me(editor.cookie)).statusCode).toBe(200);
  });

  it('slides the expiry at most once per interval, and renews the cookie when it does', async () => {
    const s = sessionCookie(await login(t.app, 'editor', editor.password));
    const mine = async () => (await sessionRows()).filter((r) => r.admin_id === editor.admin.id);
    // Right after sign-in: no write, no new cookie.
    const before = await mine();
    const quiet = await me(s);
    expect(quiet.statusCode).toBe(200);
    expect(quiet.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await mine()).toEqual(before);

    // Seen two minutes ago and due to expire in an hour: this request moves it a full idle period ahead.
    const twoMinAgo = new Date(Date.now() - 2 * 60_000).toISOString();
    const inAnHour = new Date(Date.now() + 60 * 60_000).toISOString();
    await db().updateTable('sessions').set({ last_seen_at: twoMinAgo, expires_at: inAnHour }).where('admin_id', '=', editor.admin.id).execute();
    const start = Date.now();
    const slid = await me(s);
    expect(slid.statusCode).toBe(200);
    expect(slid.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ maxAge: SESSION_IDLE_MS / 1000, httpOnly: true });
    const touched = (await mine()).filter((r) => r.last_seen_at !== twoMinAgo);
    expect(touched).toHaveLength(1);
    expect(Date.parse(touched[0].expires_at)).toBeGreaterThanOrEqual(start + SESSION_IDLE_MS);
    editor = { ...editor, cookie: s };
  });

  it('ends a session at its absolute lifetime (SESSION_MAX_DAYS), however active, and removes its row', async () => {
    const before = new Set((await sessionRows()).map((r) => r.id));
    const s = sessionCookie(await login(t.app, 'editor', editor.password));
    const [row] = (await sessionRows()).filter((r) => !before.has(r.id));
    const maxMs = t.config.sessionMaxMs;
    expect(maxMs).toBe(30 * 24 * 60 * 60 * 1000);

    // Busy all along: seen two minutes ago (a slide is due) and an idle period left, but signed in an
    // hour short of the lifetime. It stays signed in; the slide stops at the absolute end.
    const set = (createdMs: number) =>
      db()
        .updateTable('sessions')
        .set({
          created_at: new Date(createdMs).toISOString(),
          last_seen_at: new Date(Date.now() - 2 * 60_000).toISOString(),
          expires_at: new Date(Date.now() + SESSION_IDLE_MS).toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
    const createdMs = Date.now() - maxMs + 60 * 60_000;
    await set(createdMs);
    const nearEnd = await me(s);
    expect(nearEnd.statusCode).toBe(200);
    const renewed = nearEnd.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(renewed.maxAge).toBeLessThanOrEqual(60 * 60);
    expect(renewed.maxAge).toBeGreaterThan(0);
    const capped = (await sessionRows()).find((r) => r.id === row.id)!;
    expect(Date.parse(capped.expires_at)).toBe(createdMs + maxMs);

    // Past the lifetime by a second, with expires_at still a week ahead: signed out.
    await set(Date.now() - maxMs - 1000);
    const res = await me(s);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(PLEASE_SIGN_IN);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    expect((await t.app.inject({ url: API.adminResources, headers: { cookie: s } })).statusCode).toBe(401);
    expect((await sessionRows()).some((r) => r.id === row.id)).toBe(false);
    expect((await me(editor.cookie)).statusCode).toBe(200);
  });

  it('ends the sessions of a deleted admin', async () => {
    const victim = await createAndSignIn(t.app, t.database, 'short_lived');
    expect((await me(victim.cookie)).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: API.adminAdmin(victim.admin.id), headers: { cookie: root.cookie } });
    expect(del.statusCode).toBe(200);
    expect((await me(victim.cookie)).statusCode).toBe(401);
    expect((await sessionRows()).filter((r) => r.admin_id === victim.admin.id)).toHaveLength(0);

    // Deleted straight in the database too (the foreign-key cascade, and the join in the lookup).
    const other = await createAndSignIn(t.app, t.database, 'also_short');
    await db().deleteFrom('admins').where('id', '=', other.admin.id).execute();
    expect((await me(other.cookie)).statusCode).toBe(401);
    expect((await t.app.inject({ url: API.adminAnnouncements, headers: { cookie: other.cookie } })).statusCode).toBe(401);
  });

  it('refuses mutating requests from a foreign Origin before anything happens', async () => {
    const sessionsBefore = (await sessionRows()).length;
    const foreign = await t.app.inject({
      method: 'POST',
      url: API.login,
      headers: { origin: 'https://evil.example' },
      payload: { username: 'editor', password: editor.password },
      remoteAddress: '203.0.113.77',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { code: 'BAD_ORIGIN' } });
    expect((await sessionRows()).length).toBe(sessionsBefore);
    expect(await rateRow(loginIpKey('203.0.113.77'))).toBeUndefined();

    const count = async () => (await db().selectFrom('announcements').select('id').execute()).length;
    const n = await count();
    const write = await t.app.inject({
      method: 'POST',
      url: API.adminAnnouncements,
      headers: { origin: 'http://localhost.evil.example', cookie: root.cookie },
      payload: { message: 'cross-site' },
    });
    expect(write.statusCode).toBe(403);
    const del = await t.app.inject({
      method: 'POST',
      url: API.logout,
      headers: { origin: 'null', cookie: root.cookie },
    });
    expect(del.statusCode).toBe(403);
    expect((await me(root.cookie)).statusCode).toBe(200);
    expect(await count()).toBe(n);

    const same = await t.app.inject({
      method: 'POST',
      url: API.adminAnnouncements,
      headers: { origin: 'http://localhost:80', cookie: root.cookie },
      payload: { message: 'same-site' },
    });
    expect(same.statusCode).toBe(201);
  });

  it('sweeps expired sessions and finished rate-limit windows, keeping live ones', async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 1000).toISOString();
    const future = new Date(now.getTime() + 60_000).toISOString();
    await db()
      .insertInto('sessions')
      .values([
        { id: 'sweep-old', public_id: 'a'.repeat(32), admin_id: editor.admin.id, created_at: past, last_seen_at: past, expires_at: past },
        { id: 'sweep-live', public_id: 'b'.repeat(32), admin_id: editor.admin.id, created_at: past, last_seen_at: past, expires_at: future },
      ])
      .execute();
    await db()
      .insertInto('rate_limits')
      .values([
        { key: 'sweep:old', count: 3, reset_at: past },
        { key: 'sweep:live', count: 3, reset_at: future },
      ])
      .execute();
    await deleteExpired(db(), now.toISOString());
    const sessionIds = (await sessionRows()).map((r) => r.id);
    expect(sessionIds).not.toContain('sweep-old');
    expect(sessionIds).toContain('sweep-live');
    expect(await rateRow('sweep:old')).toBeUndefined();
    expect(await rateRow('sweep:live')).toBeDefined();
    expect((await me(editor.cookie)).statusCode).toBe(200);
    await db().deleteFrom('sessions').where('id', '=', 'sweep-live').execute();
  });

  describe('login rate limit', () => {
    it('limits one IP across usernames: 429 with Retry-After, even for the right password', async () => {
      const ip = '198.51.100.1';
      for (let i = 0; i < LOGIN_IP_LIMIT; i++) {
        expect((await login(t.app, `guess_${i}`, 'wrong-password', ip)).statusCode).toBe(401);
      }
      const blocked = await login(t.app, 'editor', editor.password, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Try again in 15 minutes.' },
      });
      const retry = Number(blocked.headers['retry-after']);
      expect(retry).toBeGreaterThan(LOGIN_WINDOW_MS / 1000 - 60);
      expect(retry).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
      expect(blocked.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      // Another address is not affected.
      expect((await login(t.app, 'editor', editor.password, '198.51.100.2')).statusCode).toBe(200);
    });

    it('limits one username across IPs, and a new window starts over', async () => {
      for (let i = 0; i < LOGIN_LIMIT; i++) {
        expect((await login(t.app, 'Root_Admin', `wrong-${i}`, nextIp())).statusCode).toBe(401);
      }
      const blocked = await login(t.app, 'root_admin', root.password, nextIp());
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await rateRow(loginUserKey('ROOT_ADMIN')))?.count).toBe(LOGIN_LIMIT + 1);

      // The window has passed: the counter restarts at 1 in the same atomic statement.
      await db().updateTable('rate_limits').set({ reset_at: new Date(Date.now() - 1).toISOString() }).where('key', '=', loginUserKey('root_admin')).execute();
      expect((await login(t.app, 'root_admin', root.password, nextIp())).statusCode).toBe(200);
    });

    it('counts a successful sign-in and then clears that username counter (not the IP one)', async () => {
      const ip = '198.51.100.9';
      await login(t.app, 'editor', 'wrong-1', ip);
      await login(t.app, 'editor', 'wrong-2', ip);
      expect((await rateRow(loginUserKey('editor')))?.count).toBeGreaterThanOrEqual(2);
      expect((await login(t.app, 'editor', editor.password, ip)).statusCode).toBe(200);
      expect(await rateRow(loginUserKey('editor'))).toBeUndefined();
      expect(await rateRow(loginIpUserKey(ip, 'editor'))).toBeUndefined();
      expect((await rateRow(loginIpKey(ip)))?.count).toBe(3);
    });

    it('holds across server instances sharing one database', async () => {
      const second: App = await buildApp(t.config, t.database);
      try {
        const ip = '198.51.100.20';
        for (let i = 0; i < LOGIN_IP_LIMIT; i++) {
          const app = i % 2 === 0 ? t.app : second;
          expect((await login(app, `spray_${i}`, 'wrong-password', ip)).statusCode).toBe(401);
        }
        expect((await login(second, 'editor', editor.password, ip)).statusCode).toBe(429);
        expect((await login(t.app, 'editor', editor.password, ip)).statusCode).toBe(429);
        // A session made by one instance is honoured by the other.
        expect((await second.inject({ url: API.me, headers: { cookie: root.cookie } })).statusCode).toBe(200);
        // So are the username limit and a device cookie: guesses through both lock the username for
        // browsers without its cookie, and a cookie set by one instance lets its browser in through the other.
        const twin = await createAndSignIn(t.app, t.database, 'twin_owner');
        const fromSecond = (await login(second, 'twin_owner', twin.password)).cookies.find((c) => c.name === DEVICE_COOKIE)!;
        for (let i = 0; i < LOGIN_LIMIT; i++) await login(i % 2 === 0 ? t.app : second, 'twin_owner', `guess-${i}`, nextIp());
        expect((await login(second, 'twin_owner', twin.password, nextIp())).statusCode).toBe(429);
        const viaFirst = await t.app.inject({
          method: 'POST',
          url: API.login,
          payload: { username: 'twin_owner', password: twin.password },
          remoteAddress: nextIp(),
          headers: { cookie: `${DEVICE_COOKIE}=${fromSecond.value}` },
        });
        expect(viaFirst.statusCode).toBe(200);
      } finally {
        await second.close();
      }
    });

    it('refuses a spray of usernames from one IP without a row per username', async () => {
      const ip = '198.51.100.40';
      const rows = async () => (await db().selectFrom('rate_limits').select('key').execute()).length;
      const before = await rows();
      const statuses: number[] = [];
      for (let i = 0; i < 300; i++) statuses.push((await login(t.app, `spray3_${i}`, 'wrong-password', ip)).statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_IP_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(300 - LOGIN_IP_LIMIT);
      // One row for the IP and two per username tried (address and username, username) before the IP limit refused the rest.
      expect((await rows()) - before).toBe(2 * LOGIN_IP_LIMIT + 1);
      expect(await rateRow(loginUserKey(`spray3_${LOGIN_IP_LIMIT}`))).toBeUndefined();
      expect((await rateRow(loginIpKey(ip)))?.count).toBe(300);
    });

    const loginFrom = (username: string, password: string, ip: string, cookie?: string) =>
      t.app.inject({ method: 'POST', url: API.login, payload: { username, password }, remoteAddress: ip, headers: cookie ? { cookie } : {} });
    const deviceCookieOf = (res: { cookies: { name: string; value: string; path?: string }[] }) => {
      const c = res.cookies.find((x) => x.name === DEVICE_COOKIE);
      if (!c) throw new Error('no device cookie in the response');
      return `${DEVICE_COOKIE}=${c.value}`;
    };

    it('limits one username from one address without locking other admins out of that address', async () => {
      const ip = '198.51.100.50';
      const typist = await createAndSignIn(t.app, t.database, 'typist');
      const typistsBrowser = deviceCookieOf(await login(t.app, 'typist', typist.password));
      for (let i = 0; i < LOGIN_LIMIT; i++) expect((await loginFrom('typist', `wrong-${i}`, ip, typistsBrowser)).statusCode).toBe(401);
      const blocked = await loginFrom('typist', typist.password, ip, typistsBrowser);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await rateRow(loginIpUserKey(ip, 'typist')))?.count).toBe(LOGIN_LIMIT + 1);
      // The same address signs another admin in.
      expect((await login(t.app, 'editor', editor.password, ip)).statusCode).toBe(200);
    });

    it('sets a device cookie on sign-in: httpOnly, SameSite=Strict, sent to the sign-in route only', async () => {
      const res = await login(t.app, 'editor', editor.password);
      expect(res.statusCode).toBe(200);
      const c = res.cookies.find((x) => x.name === DEVICE_COOKIE)!;
      expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: API.login, maxAge: DEVICE_COOKIE_MAX_MS / 1000 });
      expect(c.secure).toBeFalsy();
      // Nothing for a failed attempt.
      expect((await login(t.app, 'editor', 'wrong-password')).cookies.find((x) => x.name === DEVICE_COOKIE)).toBeUndefined();
    });

    it('cannot be used to lock an admin out: guesses from anywhere do not refuse the right password from a browser that signed in before', async () => {
      const owner = await createAndSignIn(t.app, t.database, 'owner', { superUser: true });
      const other = await createAndSignIn(t.app, t.database, 'bystander_admin');
      const ownersBrowser = deviceCookieOf(await login(t.app, 'owner', owner.password));
      const othersBrowser = deviceCookieOf(await login(t.app, 'bystander_admin', other.password));

      // The attack: 11 wrong passwords for `owner` from two addresses.
      for (let i = 0; i < LOGIN_LIMIT + 1; i++) await login(t.app, 'owner', `guess-${i}`, i % 2 ? '203.0.113.1' : '203.0.113.2');
      // A browser that never signed in as owner is held by the username limit (the password is not even checked).
      expect((await login(t.app, 'owner', owner.password, nextIp())).statusCode).toBe(429);
      expect((await loginFrom('owner', owner.password, nextIp(), othersBrowser)).statusCode).toBe(429);

      // The owner's browser signs in, from a new address too, and gets a fresh device cookie.
      const ok = await loginFrom('OWNER', owner.password, nextIp(), ownersBrowser);
      expect(ok.statusCode).toBe(200);
      const renewed = deviceCookieOf(ok);
      expect(renewed).not.toBe(ownersBrowser);
      expect((await me(sessionCookie(ok))).json().username).toBe('owner');
      // The attack goes on; the old and the new cookie both still get the owner in.
      for (let i = 0; i < 5; i++) expect((await login(t.app, 'owner', `more-${i}`, nextIp())).statusCode).toBe(429);
      expect((await loginFrom('owner', owner.password, nextIp(), renewed)).statusCode).toBe(200);
      expect((await loginFrom('owner', owner.password, nextIp(), ownersBrowser)).statusCode).toBe(200);
      // The owner signing in does not hand the guessers a fresh allowance.
      expect((await rateRow(loginUserKey('owner')))!.count).toBeGreaterThan(LOGIN_LIMIT);

      // A forged or altered cookie is a browser without one.
      const [name, value] = ownersBrowser.split('=');
      const flipped = `${name}=${tampered(value)}`;
      expect((await loginFrom('owner', owner.password, nextIp(), flipped)).statusCode).toBe(429);
      const parts = value.split('.');
      const renamed = `${name}=${[parts[0], parts[1], Buffer.from('bystander_admin').toString('base64url'), parts[3]].join('.')}`;
      expect((await loginFrom('bystander_admin', other.password, nextIp(), renamed)).statusCode).toBe(200);
      expect(await rateRow(loginDeviceKey(parts[0]))).toBeUndefined();
    });

    it('limits a device cookie on its own, and no one without it can use up its allowance', async () => {
      const holder = await createAndSignIn(t.app, t.database, 'device_holder');
      const laptop = deviceCookieOf(await login(t.app, 'device_holder', holder.password));
      const phone = deviceCookieOf(await login(t.app, 'device_holder', holder.password));
      const laptopId = laptop.split('=')[1].split('.')[0];

      // Guesses without the cookie lock the username for other browsers, never the laptop.
      for (let i = 0; i < LOGIN_LIMIT + 1; i++) await login(t.app, 'device_holder', `guess-${i}`, nextIp());
      expect(await rateRow(loginDeviceKey(laptopId))).toBeUndefined();

      // Whoever holds the laptop's cookie gets LOGIN_LIMIT tries on it, then 429 with Retry-After.
      for (let i = 0; i < LOGIN_LIMIT; i++) expect((await loginFrom('device_holder', `wrong-${i}`, nextIp(), laptop)).statusCode).toBe(401);
      const blocked = await loginFrom('device_holder', holder.password, nextIp(), laptop);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      // The phone is another device.
      expect((await loginFrom('device_holder', holder.password, nextIp(), phone)).statusCode).toBe(200);
    });

    it('ignores an expired device cookie', async () => {
      const holder = await createAndSignIn(t.app, t.database, 'old_device');
      const fresh = deviceCookieOf(await login(t.app, 'old_device', holder.password));
      for (let i = 0; i < LOGIN_LIMIT + 1; i++) await login(t.app, 'old_device', `guess-${i}`, nextIp());
      expect((await loginFrom('old_device', holder.password, nextIp(), fresh)).statusCode).toBe(200);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + DEVICE_COOKIE_MAX_MS + 60_000 });
      try {
        // A year on, the username is under attack again; the cookie no longer exempts its browser.
        for (let i = 0; i < LOGIN_LIMIT + 1; i++) await login(t.app, 'old_device', `later-${i}`, nextIp());
        expect((await loginFrom('old_device', holder.password, nextIp(), fresh)).statusCode).toBe(429);
      } finally {
        vi.useRealTimers();
      }
    });

    it('sweeps expired rows on a timer (unref\'d), not only on sign-in, and stops it when the app closes', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      // The intervals started, seen through a wrapper put back by hand: a vi.spyOn here would be
      // restored again by Vitest after the file (vi.restoreAllMocks), putting back the fake
      // setInterval it wrapped, and no interval of a later file in this worker would ever fire.
      const fakeSetInterval = globalThis.setInterval;
      const started: { ms: number | undefined; timer: NodeJS.Timeout }[] = [];
      globalThis.setInterval = ((handler: () => void, ms?: number) => {
        const timer = fakeSetInterval(handler, ms);
        started.push({ ms, timer });
        return timer;
      }) as typeof setInterval;
      let second: App | undefined;
      try {
        const timersBefore = vi.getTimerCount();
        second = await buildApp(t.config, t.database);
        expect(vi.getTimerCount()).toBeGreaterThan(timersBefore);
        const sweeper = started.find(({ ms }) => ms === SWEEP_INTERVAL_MS);
        expect(sweeper).toBeDefined();
        expect(sweeper!.timer.hasRef()).toBe(false);

        const past = new Date(Date.now() - 1000).toISOString();
        const future = new Date(Date.now() + 60_000).toISOString();
        await db().insertInto('rate_limits').values([
          { key: 'timer:old', count: 1, reset_at: past },
          { key: 'timer:live', count: 1, reset_at: future },
        ]).execute();
        await vi.advanceTimersByTimeAsync(SWEEP_INTERVAL_MS);
        await vi.waitFor(async () => expect(await rateRow('timer:old')).toBeUndefined());
        expect(await rateRow('timer:live')).toBeDefined();

        await second.close();
        second = undefined;
        expect(vi.getTimerCount()).toBe(timersBefore);
      } finally {
        await second?.close();
        globalThis.setInterval = fakeSetInterval;
        vi.useRealTimers();
        await db().deleteFrom('rate_limits').where('key', 'like', 'timer:%').execute();
      }
    });

    it('counts every one of many parallel attempts (atomic upsert)', async () => {
      const ip = '198.51.100.30';
      const results = await Promise.all(
        Array.from({ length: LOGIN_IP_LIMIT + 5 }, (_, i) => login(t.app, `parallel_${i}`, 'wrong-password', ip)),
      );
      expect(results.filter((r) => r.statusCode === 401)).toHaveLength(LOGIN_IP_LIMIT);
      expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5);
      expect((await rateRow(loginIpKey(ip)))?.count).toBe(LOGIN_IP_LIMIT + 5);
      // The same for one username from one address: the (address, username) counter.
      const ip2 = '198.51.100.31';
      const guesses = await Promise.all(Array.from({ length: LOGIN_LIMIT + 5 }, (_, i) => login(t.app, 'parallel_one', `wrong-${i}`, ip2)));
      expect(guesses.filter((r) => r.statusCode === 401)).toHaveLength(LOGIN_LIMIT);
      expect(guesses.filter((r) => r.statusCode === 429)).toHaveLength(5);
    });
  });

  describe('login bodies', () => {
    const cases: [string, unknown][] = [
      ['missing password', { username: 'editor' }],
      ['missing username', { password: 'whatever-123' }],
      ['empty object', {}],
      ['wrong types', { username: 12, password: true }],
      ['oversized password', { username: 'editor', password: 'x'.repeat(300) }],
      ['oversized username', { username: 'u'.repeat(500), password: 'whatever-123' }],
      ['unknown field', { username: 'editor', password: 'whatever-123', is_super_user: true }],
      ['array', [{ username: 'editor', password: 'whatever-123' }]],
    ];
    it.each(cases)('%s → 400 in the error shape, no session', async (_name, payload) => {
      const before = (await sessionRows()).length;
      const res = await t.app.inject({ method: 'POST', url: API.login, payload: payload as object, remoteAddress: nextIp() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
      expect((await sessionRows()).length).toBe(before);
    });

    it('malformed JSON and a non-JSON body → 4xx in the error shape', async () => {
      const bad = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: { 'content-type': 'application/json' },
        payload: '{"username":"editor","password":',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'BAD_JSON' } });
      const form = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=editor&password=x',
      });
      expect(form.statusCode).toBe(415);
      expect(form.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    });
  });
});

describe.each(TEST_DATABASES)('behind a TLS-terminating proxy (TRUST_PROXY) on %s', (kind) => {
  let t: TestApp;
  let password: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true });
    password = (await createAndSignIn(t.app, t.database, 'proxied')).password;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks the cookie Secure for https and keys the IP limit on X-Forwarded-For', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.login,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.10' },
      payload: { username: 'proxied', password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    const ipRow = await t.database.db.selectFrom('rate_limits').selectAll().where('key', '=', loginIpKey('192.0.2.10')).executeTakeFirst();
    expect(ipRow?.count).toBe(1);

    // Many client addresses behind the one proxy still share a username limit.
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: { 'x-forwarded-for': `192.0.2.${100 + i}` },
        payload: { username: 'proxied', password: 'wrong-password' },
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: API.login,
      headers: { 'x-forwarded-for': '192.0.2.250' },
      payload: { username: 'proxied', password },
    });
    expect(blocked.statusCode).toBe(429);
  });
});

describe('without TRUST_PROXY', () => {
  it('ignores X-Forwarded-Proto for the Secure flag', async () => {
    const t = await createTestApp('sqlite');
    try {
      const { password } = await createAndSignIn(t.app, t.database, 'direct');
      const res = await t.app.inject({
        method: 'POST',
        url: API.login,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.10' },
        payload: { username: 'direct', password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.secure).toBeFalsy();
      const spoofed = await t.database.db.selectFrom('rate_limits').selectAll().where('key', '=', loginIpKey('192.0.2.10')).executeTakeFirst();
      expect(spoofed).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('logging', () => {
  it('never writes a request body, password or session token to the log', async () => {
    const logs = captureLogWrites();
    const t = await createTestApp('sqlite', { logLevel: 'trace' });
    try {
      const s = await createAndSignIn(t.app, t.database, 'logged', { password: 'Sup3r-Secret-Passw0rd' });
      await login(t.app, 'logged', 'Wr0ng-Secret-Passw0rd');
      await t.app.inject({ method: 'POST', url: API.login, headers: { 'content-type': 'application/json' }, payload: '{"password":"Br0ken-Secret' });
      await t.app.inject({ method: 'POST', url: API.adminAnnouncements, headers: { cookie: s.cookie }, payload: { message: 'Body-Marker-123' } });
      await t.app.inject({ url: API.me, headers: { cookie: s.cookie } });
      const log = logs.text();
      expect(log).toContain('incoming request');
      for (const secret of ['Sup3r-Secret', 'Wr0ng-Secret', 'Br0ken-Secret', 'Body-Marker-123', s.cookie.split('=')[1]]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await t.close();
      logs.restore();
    }
  });
});

describe('admin route guard', () => {
  it('stops the app when an /api/admin route declares no access level', async () => {
    const app = Fastify() as unknown as App;
    installAdminGuard(app, { load: async () => null } as unknown as SessionStore);
    app.get('/api/public-thing', async () => ({ ok: true }));
    expect(() => app.get('/api/admin/forgotten', async () => ({ ok: true }))).toThrow(/without config\.access/);
    await app.close();
  });
});

describe('SESSION_MAX_DAYS', () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const load = (value?: string) =>
    loadConfig({ SESSION_SECRET: 'config-test-session-secret-0123456789', ...(value === undefined ? {} : { SESSION_MAX_DAYS: value }) });

  it('defaults to 30 days and reads whole days', () => {
    expect(load().sessionMaxMs).toBe(30 * DAY_MS);
    expect(load('1').sessionMaxMs).toBe(DAY_MS);
    expect(load('90').sessionMaxMs).toBe(90 * DAY_MS);
  });

  it.each(['0', '-1', '1.5', 'abc', '', '3651', '99999'])('refuses %j with one line naming it', (value) => {
    expect(() => load(value)).toThrow(ConfigError);
    expect(() => load(value)).toThrow(/^Invalid configuration: SESSION_MAX_DAYS must be a whole number of days from 1 to 3650$/);
  });

  it('caps a new session (and its cookie) at the lifetime when it is shorter than the idle period', async () => {
    const t = await createTestApp('sqlite', { sessionMaxMs: DAY_MS });
    try {
      const { password } = await createAndSignIn(t.app, t.database, 'brief');
      const res = await login(t.app, 'brief', password);
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.maxAge).toBe(DAY_MS / 1000);
      for (const r of await t.database.db.selectFrom('sessions').selectAll().execute()) {
        expect(Date.parse(r.expires_at) - Date.parse(r.created_at)).toBe(DAY_MS);
      }
    } finally {
      await t.close();
    }
  });
});
