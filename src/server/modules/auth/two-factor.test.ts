import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { CHALLENGE_MAX_FAILURES } from '../../../contract/two-factor';
import { captureLogWrites } from '../../testing/log-capture';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, login, nextIp, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { runAdminCli } from '../admins/admin-cli';
import { loginIpUserKey } from './rate-limit';
import { SESSION_COOKIE } from './sessions';
import { totpKeyCipher } from './totp';

/**
 * The code an authenticator app shows `steps` time steps from now. The server takes one step either
 * side of its own now, which may already be the next step: a test uses 0 or +1, never -1.
 */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

let n = 0;
const fresh = (prefix: string) => `${prefix}_${n++}`;

describe.each(TEST_DATABASES)('two-step sign-in with TOTP on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'tf_root', { superUser: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, cookie?: string, payload?: object, remoteAddress = '10.9.9.9') =>
    t.app.inject({ method, url, payload, remoteAddress, headers: cookie ? { cookie } : {} });
  const me = (cookie: string) => call('GET', API.me, cookie);
  const hasSessionCookie = (res: { cookies: { name: string }[] }) => res.cookies.some((c) => c.name === SESSION_COOKIE);
  /** As if the next time step had come: lets a test use another code without waiting 30 s. */
  const forgetLastStep = (adminId: number) => db().updateTable('admin_totp').set({ last_step: null }).where('admin_id', '=', adminId).execute();
  const setPolicy = async (policy: string) => expect((await call('PATCH', API.adminTwoFactorPolicy, root.cookie, { policy })).statusCode).toBe(200);

  /** An admin with TOTP on: their key and recovery codes. */
  async function enrolled(prefix = 'tf') {
    const a = await createAndSignIn(t.app, t.database, fresh(prefix));
    const start = await call('POST', API.totp, a.cookie);
    expect(start.statusCode, start.body).toBe(200);
    const { secret } = start.json();
    const confirm = await call('POST', API.totpConfirm, a.cookie, { code: codeAt(secret) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return { ...a, secret, recoveryCodes: confirm.json().recovery_codes as string[] };
  }
  const challengeFor = async (a: SignedIn, ip = nextIp()) => {
    const res = await login(t.app, a.admin.username, a.password, ip);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ two_factor_required: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(hasSessionCookie(res)).toBe(false);
    return res.json().challenge as string;
  };

  it('enrols: a base32 SHA-1 6-digit 30 s key with its otpauth URL and QR code, stored encrypted, never returned again', async () => {
    const a = await createAndSignIn(t.app, t.database, fresh('enrol'));
    const res = await call('POST', API.totp, a.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(body.secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(body.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const row = await db().selectFrom('admin_totp').selectAll().where('admin_id', '=', a.admin.id).executeTakeFirstOrThrow();
    expect(row.confirmed_at).toBeNull();
    expect(row.secret_enc).not.toContain(body.secret);
    expect(totpKeyCipher(t.config.sessionSecret ?? 'x').decrypt(row.secret_enc, a.admin.id + 1)).toBeUndefined();

    // Starting again replaces the unconfirmed key: the first key's code no longer confirms.
    const again = (await call('POST', API.totp, a.cookie)).json();
    expect(again.secret).not.toBe(body.secret);
    const stale = await call('POST', API.totpConfirm, a.cookie, { code: codeAt(body.secret) });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.fields).toEqual({ code: 'That code is wrong or was already used' });

    const confirm = await call('POST', API.totpConfirm, a.cookie, { code: codeAt(again.secret) });
    expect(confirm.statusCode).toBe(200);
    const codes: string[] = confirm.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await db().selectFrom('admin_recovery_codes').select('code_hash').where('admin_id', '=', a.admin.id).execute();
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(s.code_hash).toMatch(/^\$argon2id\$/);

    // On now: the key is never handed out again, and the status holds no secret.
    const third = await call('POST', API.totp, a.cookie);
    expect(third.statusCode).toBe(409);
    expect(third.body).not.toContain(again.secret);
    const status = await call('GET', API.totp, a.cookie);
    expect(status.json()).toEqual({ totp_enabled: true, recovery_codes_left: 10, policy: 'optional' });
    // Confirming again finds nothing to confirm.
    expect((await call('POST', API.totpConfirm, a.cookie, { code: codeAt(again.secret, 1) })).statusCode).toBe(400);
  });

  it('opens no session before the second step; the right code opens it; a code is accepted once', async () => {
    const a = await enrolled();
    const challenge = await challengeFor(a);
    // The challenge is not a session.
    expect((await me(`${SESSION_COOKIE}=${challenge}`)).statusCode).toBe(401);
    // The next step's code: the one that confirmed the key may still be the current one.
    const code = codeAt(a.secret, 1);
    const res = await call('POST', API.loginSecondStep, undefined, { challenge, code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a.admin.id, username: a.admin.username });
    const cookie = sessionCookie(res);
    expect((await me(cookie)).statusCode).toBe(200);

    // The same code again, through a new challenge: refused (no replay within its window).
    const second = await challengeFor(a);
    const replay = await call('POST', API.loginSecondStep, undefined, { challenge: second, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'That code is wrong or was already used' } });
    expect(hasSessionCookie(replay)).toBe(false);
    // A used challenge is gone.
    const used = await call('POST', API.loginSecondStep, undefined, { challenge, code: codeAt(a.secret) });
    expect(used.json().error.code).toBe('CHALLENGE_EXPIRED');
  });

  it('opens one session only when the same code comes twice at once', async () => {
    const a = await enrolled();
    const code = codeAt(a.secret, 1);
    const [c1, c2] = [await challengeFor(a), await challengeFor(a)];
    const answers = await Promise.all([c1, c2].map((challenge) => call('POST', API.loginSecondStep, undefined, { challenge, code })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    expect(answers.filter(hasSessionCookie)).toHaveLength(1);
  });

  it('ends an enrolment challenge after 5 wrong codes too', async () => {
    const a = await createAndSignIn(t.app, t.database, fresh('enrolwrong'));
    await setPolicy('required');
    try {
      const { challenge } = (await login(t.app, a.admin.username, a.password)).json();
      const { secret } = (await call('POST', API.loginTotp, undefined, { challenge })).json();
      for (let i = 0; i < CHALLENGE_MAX_FAILURES; i++) {
        expect((await call('POST', API.loginTotpConfirm, undefined, { challenge, code: codeAt(secret, 10) })).json().error.code).toBe('UNAUTHORIZED');
      }
      const late = await call('POST', API.loginTotpConfirm, undefined, { challenge, code: codeAt(secret) });
      expect(late.json().error.code).toBe('CHALLENGE_EXPIRED');
      expect(hasSessionCookie(late)).toBe(false);
      expect((await call('GET', API.totp, a.cookie)).json()).toMatchObject({ totp_enabled: false });
    } finally {
      await setPolicy('optional');
    }
  });

  it('takes each recovery code once', async () => {
    const a = await enrolled();
    const [first] = a.recoveryCodes;
    const ok = await call('POST', API.loginSecondStep, undefined, { challenge: await challengeFor(a), recovery_code: first.toUpperCase().replace('-', ' ') });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await me(sessionCookie(ok))).statusCode).toBe(200);
    const again = await call('POST', API.loginSecondStep, undefined, { challenge: await challengeFor(a), recovery_code: first });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toBe('That recovery code is wrong or was already used');
    expect((await call('GET', API.totp, a.cookie)).json()).toMatchObject({ recovery_codes_left: 9 });
  });

  it('lets a challenge expire after its time', async () => {
    const a = await enrolled();
    const challenge = await challengeFor(a);
    await db().updateTable('sign_in_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('admin_id', '=', a.admin.id).execute();
    const res = await call('POST', API.loginSecondStep, undefined, { challenge, code: codeAt(a.secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'CHALLENGE_EXPIRED', message: 'Your sign-in expired. Please enter your password again.' } });
    expect(hasSessionCookie(res)).toBe(false);
  });

  it('ends a challenge after 5 wrong codes, and counts them in the sign-in limits', async () => {
    const a = await enrolled();
    const ip = nextIp();
    const challenge = await challengeFor(a, ip);
    const right = codeAt(a.secret, 1);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < CHALLENGE_MAX_FAILURES; i++) {
      const res = await call('POST', API.loginSecondStep, undefined, { challenge, code: wrong }, ip);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    const late = await call('POST', API.loginSecondStep, undefined, { challenge, code: right }, ip);
    expect(late.json().error.code).toBe('CHALLENGE_EXPIRED');
    expect(hasSessionCookie(late)).toBe(false);
    // The password attempt and the five codes counted for this address and username; the dead challenge's try did not.
    const row = await db().selectFrom('rate_limits').select('count').where('key', '=', loginIpUserKey(ip, a.admin.username)).executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(1 + CHALLENGE_MAX_FAILURES);
    // A right code through a new challenge signs in, and clears this admin's own count.
    const ok = await call('POST', API.loginSecondStep, undefined, { challenge: await challengeFor(a, ip), code: right }, ip);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await db().selectFrom('rate_limits').select('count').where('key', '=', loginIpUserKey(ip, a.admin.username)).executeTakeFirst()).toBeUndefined();
  });

  it('refuses bad input with clear 400s and changes nothing', async () => {
    const a = await enrolled();
    const challenge = await challengeFor(a);
    const cases: [object, string][] = [
      [{ challenge, code: '12345' }, 'code'],
      [{ challenge, code: 'abcdef' }, 'code'],
      [{ challenge, code: codeAt(a.secret), recovery_code: a.recoveryCodes[0] }, 'code'],
      [{ challenge }, 'code'],
      [{ challenge, recovery_code: 'nope' }, 'recovery_code'],
      [{ challenge: 'short', code: '123456' }, 'challenge'],
      [{ code: '123456' }, 'challenge'],
      [{ challenge, code: 123456 }, 'code'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', API.loginSecondStep, undefined, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().error.fields ?? {}), JSON.stringify(payload)).toContain(field);
    }
    const notJson = await t.app.inject({ method: 'POST', url: API.loginSecondStep, headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(notJson.statusCode).toBe(400);
    // None of them cost the challenge a try: it still signs in.
    const row = await db().selectFrom('sign_in_challenges').select('failures').where('admin_id', '=', a.admin.id).executeTakeFirstOrThrow();
    expect(Number(row.failures)).toBe(0);

    for (const [url, payload] of [
      [API.totpConfirm, { code: 'x' }],
      [API.totpConfirm, {}],
      [API.totpRecoveryCodes, { code: '1234567' }],
      [API.adminTwoFactorPolicy, { policy: 'maybe' }],
    ] as const) {
      const res = await call(url === API.adminTwoFactorPolicy ? 'PATCH' : 'POST', url, root.cookie, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const disable = await call('DELETE', API.totp, a.cookie, { password: a.password });
    expect(disable.statusCode).toBe(400);
    expect(disable.json().error.fields).toHaveProperty('code');
    expect((await call('GET', API.totp, a.cookie)).json()).toMatchObject({ totp_enabled: true });
    expect((await call('GET', API.adminTwoFactorPolicy, root.cookie)).json()).toEqual({ policy: 'optional' });
  });

  it('regenerates recovery codes with a current code, replacing the old ones', async () => {
    const a = await enrolled();
    const wrong = await call('POST', API.totpRecoveryCodes, a.cookie, { code: codeAt(a.secret, 5) });
    expect(wrong.statusCode).toBe(400);
    const res = await call('POST', API.totpRecoveryCodes, a.cookie, { code: codeAt(a.secret, 1) });
    expect(res.statusCode, res.body).toBe(200);
    const fresh: string[] = res.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(a.recoveryCodes[0]);
    const old = await call('POST', API.loginSecondStep, undefined, { challenge: await challengeFor(a), recovery_code: a.recoveryCodes[0] });
    expect(old.statusCode).toBe(401);
    const ok = await call('POST', API.loginSecondStep, undefined, { challenge: await challengeFor(a), recovery_code: fresh[3] });
    expect(ok.statusCode).toBe(200);
  });

  it('turns off only with the password and a current code', async () => {
    const a = await enrolled();
    const wrongPassword = await call('DELETE', API.totp, a.cookie, { password: 'not-the-password', code: codeAt(a.secret) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error.fields).toEqual({ password: 'Password is wrong' });
    const wrongCode = await call('DELETE', API.totp, a.cookie, { password: a.password, code: codeAt(a.secret, 5) });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().error.fields).toEqual({ code: 'That code is wrong or was already used' });
    expect((await call('GET', API.totp, a.cookie)).json()).toMatchObject({ totp_enabled: true });

    const ok = await call('DELETE', API.totp, a.cookie, { password: a.password, code: codeAt(a.secret, 1) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call('GET', API.totp, a.cookie)).json()).toEqual({ totp_enabled: false, recovery_codes_left: 0, policy: 'optional' });
    expect(await db().selectFrom('admin_recovery_codes').select('id').where('admin_id', '=', a.admin.id).execute()).toEqual([]);
    const res = await login(t.app, a.admin.username, a.password);
    expect(hasSessionCookie(res)).toBe(true);
    expect((await call('DELETE', API.totp, a.cookie, { password: a.password, code: codeAt(a.secret) })).statusCode).toBe(409);
  });

  it('policy required: a password alone only lets an admin enrol, then the session opens', async () => {
    const a = await createAndSignIn(t.app, t.database, fresh('req'));
    const withFactor = await enrolled('req');
    await setPolicy('required');
    try {
      const res = await login(t.app, a.admin.username, a.password);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
      expect(hasSessionCookie(res)).toBe(false);
      const { challenge } = res.json();
      // The enrolment challenge is no second step, and grants no admin route.
      expect((await call('POST', API.loginSecondStep, undefined, { challenge, code: '123456' })).json().error.code).toBe('CHALLENGE_EXPIRED');
      expect((await call('POST', API.totp, `${SESSION_COOKIE}=${challenge}`)).statusCode).toBe(401);

      const start = await call('POST', API.loginTotp, undefined, { challenge });
      expect(start.statusCode, start.body).toBe(200);
      const { secret } = start.json();
      const wrong = await call('POST', API.loginTotpConfirm, undefined, { challenge, code: codeAt(secret, 5) });
      expect(wrong.statusCode).toBe(401);
      const done = await call('POST', API.loginTotpConfirm, undefined, { challenge, code: codeAt(secret) });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ admin: { id: a.admin.id }, recovery_codes: expect.any(Array) });
      expect(done.json().recovery_codes).toHaveLength(10);
      expect((await me(sessionCookie(done))).statusCode).toBe(200);
      // Used up.
      expect((await call('POST', API.loginTotp, undefined, { challenge })).statusCode).toBe(401);

      // An admin with a factor is asked for it as before, and may not turn the only factor off.
      await challengeFor(withFactor);
      await forgetLastStep(withFactor.admin.id);
      const off = await call('DELETE', API.totp, withFactor.cookie, { password: withFactor.password, code: codeAt(withFactor.secret) });
      expect(off.statusCode).toBe(409);
      expect((await call('GET', API.totp, withFactor.cookie)).json()).toEqual({ totp_enabled: true, recovery_codes_left: 10, policy: 'required' });
    } finally {
      await setPolicy('optional');
    }
  });

  it('policy off: nobody can enrol, but a factor already on is still asked for', async () => {
    const withFactor = await enrolled('off');
    const a = await createAndSignIn(t.app, t.database, fresh('off'));
    await setPolicy('off');
    try {
      const res = await call('POST', API.totp, a.cookie);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('Two-step sign-in is turned off on this site');
      await challengeFor(withFactor);
    } finally {
      await setPolicy('optional');
    }
  });

  it('only a super admin reads or sets the policy', async () => {
    const a = await createAndSignIn(t.app, t.database, fresh('plain'));
    expect((await call('PATCH', API.adminTwoFactorPolicy, a.cookie, { policy: 'off' })).statusCode).toBe(403);
    expect((await call('GET', API.adminTwoFactorPolicy, root.cookie)).json()).toEqual({ policy: 'optional' });
    const row = await db().selectFrom('security_settings').selectAll().where('key', '=', 'two_factor_policy').executeTakeFirst();
    expect(row).toMatchObject({ value: 'optional', admin_id: root.admin.id });
  });

  it('npm run admin -- reset-2fa NAME clears a lost factor and says so', async () => {
    const a = await enrolled('lost');
    await challengeFor(a);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(['reset-2fa', a.admin.username.toUpperCase()], t.database, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.join('\n')).toBe(
      `Two-step sign-in turned off for "${a.admin.username}": TOTP key removed, 10 recovery codes deleted. They sign in with their password alone until they enrol again.`,
    );
    expect(await db().selectFrom('sign_in_challenges').select('id').where('admin_id', '=', a.admin.id).execute()).toEqual([]);
    const res = await login(t.app, a.admin.username, a.password);
    expect(hasSessionCookie(res)).toBe(true);
    const unknown = await runAdminCli(['reset-2fa', 'nobody_here'], t.database, { out: () => {}, err: (l) => err.push(l) });
    expect(unknown).toBe(1);
    expect(err).toEqual(['No admin named "nobody_here"']);
  });
});

it('never writes a TOTP key, a code, a recovery code or a challenge to the log', async () => {
  const logs = captureLogWrites();
  const t = await createTestApp('sqlite', { logLevel: 'trace' });
  try {
    const a = await createAndSignIn(t.app, t.database, 'logged_2fa');
    const { secret } = (await t.app.inject({ method: 'POST', url: API.totp, headers: { cookie: a.cookie } })).json();
    const code = codeAt(secret);
    const { recovery_codes } = (await t.app.inject({ method: 'POST', url: API.totpConfirm, headers: { cookie: a.cookie }, payload: { code } })).json();
    const { challenge } = (await login(t.app, a.admin.username, a.password)).json();
    const signedIn = await t.app.inject({ method: 'POST', url: API.loginSecondStep, payload: { challenge, recovery_code: recovery_codes[0] } });
    expect(signedIn.statusCode).toBe(200);
    const log = logs.text();
    expect(log).toContain('incoming request');
    for (const s of [secret, code, challenge, ...recovery_codes]) expect(log).not.toContain(s);
  } finally {
    await t.close();
    logs.restore();
  }
});
