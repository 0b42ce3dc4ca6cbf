import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { LOGIN_IP_LIMIT } from '../../../contract/constants';
import { createAndSignIn, login, nextIp, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { type Alter, softAuthenticator } from '../../testing/soft-authenticator';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { adminHasPasskey } from './passkey-queries';
import { SESSION_COOKIE } from './sessions';

const ORIGIN = 'http://localhost:5173';

describe.each(TEST_DATABASES)('passkeys on %s', (kind) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    alice = await createAndSignIn(t.app, t.database, 'alice');
    bob = await createAndSignIn(t.app, t.database, 'bob');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db.withTables<{ passkeys: { id: number; admin_id: number; counter: number | string; last_used_at: string | null; name: string } }>();
  const challengeRows = () => t.database.db.withTables<{ webauthn_challenges: { challenge: string } }>().selectFrom('webauthn_challenges').selectAll().execute();

  const post = (url: string, payload: unknown, opts: { cookie?: string; ip?: string } = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: opts.cookie ? { cookie: opts.cookie } : {}, remoteAddress: opts.ip ?? nextIp() });

  const registrationOptions = async (who: SignedIn) => {
    const res = await t.app.inject({ method: 'POST', url: API.adminPasskeyOptions, headers: { cookie: who.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const signInOptions = async (ip?: string) => {
    const res = await t.app.inject({ method: 'POST', url: API.passkeySignInOptions, remoteAddress: ip ?? nextIp() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  /** A new authenticator with a passkey registered for `who`. */
  const registered = async (who: SignedIn, name = 'My laptop') => {
    const key = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    const res = await post(API.adminPasskeys, { name, response: key.register(await registrationOptions(who)) }, { cookie: who.cookie });
    expect(res.statusCode, res.body).toBe(201);
    return { key, passkey: res.json() as { id: number; name: string } };
  };

  const signIn = async (key: ReturnType<typeof softAuthenticator>, alter: Alter = {}, ip?: string) =>
    post(API.passkeySignIn, { response: key.authenticate(await signInOptions(ip), alter) }, { ip });

  it('asks for a discoverable credential with user verification, on the localhost relying party, excluding the ones already registered', async () => {
    const before = await registrationOptions(alice);
    expect(before.rp).toEqual({ name: 'Resource Vault', id: 'localhost' });
    expect(before.user.name).toBe('alice');
    expect(before.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
    expect(before.attestation).toBe('none');
    const { key } = await registered(alice);
    const after = await registrationOptions(alice);
    expect(after.excludeCredentials.map((c: { id: string }) => c.id)).toContain(key.id);
    expect(after.challenge).not.toBe(before.challenge);

    const signInOpts = await signInOptions();
    expect(signInOpts.rpId).toBe('localhost');
    expect(signInOpts.userVerification).toBe('required');
    expect(signInOpts.allowCredentials ?? []).toEqual([]);
  });

  it('adds a passkey through a real ceremony, lists it, and signs in with it alone: a session, the counter and last use updated', async () => {
    expect(await adminHasPasskey(t.database.db, bob.admin.id)).toBe(false);
    const { key, passkey } = await registered(bob, 'Phone');
    expect(passkey).toMatchObject({ name: 'Phone', last_used_at: null });
    expect(await adminHasPasskey(t.database.db, bob.admin.id)).toBe(true);

    const list = await t.app.inject({ url: API.adminPasskeys, headers: { cookie: bob.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([passkey]);
    // Nobody else sees it.
    const theirs = await t.app.inject({ url: API.adminPasskeys, headers: { cookie: alice.cookie } });
    expect(theirs.json().items.map((p: { id: number }) => p.id)).not.toContain(passkey.id);

    const res = await signIn(key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(bob.admin);
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = sessionCookie(res);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const me = await t.app.inject({ url: API.me, headers: { cookie } });
    expect(me.json()).toEqual({ ...bob.admin, must_change_password: false });

    const row = await db().selectFrom('passkeys').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).not.toBeNull();
    const again = await signIn(key);
    expect(again.statusCode).toBe(200);
    expect(Number((await db().selectFrom('passkeys').select('counter').where('id', '=', passkey.id).executeTakeFirstOrThrow()).counter)).toBe(2);
  });

  it('uses a challenge once: a replayed registration or sign-in is refused, and opens no session', async () => {
    const key = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    const response = key.register(await registrationOptions(alice));
    expect((await post(API.adminPasskeys, { name: 'Once', response }, { cookie: alice.cookie })).statusCode).toBe(201);
    const replay = await post(API.adminPasskeys, { name: 'Twice', response }, { cookie: alice.cookie });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/expired or was already used/);

    const assertion = key.authenticate(await signInOptions());
    expect((await post(API.passkeySignIn, { response: assertion })).statusCode).toBe(200);
    const replayed = await post(API.passkeySignIn, { response: assertion });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a challenge of another ceremony, of another admin, or expired', async () => {
    const key = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    // A sign-in challenge does not register a passkey…
    const wrongKind = await post(API.adminPasskeys, { name: 'x', response: key.register(await signInOptions()) }, { cookie: alice.cookie });
    expect(wrongKind.statusCode).toBe(400);
    // …nor does another admin's registration challenge.
    const theirs = await post(API.adminPasskeys, { name: 'x', response: key.register(await registrationOptions(bob)) }, { cookie: alice.cookie });
    expect(theirs.statusCode).toBe(400);
    // An expired one (5 minutes) is refused and gone.
    const options = await signInOptions();
    await t.database.db
      .withTables<{ webauthn_challenges: { challenge: string; expires_at: string } }>()
      .updateTable('webauthn_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('challenge', '=', options.challenge)
      .execute();
    const { key: known } = await registered(alice);
    const expired = await post(API.passkeySignIn, { response: known.authenticate(options) });
    expect(expired.statusCode).toBe(400);
    expect((await challengeRows()).map((r) => r.challenge)).not.toContain(options.challenge);
    expect(await db().selectFrom('passkeys').select('id').where('name', '=', 'x').execute()).toEqual([]);
  });

  it('refuses another origin, another relying party, no user verification and a counter that went back', async () => {
    const count = async () => (await db().selectFrom('passkeys').select('id').execute()).length;
    const before = await count();
    const stranger = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    for (const alter of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }, { type: 'webauthn.get' }]) {
      const res = await post(API.adminPasskeys, { name: 'Bad', response: stranger.register(await registrationOptions(alice), alter) }, { cookie: alice.cookie });
      expect(res.statusCode, JSON.stringify(alter)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect(await count()).toBe(before);

    const { key } = await registered(alice);
    for (const alter of [{ origin: 'https://evil.example' }, { origin: 'http://localhost.evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
      const res = await signIn(key, alter);
      expect(res.statusCode, JSON.stringify(alter)).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Passkey sign-in failed' } });
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
    expect((await signIn(key, { counter: 10 })).statusCode).toBe(200);
    // A cloned authenticator shows as a counter that did not move on.
    expect((await signIn(key, { counter: 5 })).statusCode).toBe(401);
  });

  it('refuses an unknown credential, and a removed one', async () => {
    const unknown = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    const res = await signIn(unknown);
    expect(res.statusCode).toBe(401);

    const { key, passkey } = await registered(alice, 'To remove');
    const removed = await t.app.inject({ method: 'DELETE', url: API.adminPasskey(passkey.id), headers: { cookie: alice.cookie } });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ ok: true });
    expect((await signIn(key)).statusCode).toBe(401);
  });

  it("renames and removes one's own passkeys only: another admin's is a 404 and stays as it was", async () => {
    const { passkey } = await registered(bob, 'Bob key');
    const rename = await t.app.inject({ method: 'PATCH', url: API.adminPasskey(passkey.id), payload: { name: '  Work laptop ' }, headers: { cookie: bob.cookie } });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toMatchObject({ id: passkey.id, name: 'Work laptop' });

    const steal = await t.app.inject({ method: 'PATCH', url: API.adminPasskey(passkey.id), payload: { name: 'Mine now' }, headers: { cookie: alice.cookie } });
    expect(steal.statusCode).toBe(404);
    expect(steal.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Passkey not found' } });
    const drop = await t.app.inject({ method: 'DELETE', url: API.adminPasskey(passkey.id), headers: { cookie: alice.cookie } });
    expect(drop.statusCode).toBe(404);
    const row = await db().selectFrom('passkeys').select('name').where('id', '=', passkey.id).executeTakeFirst();
    expect(row?.name).toBe('Work laptop');

    for (const name of ['', '   ', 'x'.repeat(65), 'bad\u0000name']) {
      const res = await t.app.inject({ method: 'PATCH', url: API.adminPasskey(passkey.id), payload: { name }, headers: { cookie: bob.cookie } });
      expect(res.statusCode, name).toBe(400);
    }
    expect((await t.app.inject({ method: 'PATCH', url: API.adminPasskey('abc'), payload: { name: 'x' }, headers: { cookie: bob.cookie } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: API.adminPasskey(999999), headers: { cookie: bob.cookie } })).statusCode).toBe(404);
  });

  it('answers a malformed body or assertion with a 400 (or a failed sign-in), never a 500, and changes nothing', async () => {
    const { key } = await registered(alice);
    const challenges = (await challengeRows()).length;
    const good = key.authenticate({ challenge: 'unused' });
    const bodies: unknown[] = [
      {},
      { response: null },
      { response: { ...good, type: 'password' } },
      { response: { ...good, response: { ...good.response, clientDataJSON: 'not base64!' } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: Buffer.from('not json').toString('base64url') } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: Buffer.from('{"challenge":5}').toString('base64url') } } },
      { response: { ...good, response: { ...good.response, signature: 'x'.repeat(5000) } } },
      { response: good, extra: true },
    ];
    for (const payload of bodies) {
      const res = await post(API.passkeySignIn, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const notJson = await t.app.inject({ method: 'POST', url: API.passkeySignIn, payload: '{nope', headers: { 'content-type': 'application/json' }, remoteAddress: nextIp() });
    expect(notJson.statusCode).toBe(400);

    // Well-formed, with a live challenge, but garbage inside: a failed sign-in, not a fault.
    for (const response of [
      { ...good, response: { ...good.response, authenticatorData: 'AAAA' } },
      { ...good, response: { ...good.response, signature: 'AAAA' } },
    ]) {
      const options = await signInOptions();
      const assertion = key.authenticate(options);
      const res = await post(API.passkeySignIn, { response: { ...response, response: { ...response.response, clientDataJSON: assertion.response.clientDataJSON } } });
      expect(res.statusCode).toBe(401);
    }
    const registration = key.register(await registrationOptions(alice));
    const garbled = await post(
      API.adminPasskeys,
      { name: 'Garbled', response: { ...registration, response: { ...registration.response, attestationObject: 'AAAA' } } },
      { cookie: alice.cookie },
    );
    expect(garbled.statusCode).toBe(400);
    expect((await post(API.adminPasskeys, { response: registration }, { cookie: alice.cookie })).statusCode).toBe(400);
    expect((await challengeRows()).length).toBe(challenges);
  });

  it('goes with its admin: a deleted admin’s passkey signs nobody in', async () => {
    const dave = await createAndSignIn(t.app, t.database, 'dave');
    const { key } = await registered(dave);
    await t.database.db.deleteFrom('admins').where('id', '=', dave.admin.id).execute();
    expect(await db().selectFrom('passkeys').select('id').where('admin_id', '=', dave.admin.id).execute()).toEqual([]);
    const res = await signIn(key);
    expect(res.statusCode).toBe(401);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('counts passkey sign-ins in the per-address sign-in limit, failed ones included', async () => {
    const ip = nextIp();
    const stranger = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
    for (let i = 0; i < LOGIN_IP_LIMIT; i++) expect((await signIn(stranger, {}, ip)).statusCode).toBe(401);
    const refused = await post(API.passkeySignIn, { response: stranger.authenticate({ challenge: 'never-asked' }) }, { ip });
    expect(refused.statusCode).toBe(429);
    expect((await t.app.inject({ method: 'POST', url: API.passkeySignInOptions, remoteAddress: ip })).statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // The password sign-in from that address is refused too, even with the right password.
    expect((await login(t.app, 'alice', alice.password, ip)).statusCode).toBe(429);
  });
});

describe.each(TEST_DATABASES)('passkeys with PUBLIC_URL on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind, { publicUrl: 'https://vault.example.com' });
    admin = await createAndSignIn(t.app, t.database, 'carol');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes the relying party's id and origin from PUBLIC_URL, never from the Host header", async () => {
    const res = await t.app.inject({ method: 'POST', url: API.adminPasskeyOptions, headers: { cookie: admin.cookie, host: 'evil.example' } });
    const options = res.json();
    expect(options.rp.id).toBe('vault.example.com');
    const signInOptions = await t.app.inject({ method: 'POST', url: API.passkeySignInOptions, headers: { host: 'evil.example' } });
    expect(signInOptions.json().rpId).toBe('vault.example.com');

    const key = softAuthenticator({ rpId: 'vault.example.com', origin: 'https://vault.example.com' });
    // The right RP id signed on another origin: localhost (fine only without PUBLIC_URL), or the Host header's name.
    const elsewhere = softAuthenticator({ rpId: 'vault.example.com', origin: 'http://localhost:3000' }).register(options);
    const refused = await t.app.inject({ method: 'POST', url: API.adminPasskeys, payload: { name: 'Local', response: elsewhere }, headers: { cookie: admin.cookie } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/origin/i);
    const byHost = (await t.app.inject({ method: 'POST', url: API.adminPasskeyOptions, headers: { cookie: admin.cookie, host: 'evil.example' } })).json();
    const hostOrigin = softAuthenticator({ rpId: 'vault.example.com', origin: 'http://evil.example' }).register(byHost);
    const refusedToo = await t.app.inject({ method: 'POST', url: API.adminPasskeys, payload: { name: 'Host', response: hostOrigin }, headers: { cookie: admin.cookie, host: 'evil.example' } });
    expect(refusedToo.statusCode).toBe(400);

    const again = (await t.app.inject({ method: 'POST', url: API.adminPasskeyOptions, headers: { cookie: admin.cookie } })).json();
    const added = await t.app.inject({ method: 'POST', url: API.adminPasskeys, payload: { name: 'Vault', response: key.register(again) }, headers: { cookie: admin.cookie } });
    expect(added.statusCode, added.body).toBe(201);
    const signIn = await t.app.inject({ method: 'POST', url: API.passkeySignIn, payload: { response: key.authenticate(signInOptions.json()) }, headers: { host: 'evil.example' } });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });
});
