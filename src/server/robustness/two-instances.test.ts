import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_IP_LIMIT } from '../../contract/constants';
import { buildApp } from '../app';
import type { App } from '../context';
import { createAccount } from '../modules/admins/accounts';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';

/**
 * Two app instances over one database, clients alternating: nothing may live in one instance's
 * memory (sessions, sign-in limits, download counts). The long form, two processes on PostgreSQL
 * with 10,000 downloads, is in `npm run stress`.
 */
describe.each(TEST_DATABASES)('two instances on one %s database', (kind) => {
  let t: TestApp;
  let a: App;
  let b: App;
  let resourceId: number;
  const password = 'twin-root-password';

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: 1 });
    a = t.app;
    b = await buildApp(t.config, t.database);
    await createAccount(t.database.db, { username: 'twin_root', password, isSuperUser: true });
    const login = await a.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'twin_root', password }, headers: { 'x-forwarded-for': '192.0.2.1' } });
    const cookie = `rv_session=${login.cookies.find((c) => c.name === 'rv_session')!.value}`;
    const created = await b.inject({
      method: 'POST',
      url: '/api/admin/resources',
      headers: { cookie },
      payload: { title: 'Twin', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/t.zip', tags: ['A'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    resourceId = created.json().id;
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const pick = (i: number) => (i % 2 === 0 ? a : b);

  it('counts concurrent downloads made on both exactly', async () => {
    const n = 100;
    const res = await Promise.all(Array.from({ length: n }, (_, i) => pick(i).inject({ method: 'POST', url: `/api/resources/${resourceId}/download`, headers: BROWSER })));
    expect(res.every((r) => r.statusCode === 200)).toBe(true);
    const after = await a.inject({ method: 'GET', url: `/api/resources/${resourceId}` });
    expect(after.json().download_count).toBe(n);
  });

  it('accepts a session on the other instance and ends it on both at sign-out', async () => {
    const login = await a.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'twin_root', password }, headers: { 'x-forwarded-for': '192.0.2.2' } });
    const cookie = `rv_session=${login.cookies.find((c) => c.name === 'rv_session')!.value}`;
    expect((await b.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
    expect((await b.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(200);
    expect((await a.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
    expect((await b.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
  });

  it('holds the per-address sign-in limit across both: the attempt past it is refused on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_IP_LIMIT + 2; i++) {
      const res = await pick(i).inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: `nobody${i}`, password: 'wrong-password-1' },
        headers: { 'x-forwarded-for': '192.0.2.99' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array(LOGIN_IP_LIMIT).fill(401), 429, 429]);
  });
});
