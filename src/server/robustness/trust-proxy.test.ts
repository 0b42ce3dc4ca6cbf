import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_IP_LIMIT } from '../../contract/constants';
import { ConfigError, type Config, loadConfig } from '../config';
import { createAccount } from '../modules/admins/accounts';
import { createTestApp, type TestApp } from '../testing/test-utils';

/**
 * TRUST_PROXY decides whose word request.ip is, and the per-IP sign-in limit keys on it.
 * Trusting every hop lets a client forge X-Forwarded-For and get a fresh "IP" per guess;
 * a hop count or a proxy list takes the address the proxy itself appended.
 */
describe('TRUST_PROXY parsing', () => {
  const parse = (v: string) => loadConfig({ TRUST_PROXY: v, SESSION_SECRET: 'config-test-session-secret-0123456789' }).trustProxy;

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['yes', true],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 172.16.0.0/12', ['10.0.0.0/8', '172.16.0.0/12']],
    ['loopback,::1,fd00::/8', ['loopback', '::1', 'fd00::/8']],
  ] as [string, Config['trustProxy']][])('%s', (raw, want) => {
    expect(parse(raw)).toEqual(want);
  });

  it('defaults to false', () => {
    expect(loadConfig({ SESSION_SECRET: 'config-test-session-secret-0123456789' }).trustProxy).toBe(false);
  });

  it.each(['maybe', '10.0.0.0/33', '10.0.0', '1.2.3.4/8/9', '-1', '10.0.0.1,,evil', '999999'])('refuses %s with one clear line', (raw) => {
    expect(() => parse(raw)).toThrow(ConfigError);
    try {
      parse(raw);
    } catch (err) {
      expect((err as Error).message).toMatch(/^Invalid configuration: TRUST_PROXY must be true, false, a hop count or a list/);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});

describe('sign-in limit behind a proxy', () => {
  const PROXY = '10.0.0.5';
  const CLIENT = '198.51.100.7';
  let attempt = 0;

  async function attempts(t: TestApp, n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      // The client forges a new leftmost address each time; the proxy appends the real one.
      const xff = `203.0.113.${attempt++ % 250}, ${CLIENT}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: `guess${attempt}`, password: 'wrong-password-1' },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': xff },
      });
      out.push(res.statusCode);
    }
    return out;
  }

  describe.each([
    ['a hop count', 1],
    ['a proxy CIDR list', ['10.0.0.0/8']],
  ] as [string, Config['trustProxy']][])('with %s', (_name, trustProxy) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite', { trustProxy });
      await createAccount(t.database.db, { username: 'proxy_root', password: 'proxy-root-password', isSuperUser: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('keys the limit on the address the proxy saw, so forged X-Forwarded-For entries do not help', async () => {
      const got = await attempts(t, LOGIN_IP_LIMIT + 1);
      expect(got.slice(0, LOGIN_IP_LIMIT)).toEqual(Array(LOGIN_IP_LIMIT).fill(401));
      expect(got[LOGIN_IP_LIMIT]).toBe(429);
    });
  });

  describe('with TRUST_PROXY=true (every hop trusted)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite', { trustProxy: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('takes the forged leftmost address: the reason to prefer a hop count or a proxy list', async () => {
      const got = await attempts(t, LOGIN_IP_LIMIT + 1);
      expect(got[LOGIN_IP_LIMIT]).toBe(401);
    });
  });
});
