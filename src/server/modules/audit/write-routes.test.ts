import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AuditEntry } from '../../../contract/audit';
import { UPLOADS_PATH, uploadPath } from '../../../contract/files';
import { createAndSignIn, login, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { routesFromPrintout } from '../../testing/hostile-input';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { nowIso } from '../../time';
import { beginUpload, insertAnnouncement, insertPlainAdmin, insertResource, insertSettingsVersion, TUS, tusCreation, validResource } from '../../testing/route-targets';
import { softAuthenticator } from '../../testing/soft-authenticator';
import { createAccount } from '../admins/accounts';
import { runAdminCli } from '../admins/admin-cli';
import { writeTwoFactorPolicy } from '../auth/two-factor-policy';
import { auditDb } from './queries';

/**
 * Every write route leaves exactly one audit entry (docs/decisions/420-the-audit-log.md). The routes
 * are read from the app's router: every non-GET route under /api/admin and /api/auth needs a case
 * below, so a new write route without one fails this file. A case calls the route as it succeeds and
 * names the action and who the entry must name; a route that writes nothing names why, and is held to
 * leaving no entry.
 */

type Caller = 'admin' | 'super' | 'self';
interface Fixtures {
  resourceId(): Promise<number>;
  trashedId(): Promise<number>;
  /** A resource whose preview job failed. */
  failedPreviewId(): Promise<number>;
  uploadId(cookie: string): Promise<string>;
  announcementId(): Promise<number>;
  plainAdminId(): Promise<number>;
  /** A kept version whose sections differ from the current ones. */
  settingsVersionId(): Promise<number>;
  /** A fresh admin that signs in by itself ('self' cases), with its password. */
  freshAdmin(): Promise<Self>;
  /** A fresh admin, signed in (a new session each call for the same admin). */
  signedIn(a?: Self): Promise<{ self: Self; cookie: string }>;
  /** A fresh signed-in admin who began turning TOTP on: the key. */
  totpStarted(): Promise<{ self: Self; cookie: string; secret: string }>;
  /** A fresh signed-in admin with TOTP on, whose next code is accepted. */
  totpOn(): Promise<{ self: Self; cookie: string; secret: string }>;
  /** A passkey registered by the signed-in `cookie`'s admin, and its authenticator. */
  passkey(cookie: string): Promise<{ id: number; key: ReturnType<typeof softAuthenticator> }>;
  /** The challenge a right password earns under policy `required` when no second factor is set up. */
  enrolChallenge(a: Self): Promise<string>;
  /** Sets the site's second-factor policy directly. */
  setPolicy(policy: 'off' | 'optional' | 'required'): Promise<void>;
}
interface Self {
  id: number;
  username: string;
  password: string;
}
interface Request {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The session to call with, instead of the caller's ('self' cases: none unless given). */
  cookie?: string;
  /** For 'self' cases: whom the entries must name. */
  self?: Self;
}
type Case =
  /** `also`: actions recorded before `action` by the same request, by the same actor. */
  | { action: string; also?: string[]; caller: Caller; target: string; status: number; request(fx: Fixtures, cookie: string): Promise<Request> }
  | { writesNothing: string; caller: Caller; status: number; request(fx: Fixtures, cookie: string): Promise<Request> };

let unique = 0;
/** The code an authenticator app shows now (two-factor.test.ts). */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
const ORIGIN = 'http://localhost:5173';

const CASES: Record<string, Case> = {
  'POST /api/admin/uploads': { action: 'upload.create', caller: 'admin', target: 'upload', status: 201, request: async () => ({ url: UPLOADS_PATH, headers: tusCreation() }) },
  'PATCH /api/admin/uploads/:id': {
    writesNothing: "a chunk of an upload's bytes: the upload's creation and the save that uses it are recorded",
    caller: 'admin',
    status: 204,
    request: async (fx, cookie) => ({
      url: uploadPath(await fx.uploadId(cookie)),
      payload: Buffer.from('0123456789'),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    }),
  },
  'DELETE /api/admin/uploads/:id': {
    action: 'upload.cancel',
    caller: 'admin',
    target: 'upload',
    status: 204,
    request: async (fx, cookie) => ({ url: uploadPath(await fx.uploadId(cookie)), headers: TUS }),
  },
  'POST /api/admin/resources/import': {
    action: 'catalogue.import',
    caller: 'admin',
    target: 'resource',
    status: 200,
    request: async (fx) => ({ url: API.adminResourcesImport, payload: `id,title\r\n${await fx.resourceId()},Imported title ${unique++}\r\n`, headers: { 'content-type': 'text/csv' } }),
  },
  'POST /api/admin/resources': { action: 'resource.create', caller: 'admin', target: 'resource', status: 201, request: async () => ({ url: API.adminResources, payload: validResource() }) },
  'PATCH /api/admin/resources/:id': {
    action: 'resource.update',
    caller: 'admin',
    target: 'resource',
    status: 200,
    request: async (fx) => ({ url: API.adminResource(await fx.resourceId()), payload: { title: 'Edited for the audit' } }),
  },
  'DELETE /api/admin/resources/:id': { action: 'resource.trash', caller: 'admin', target: 'resource', status: 200, request: async (fx) => ({ url: API.adminResource(await fx.resourceId()) }) },
  'POST /api/admin/resources/bulk': {
    action: 'resource.bulk',
    caller: 'admin',
    target: 'resource',
    status: 200,
    request: async (fx) => ({ url: API.adminResourcesBulk, payload: { ids: [await fx.resourceId()], action: 'premium' } }),
  },
  'POST /api/admin/resources/:id/preview/retry': {
    action: 'resource.preview_retry',
    caller: 'admin',
    target: 'resource',
    status: 200,
    request: async (fx) => ({ url: API.adminResourcePreviewRetry(await fx.failedPreviewId()) }),
  },
  'POST /api/admin/resources/:id/preview-link': {
    writesNothing: 'signs a short-lived link; no row is written',
    caller: 'admin',
    status: 200,
    request: async (fx) => ({ url: API.adminResourcePreviewLink(await fx.resourceId()) }),
  },
  'POST /api/admin/trash/:id/restore': { action: 'resource.restore', caller: 'admin', target: 'resource', status: 200, request: async (fx) => ({ url: API.adminTrashRestore(await fx.trashedId()) }) },
  'DELETE /api/admin/trash/:id': { action: 'resource.purge', caller: 'super', target: 'resource', status: 200, request: async (fx) => ({ url: API.adminTrashItem(await fx.trashedId()) }) },
  'POST /api/admin/link-health/run': { action: 'links.check', caller: 'admin', target: 'link_check', status: 202, request: async () => ({ url: API.adminLinkHealthRun }) },
  'POST /api/admin/backups': { action: 'backups.create', caller: 'super', target: 'backup', status: 202, request: async () => ({ url: API.adminBackups }) },
  'POST /api/admin/announcements': {
    action: 'announcement.create',
    caller: 'admin',
    target: 'announcement',
    status: 201,
    request: async () => ({ url: API.adminAnnouncements, payload: { message: 'Hello from the audit' } }),
  },
  'PATCH /api/admin/announcements/:id': {
    action: 'announcement.update',
    caller: 'admin',
    target: 'announcement',
    status: 200,
    request: async (fx) => ({ url: API.adminAnnouncement(await fx.announcementId()), payload: { is_active: false } }),
  },
  'DELETE /api/admin/announcements/:id': {
    action: 'announcement.delete',
    caller: 'admin',
    target: 'announcement',
    status: 200,
    request: async (fx) => ({ url: API.adminAnnouncement(await fx.announcementId()) }),
  },
  'POST /api/admin/admins': {
    action: 'admin.create',
    caller: 'super',
    target: 'admin',
    status: 201,
    request: async () => ({ url: API.adminAdmins, payload: { username: `audited_${unique++}`, password: 'audited-password-1' } }),
  },
  'DELETE /api/admin/admins/:id': { action: 'admin.delete', caller: 'super', target: 'admin', status: 200, request: async (fx) => ({ url: API.adminAdmin(await fx.plainAdminId()) }) },
  'PATCH /api/admin/settings': {
    action: 'settings.save',
    caller: 'super',
    target: 'settings',
    status: 200,
    request: async () => ({ url: API.adminSettings, payload: { site: { name: `Audited site ${unique++}`, description: 'A site under audit', public_url: '' } } }),
  },
  'POST /api/admin/settings/versions/:id/restore': {
    action: 'settings.restore',
    caller: 'super',
    target: 'settings',
    status: 200,
    request: async (fx) => ({ url: API.adminSettingsRestore(await fx.settingsVersionId()) }),
  },
  'POST /api/admin/settings/preview-markdown': {
    writesNothing: 'renders Markdown for the form; nothing is saved',
    caller: 'super',
    status: 200,
    request: async () => ({ url: API.adminSettingsPreviewMarkdown, payload: { markdown: '# Audit' } }),
  },
  'POST /api/auth/login': {
    action: 'auth.login',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const a = await fx.freshAdmin();
      return { url: API.login, payload: { username: a.username, password: a.password }, self: a };
    },
  },
  'POST /api/auth/logout': {
    action: 'auth.logout',
    caller: 'self',
    target: 'admin',
    status: 200,
    // Signed in first by the test below, as the admin itself.
    request: async (fx) => fx.signedIn().then(({ self, cookie }) => ({ url: API.logout, self, cookie })),
  },
  'DELETE /api/admin/admins/:id/sessions': {
    action: 'admin.sessions_end',
    caller: 'super',
    target: 'admin',
    status: 200,
    request: async (fx) => ({ url: API.adminAdminSessions((await fx.signedIn()).self.id) }),
  },
  'PATCH /api/admin/two-factor-policy': {
    action: 'two_factor.policy',
    caller: 'super',
    target: 'policy',
    status: 200,
    // From `off` (set by the fixture) back to the default, so that the other cases sign in as usual.
    request: async (fx) => {
      await fx.setPolicy('off');
      return { url: API.adminTwoFactorPolicy, payload: { policy: 'optional' } };
    },
  },
  'POST /api/admin/passkeys/options': {
    writesNothing: 'stores a challenge for five minutes, used up by the add that follows (passkey.add)',
    caller: 'admin',
    status: 200,
    request: async () => ({ url: API.adminPasskeyOptions }),
  },
  'POST /api/admin/passkeys': {
    action: 'passkey.add',
    caller: 'admin',
    target: 'passkey',
    status: 201,
    request: async (_fx, cookie) => {
      const options = await postJson(API.adminPasskeyOptions, undefined, cookie);
      return { url: API.adminPasskeys, payload: { name: 'Audited key', response: softAuthenticator({ rpId: 'localhost', origin: ORIGIN }).register(options) } };
    },
  },
  'PATCH /api/admin/passkeys/:id': {
    action: 'passkey.rename',
    caller: 'admin',
    target: 'passkey',
    status: 200,
    request: async (fx, cookie) => ({ url: API.adminPasskey((await fx.passkey(cookie)).id), payload: { name: 'Renamed key' } }),
  },
  'DELETE /api/admin/passkeys/:id': {
    action: 'passkey.remove',
    caller: 'admin',
    target: 'passkey',
    status: 200,
    request: async (fx, cookie) => ({ url: API.adminPasskey((await fx.passkey(cookie)).id) }),
  },
  'POST /api/auth/passkey/options': {
    writesNothing: 'stores a sign-in challenge for five minutes; the sign-in it serves is recorded (auth.login or auth.login_failed)',
    caller: 'self',
    status: 200,
    request: async () => ({ url: API.passkeySignInOptions }),
  },
  'POST /api/auth/passkey': {
    action: 'auth.login',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const { self, cookie } = await fx.signedIn();
      const { key } = await fx.passkey(cookie);
      return { url: API.passkeySignIn, payload: { response: key.authenticate(await postJson(API.passkeySignInOptions)) }, self };
    },
  },
  'DELETE /api/auth/sessions/:id': {
    action: 'session.end',
    caller: 'self',
    target: 'session',
    status: 200,
    request: async (fx) => {
      const { self, cookie } = await fx.signedIn();
      const other = await fx.signedIn(self);
      const list = await currentApp().app.inject({ url: API.authSessions, headers: { cookie: other.cookie } });
      const { items } = list.json() as { items: { id: string; current: boolean }[] };
      return { url: API.authSession(items.find((s) => s.current)!.id), cookie, self };
    },
  },
  'POST /api/auth/sessions/revoke-others': {
    action: 'session.end_others',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const { self, cookie } = await fx.signedIn();
      await fx.signedIn(self);
      return { url: API.authSessionsRevokeOthers, cookie, self };
    },
  },
  'POST /api/auth/password': {
    action: 'auth.password_change',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const { self, cookie } = await fx.signedIn();
      return { url: API.authPassword, payload: { current_password: self.password, new_password: `Audit-${unique++}-stapled-trombone-Quartz` }, cookie, self };
    },
  },
  'POST /api/auth/totp': {
    writesNothing: 'starts an enrolment: the new key is not used until confirmed, which is recorded (totp.enable)',
    caller: 'self',
    status: 200,
    request: async (fx) => fx.signedIn().then(({ self, cookie }) => ({ url: API.totp, cookie, self })),
  },
  'POST /api/auth/totp/confirm': {
    action: 'totp.enable',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => fx.totpStarted().then(({ self, cookie, secret }) => ({ url: API.totpConfirm, payload: { code: codeAt(secret) }, cookie, self })),
  },
  'POST /api/auth/totp/recovery-codes': {
    action: 'totp.recovery_codes',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => fx.totpOn().then(({ self, cookie, secret }) => ({ url: API.totpRecoveryCodes, payload: { code: codeAt(secret) }, cookie, self })),
  },
  'DELETE /api/auth/totp': {
    action: 'totp.disable',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => fx.totpOn().then(({ self, cookie, secret }) => ({ url: API.totp, payload: { password: self.password, code: codeAt(secret) }, cookie, self })),
  },
  'POST /api/auth/login/2fa': {
    action: 'auth.login',
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const { self, secret } = await fx.totpOn();
      const challenge = (await login(currentApp().app, self.username, self.password)).json().challenge as string;
      return { url: API.loginSecondStep, payload: { challenge, code: codeAt(secret) }, self };
    },
  },
  'POST /api/auth/login/totp': {
    writesNothing: 'starts an enrolment at sign-in: no session and the key is not used until confirmed (totp.enable, auth.login)',
    caller: 'self',
    status: 200,
    request: async (fx) => {
      const self = await fx.freshAdmin();
      return { url: API.loginTotp, payload: { challenge: await fx.enrolChallenge(self) }, self };
    },
  },
  'POST /api/auth/login/totp/confirm': {
    action: 'auth.login',
    also: ['totp.enable'],
    caller: 'self',
    target: 'admin',
    status: 200,
    request: async (fx) => {
      const self = await fx.freshAdmin();
      const challenge = await fx.enrolChallenge(self);
      const { secret } = await postJson(API.loginTotp, { challenge });
      return { url: API.loginTotpConfirm, payload: { challenge, code: codeAt(secret) }, self };
    },
  },
};

/** The app of the database under test, for the cases' own set-up calls. */
let current: TestApp | undefined;
const currentApp = () => current!;
/** A POST that must succeed (a case's set-up), its JSON. */
async function postJson(url: string, payload?: object, cookie?: string) {
  const res = await currentApp().app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Request fields that hold a secret: every string under them. */
const SECRET_FIELDS = ['password', 'current_password', 'new_password', 'code', 'recovery_code', 'challenge', 'response'];
function secretsIn(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, secret: boolean) => {
    if (typeof v === 'string' && secret && v.length >= 6) out.push(v);
    else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) for (const [k, x] of Object.entries(v)) walk(x, secret || SECRET_FIELDS.includes(k));
  };
  walk(payload, false);
  return out;
}

/** Every route that may write: not a read (GET, HEAD) nor tus's OPTIONS, under /api/admin or /api/auth. */
function writeRoutes(printout: string): string[] {
  return routesFromPrintout(printout)
    .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && (r.url.startsWith('/api/admin/') || r.url.startsWith('/api/auth/')))
    .map((r) => `${r.method} ${r.url}`)
    .sort();
}

describe.each(TEST_DATABASES)('the audit log of every write route on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  let superUser: SignedIn;
  let fx: Fixtures;

  const entries = async (): Promise<AuditEntry[]> => {
    const rows = await auditDb(t.database.db).selectFrom('audit_log').selectAll().orderBy('id').execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), actor_id: r.actor_id === null ? null : Number(r.actor_id), changes: r.changes === null ? null : JSON.parse(r.changes) }));
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    current = t;
    superUser = await createAndSignIn(t.app, t.database, 'audit_root', { superUser: true });
    admin = await createAndSignIn(t.app, t.database, 'audit_editor');
    const db = t.database.db;
    fx = {
      resourceId: () => insertResource(db),
      trashedId: () => insertResource(db, true),
      async failedPreviewId() {
        const id = await fx.resourceId();
        const now = nowIso();
        const job = await db
          .insertInto('media_jobs')
          .values({ kind: 'audit_test_unknown_kind', payload: '{}', subject: null, state: 'failed', max_attempts: 1, run_at: now, claim_token: null, claimed_by: null, lease_expires_at: null, error: 'failed for the test', result: null, created_at: now, updated_at: now, finished_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.updateTable('resources').set({ preview_job_id: job.id }).where('id', '=', id).execute();
        return id;
      },
      uploadId: (cookie) => beginUpload(t.app, cookie),
      announcementId: () => insertAnnouncement(db),
      plainAdminId: () => insertPlainAdmin(db),
      async settingsVersionId() {
        // The current settings first differ from the defaults a version of no sections restores.
        const res = await t.app.inject({
          method: 'PATCH',
          url: API.adminSettings,
          headers: { cookie: superUser.cookie },
          payload: { site: { name: `Before restore ${unique++}`, description: 'Changed', public_url: '' } },
        });
        if (res.statusCode !== 200) throw new Error(`could not save settings: ${res.body}`);
        return insertSettingsVersion(db);
      },
      async freshAdmin() {
        const username = `self_${unique++}`;
        const password = `pw-${username}-correct-horse`;
        const { admin: a } = await createAccount(db, { username, password, isSuperUser: false });
        return { id: a.id, username, password };
      },
      async signedIn(a) {
        const self = a ?? (await fx.freshAdmin());
        const res = await login(t.app, self.username, self.password);
        return { self, cookie: sessionCookie(res) };
      },
      async totpStarted() {
        const { self, cookie } = await fx.signedIn();
        const { secret } = await postJson(API.totp, undefined, cookie);
        return { self, cookie, secret };
      },
      async totpOn() {
        const { self, cookie, secret } = await fx.totpStarted();
        await postJson(API.totpConfirm, { code: codeAt(secret) }, cookie);
        // As if the next time step had come: the case's code is accepted without waiting 30 s.
        await db.updateTable('admin_totp').set({ last_step: null }).where('admin_id', '=', self.id).execute();
        return { self, cookie, secret };
      },
      async passkey(cookie) {
        const key = softAuthenticator({ rpId: 'localhost', origin: ORIGIN });
        const options = await postJson(API.adminPasskeyOptions, undefined, cookie);
        const res = await t.app.inject({ method: 'POST', url: API.adminPasskeys, payload: { name: 'Set-up key', response: key.register(options) }, headers: { cookie } });
        if (res.statusCode !== 201) throw new Error(`could not add a passkey: ${res.body}`);
        return { id: (res.json() as { id: number }).id, key };
      },
      async enrolChallenge(a) {
        await fx.setPolicy('required');
        try {
          const res = await login(t.app, a.username, a.password);
          const challenge = (res.json() as { challenge?: string }).challenge;
          if (!challenge) throw new Error(`no enrolment challenge: ${res.body}`);
          return challenge;
        } finally {
          await fx.setPolicy('optional');
        }
      },
      async setPolicy(policy) {
        await writeTwoFactorPolicy(db, policy, superUser.admin.id, nowIso());
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has a case for every write route the app registered, and no case for a route it lacks', () => {
    expect(writeRoutes(t.app.printRoutes({ commonPrefix: false }))).toEqual(Object.keys(CASES).sort());
  });

  describe.each(Object.entries(CASES))('%s', (key, c) => {
    it(`leaves ${'action' in c ? `one ${c.action} entry by the caller` : 'no entry'}`, async () => {
      const method = key.split(' ')[0] as 'POST' | 'PATCH' | 'DELETE';
      const caller = c.caller === 'super' ? superUser : admin;
      const { url, payload, headers, self, cookie: ownCookie } = await c.request(fx, caller.cookie);
      const cookie = ownCookie ?? (c.caller === 'self' ? undefined : caller.cookie);
      const before = await entries();
      const res = await t.app.inject({
        method,
        url,
        payload: payload as object | undefined,
        headers: { ...headers, ...(cookie ? { cookie } : {}), 'user-agent': 'audit-check/1.0' },
        remoteAddress: '203.0.113.7',
      });
      expect(res.statusCode, res.body).toBe(c.status);
      const added = (await entries()).slice(before.length);
      if (!('action' in c)) {
        expect(added).toEqual([]);
        return;
      }
      expect(added.map((e) => e.action)).toEqual([...(c.also ?? []), c.action]);
      const who = self ?? { id: caller.admin.id, username: caller.admin.username };
      for (const entry of added) {
        expect(entry).toMatchObject({ actor_id: who.id, actor_username: who.username, target_type: c.target, ip: '203.0.113.7', user_agent: 'audit-check/1.0' });
        expect(entry.target_id).not.toBeNull();
      }
      // No secret the request carried (password, code, key, challenge, assertion) is in any entry.
      for (const secret of secretsIn(payload)) expect(JSON.stringify(added)).not.toContain(secret);
    });
  });

  it('records a refused sign-in with no actor and the name tried, never the password', async () => {
    const before = await entries();
    const res = await t.app.inject({ method: 'POST', url: API.login, payload: { username: 'audit_editor', password: 'wrong-password-for-audit' }, remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(401);
    const added = (await entries()).slice(before.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ action: 'auth.login_failed', actor_id: null, actor_username: null, ip: '203.0.113.9', changes: { username: 'audit_editor' } });
    expect(JSON.stringify(added[0])).not.toContain('wrong-password-for-audit');
  });

  /** What one call adds to the log. */
  const addedBy = async (call: () => Promise<{ statusCode: number; body: string }>, status: number) => {
    const before = await entries();
    const res = await call();
    expect(res.statusCode, res.body).toBe(status);
    return (await entries()).slice(before.length);
  };

  it("records a password sign-in's method; a right password that asks for a second step opens no session and records nothing", async () => {
    const { self } = await fx.signedIn();
    const [entry] = await addedBy(() => login(t.app, self.username, self.password), 200);
    expect(entry).toMatchObject({ action: 'auth.login', actor_id: self.id, changes: { method: 'password' } });

    const on = await fx.totpOn();
    const added = await addedBy(() => login(t.app, on.self.username, on.self.password), 200);
    expect(added).toEqual([]);
  });

  it('records a wrong second-step code as a failed sign-in naming the account (its password was right), never the code; a recovery code signs in as such', async () => {
    const { self, secret } = await fx.totpOn();
    const challenge = (await login(t.app, self.username, self.password)).json().challenge as string;
    const right = codeAt(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const failed = await addedBy(() => t.app.inject({ method: 'POST', url: API.loginSecondStep, payload: { challenge, code: wrong } }), 401);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ action: 'auth.login_failed', actor_id: self.id, target_type: 'admin', target_id: String(self.id), changes: { username: self.username, method: 'totp' } });
    expect(JSON.stringify(failed)).not.toContain(wrong);

    const badRecovery = await addedBy(() => t.app.inject({ method: 'POST', url: API.loginSecondStep, payload: { challenge, recovery_code: 'aaaaa-aaaaa' } }), 401);
    expect(badRecovery[0]).toMatchObject({ action: 'auth.login_failed', changes: { method: 'recovery_code' } });

    // A fresh admin's recovery code, from the confirmation that turned TOTP on.
    const other = await fx.totpStarted();
    const codes = (await postJson(API.totpConfirm, { code: codeAt(other.secret) }, other.cookie)).recovery_codes as string[];
    const otherChallenge = (await login(t.app, other.self.username, other.self.password)).json().challenge as string;
    const signedIn = await addedBy(() => t.app.inject({ method: 'POST', url: API.loginSecondStep, payload: { challenge: otherChallenge, recovery_code: codes[0] } }), 200);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]).toMatchObject({ action: 'auth.login', actor_id: other.self.id, changes: { method: 'recovery_code' } });
    expect(JSON.stringify(signedIn)).not.toContain(codes[0]);
  });

  it('records a wrong code when enrolling at sign-in as a failed sign-in; TOTP stays off', async () => {
    const self = await fx.freshAdmin();
    const challenge = await fx.enrolChallenge(self);
    const { secret } = await postJson(API.loginTotp, { challenge });
    const right = codeAt(secret);
    const added = await addedBy(() => t.app.inject({ method: 'POST', url: API.loginTotpConfirm, payload: { challenge, code: right === '000000' ? '111111' : '000000' } }), 401);
    expect(added.map((e) => [e.action, e.actor_id, (e.changes as { method?: string }).method])).toEqual([['auth.login_failed', self.id, 'totp']]);
  });

  it('records a failed passkey assertion with no actor and the passkey it named, never the assertion; an unknown passkey with no target', async () => {
    const { cookie } = await fx.signedIn();
    const { id, key } = await fx.passkey(cookie);
    const forged = key.authenticate(await postJson(API.passkeySignInOptions), { userVerified: false });
    const failed = await addedBy(() => t.app.inject({ method: 'POST', url: API.passkeySignIn, payload: { response: forged } }), 401);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ action: 'auth.login_failed', actor_id: null, actor_username: null, target_type: 'passkey', target_id: String(id), changes: { method: 'passkey' } });
    expect(JSON.stringify(failed)).not.toContain(forged.response.signature);

    const stranger = softAuthenticator({ rpId: 'localhost', origin: ORIGIN }).authenticate(await postJson(API.passkeySignInOptions));
    const unknown = await addedBy(() => t.app.inject({ method: 'POST', url: API.passkeySignIn, payload: { response: stranger } }), 401);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ action: 'auth.login_failed', actor_id: null, target_type: null, changes: { method: 'passkey' } });
  });

  it("records the CLI's reset-2fa and reset-password as the System, never the password", async () => {
    const { self } = await fx.totpOn();
    const io = { out: () => {}, err: () => {} };
    const reset2fa = await addedBy(async () => ({ statusCode: await runAdminCli(['reset-2fa', self.username], t.database, io), body: '' }), 0);
    expect(reset2fa).toHaveLength(1);
    expect(reset2fa[0]).toMatchObject({ action: 'totp.reset', actor_id: null, actor_username: null, ip: null, target_type: 'admin', target_id: String(self.id), changes: { username: self.username, key_removed: true, codes_deleted: 10 } });

    const password = `Reset-${unique++}-marble-lantern-Quill`;
    const reset = await addedBy(async () => ({ statusCode: await runAdminCli(['reset-password', self.username, '--password', password], t.database, io), body: '' }), 0);
    expect(reset).toHaveLength(1);
    expect(reset[0]).toMatchObject({ action: 'admin.password_reset', actor_id: null, target_type: 'admin', target_id: String(self.id), changes: { username: self.username, sessions_ended: 1 } });
    expect(JSON.stringify(reset)).not.toContain(password);
  });
});
