import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { UPLOADS_PATH, uploadPath } from '../../../contract/files';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { routesFromPrintout } from '../../testing/hostile-input';
import { nowIso } from '../../time';
import { type Access, ADMIN_PREFIX } from './guard';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { beginUpload, insertAnnouncement, insertPlainAdmin, insertResource, insertSettingsVersion, TUS, tusCreation, validResource } from '../../testing/route-targets';
import { softAuthenticator } from '../../testing/soft-authenticator';
import type { PasskeysTable } from './passkey-queries';

/**
 * The authorization matrix: every /api/admin route (and every other route declaring access, such
 * as an admin's own TOTP under /api/auth) × every kind of caller. The rows below
 * are checked against the routes the app actually registered, so a new admin route without a
 * row here (or with a different access level) fails this file.
 */

interface Fixtures {
  resourceId(): Promise<number>;
  /** A resource in the trash. */
  trashedId(): Promise<number>;
  /** A tus upload begun by the caller when an admin, else by another admin (its id): uploads are their creator's. */
  uploadId(caller: Caller): Promise<string>;
  announcementId(): Promise<number>;
  plainAdminId(): Promise<number>;
  /** A kept settings version (its sections are the defaults). */
  settingsVersionId(): Promise<number>;
  /** A passkey of the caller when an admin, else of another admin: one's own only. */
  passkeyId(caller: Caller): Promise<number>;
  /** A real registration response to options asked by the caller when an admin, else by another admin. */
  passkeyRegistration(caller: Caller): Promise<unknown>;
}
interface Row {
  access: Access;
  /** Status for a caller who is allowed. */
  ok: number;
  request(fx: Fixtures, caller: Caller): Promise<{ url: string; payload?: unknown; headers?: Record<string, string> }>;
}

let unique = 0;

const ROWS: Record<string, Row> = {
  'POST /api/admin/uploads': { access: 'admin', ok: 201, request: async () => ({ url: UPLOADS_PATH, headers: tusCreation() }) },
  'OPTIONS /api/admin/uploads': { access: 'admin', ok: 204, request: async () => ({ url: UPLOADS_PATH }) },
  'PATCH /api/admin/uploads/:id': {
    access: 'admin',
    ok: 204,
    request: async (fx, caller) => ({
      url: uploadPath(await fx.uploadId(caller)),
      payload: Buffer.from('0123456789'),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    }),
  },
  'DELETE /api/admin/uploads/:id': { access: 'admin', ok: 204, request: async (fx, caller) => ({ url: uploadPath(await fx.uploadId(caller)), headers: TUS }) },
  'GET /api/admin/resources': { access: 'admin', ok: 200, request: async () => ({ url: API.adminResources }) },
  'GET /api/admin/resources/export': { access: 'admin', ok: 200, request: async () => ({ url: `${API.adminResourcesExport}?format=json` }) },
  'POST /api/admin/resources/import': {
    access: 'admin',
    ok: 200,
    request: async () => ({ url: `${API.adminResourcesImport}?dry_run=true`, payload: 'id,title\r\n,Matrix import\r\n', headers: { 'content-type': 'text/csv' } }),
  },
  'POST /api/admin/resources': {
    access: 'admin',
    ok: 201,
    request: async () => ({ url: API.adminResources, payload: validResource() }),
  },
  'PATCH /api/admin/resources/:id': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResource(await fx.resourceId()), payload: { title: 'Edited by the matrix' } }),
  },
  'DELETE /api/admin/resources/:id': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResource(await fx.resourceId()) }),
  },
  'POST /api/admin/resources/bulk': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResourcesBulk, payload: { ids: [await fx.resourceId()], action: 'premium' } }),
  },
  'GET /api/admin/resources/ids': { access: 'admin', ok: 200, request: async () => ({ url: `${API.adminResourceIds}?category=typography` }) },
  'GET /api/admin/announcements': { access: 'admin', ok: 200, request: async () => ({ url: API.adminAnnouncements }) },
  'POST /api/admin/announcements': {
    access: 'admin',
    ok: 201,
    request: async () => ({ url: API.adminAnnouncements, payload: { message: 'Hello from the matrix' } }),
  },
  'PATCH /api/admin/announcements/:id': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminAnnouncement(await fx.announcementId()), payload: { is_active: false } }),
  },
  'DELETE /api/admin/announcements/:id': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminAnnouncement(await fx.announcementId()) }),
  },
  'GET /api/admin/admins': { access: 'super', ok: 200, request: async () => ({ url: API.adminAdmins }) },
  'POST /api/admin/admins': {
    access: 'super',
    ok: 201,
    request: async () => ({ url: API.adminAdmins, payload: { username: `matrix_${unique++}`, password: 'matrix-password-1' } }),
  },
  'DELETE /api/admin/admins/:id': {
    access: 'super',
    ok: 200,
    request: async (fx) => ({ url: API.adminAdmin(await fx.plainAdminId()) }),
  },
  'DELETE /api/admin/admins/:id/sessions': {
    access: 'super',
    ok: 200,
    request: async (fx) => ({ url: API.adminAdminSessions(await fx.plainAdminId()) }),
  },
  // A resource without a preview: the route is reached (404 "no preview to retry"), not refused.
  'POST /api/admin/resources/:id/preview/retry': {
    access: 'admin',
    ok: 404,
    request: async (fx) => ({ url: API.adminResourcePreviewRetry(await fx.resourceId()) }),
  },
  'POST /api/admin/resources/:id/preview-link': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResourcePreviewLink(await fx.resourceId()) }),
  },
  'GET /api/admin/trash': { access: 'admin', ok: 200, request: async () => ({ url: API.adminTrash }) },
  'POST /api/admin/trash/:id/restore': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminTrashRestore(await fx.trashedId()) }),
  },
  'DELETE /api/admin/trash/:id': {
    access: 'super',
    ok: 200,
    request: async (fx) => ({ url: API.adminTrashItem(await fx.trashedId()) }),
  },
  'GET /api/admin/dashboard': { access: 'admin', ok: 200, request: async () => ({ url: API.dashboard }) },
  'GET /api/admin/link-health': { access: 'admin', ok: 200, request: async () => ({ url: API.adminLinkHealth }) },
  'POST /api/admin/link-health/run': { access: 'admin', ok: 202, request: async () => ({ url: API.adminLinkHealthRun }) },
  'GET /api/admin/backups': { access: 'super', ok: 200, request: async () => ({ url: API.adminBackups }) },
  'POST /api/admin/backups': { access: 'super', ok: 202, request: async () => ({ url: API.adminBackups }) },
  'GET /api/admin/downloads': { access: 'admin', ok: 200, request: async () => ({ url: API.adminDownloads }) },
  'GET /api/admin/resources/:id/downloads': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResourceDownloads(await fx.resourceId()) }),
  },
  'GET /api/admin/resources/:id/downloads.csv': {
    access: 'admin',
    ok: 200,
    request: async (fx) => ({ url: API.adminResourceDownloadsCsv(await fx.resourceId()) }),
  },
  'GET /api/admin/audit': { access: 'admin', ok: 200, request: async () => ({ url: `${API.adminAudit}?action=resource.update` }) },
  'GET /api/admin/system': { access: 'super', ok: 200, request: async () => ({ url: API.adminSystem }) },
  'GET /api/admin/audit.csv': { access: 'admin', ok: 200, request: async () => ({ url: `${API.adminAuditCsv}?action=resource.update` }) },
  'GET /api/admin/settings': { access: 'super', ok: 200, request: async () => ({ url: API.adminSettings }) },
  'PATCH /api/admin/settings': { access: 'super', ok: 200, request: async () => ({ url: API.adminSettings, payload: {} }) },
  'GET /api/admin/settings/versions': { access: 'super', ok: 200, request: async () => ({ url: API.adminSettingsVersions }) },
  'GET /api/admin/settings/versions/:id': {
    access: 'super',
    ok: 200,
    request: async (fx) => ({ url: API.adminSettingsVersion(await fx.settingsVersionId()) }),
  },
  'POST /api/admin/settings/versions/:id/restore': {
    access: 'super',
    ok: 200,
    request: async (fx) => ({ url: API.adminSettingsRestore(await fx.settingsVersionId()) }),
  },
  'POST /api/admin/settings/preview-markdown': {
    access: 'super',
    ok: 200,
    request: async () => ({ url: API.adminSettingsPreviewMarkdown, payload: { markdown: '# Matrix' } }),
  },
  'GET /api/admin/passkeys': { access: 'admin', ok: 200, request: async () => ({ url: API.adminPasskeys }) },
  'POST /api/admin/passkeys/options': { access: 'admin', ok: 200, request: async () => ({ url: API.adminPasskeyOptions }) },
  'POST /api/admin/passkeys': {
    access: 'admin',
    ok: 201,
    request: async (fx, caller) => ({ url: API.adminPasskeys, payload: { name: 'Matrix key', response: await fx.passkeyRegistration(caller) } }),
  },
  'PATCH /api/admin/passkeys/:id': {
    access: 'admin',
    ok: 200,
    request: async (fx, caller) => ({ url: API.adminPasskey(await fx.passkeyId(caller)), payload: { name: 'Renamed by the matrix' } }),
  },
  'DELETE /api/admin/passkeys/:id': { access: 'admin', ok: 200, request: async (fx, caller) => ({ url: API.adminPasskey(await fx.passkeyId(caller)) }) },
  // Two-step sign-in (the admin's own TOTP, under /api/auth, guarded by config.access) and its policy.
  'GET /api/auth/totp': { access: 'admin', ok: 200, request: async () => ({ url: API.totp }) },
  'POST /api/auth/totp': { access: 'admin', ok: 200, request: async () => ({ url: API.totp }) },
  // A wrong code, or TOTP not on: the route is reached, not refused.
  'POST /api/auth/totp/confirm': { access: 'admin', ok: 400, request: async () => ({ url: API.totpConfirm, payload: { code: '000000' } }) },
  'POST /api/auth/totp/recovery-codes': { access: 'admin', ok: 409, request: async () => ({ url: API.totpRecoveryCodes, payload: { code: '000000' } }) },
  'DELETE /api/auth/totp': { access: 'admin', ok: 409, request: async () => ({ url: API.totp, payload: { password: 'x', code: '000000' } }) },
  'GET /api/admin/two-factor-policy': { access: 'super', ok: 200, request: async () => ({ url: API.adminTwoFactorPolicy }) },
  'PATCH /api/admin/two-factor-policy': { access: 'super', ok: 200, request: async () => ({ url: API.adminTwoFactorPolicy, payload: { policy: 'optional' } }) },
};

const CALLERS = ['anonymous', 'forged cookie', 'admin', 'super user'] as const;
type Caller = (typeof CALLERS)[number];

function expected(row: Row, caller: Caller): number {
  if (caller === 'anonymous' || caller === 'forged cookie') return 401;
  if (row.access === 'super' && caller === 'admin') return 403;
  return row.ok;
}

describe.each(TEST_DATABASES)('admin authorization matrix on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  let superUser: SignedIn;
  let fx: Fixtures;

  beforeAll(async () => {
    t = await createTestApp(kind);
    superUser = await createAndSignIn(t.app, t.database, 'matrix_root', { superUser: true });
    admin = await createAndSignIn(t.app, t.database, 'matrix_editor');
    const db = t.database.db;
    fx = {
      resourceId: () => insertResource(db),
      trashedId: () => insertResource(db, true),
      uploadId: (caller) => beginUpload(t.app, (caller === 'super user' ? superUser : admin).cookie),
      announcementId: () => insertAnnouncement(db),
      plainAdminId: () => insertPlainAdmin(db),
      settingsVersionId: () => insertSettingsVersion(db),
      async passkeyId(caller) {
        const by = caller === 'super user' ? superUser : admin;
        const r = await db
          .withTables<{ passkeys: PasskeysTable }>()
          .insertInto('passkeys')
          .values({ admin_id: by.admin.id, credential_id: `matrix-${unique++}`, public_key: 'AA', counter: 0, transports: '[]', name: 'Matrix', created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(r.id);
      },
      async passkeyRegistration(caller) {
        const by = caller === 'super user' ? superUser : admin;
        const options = await t.app.inject({ method: 'POST', url: API.adminPasskeyOptions, headers: { cookie: by.cookie } });
        return softAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' }).register(options.json());
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const cookieFor = (caller: Caller): Record<string, string> => {
    if (caller === 'admin') return { cookie: admin.cookie };
    if (caller === 'super user') return { cookie: superUser.cookie };
    if (caller === 'forged cookie') return { cookie: `rv_session=${'A'.repeat(43)}` };
    return {};
  };

  const counts = async () => {
    const db = t.database.db;
    const n = async (table: 'resources' | 'announcements' | 'admins') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const edited = await db.selectFrom('resources').select('id').where('title', '=', 'Edited by the matrix').execute();
    const inactive = await db.selectFrom('announcements').select('id').where('is_active', '=', 0).execute();
    return { resources: await n('resources'), announcements: await n('announcements'), admins: await n('admins'), edited: edited.length, inactive: inactive.length };
  };

  it('has exactly one row, with the same access level, for every /api/admin route the app registered', () => {
    const registered = Object.fromEntries(t.app.adminRouteTable.map((r) => [`${r.method} ${r.url}`, r.access]));
    const table = Object.fromEntries(Object.entries(ROWS).map(([k, r]) => [k, r.access]));
    expect(registered).toEqual(table);
    expect(t.app.adminRouteTable).toHaveLength(Object.keys(ROWS).length);
  });

  it('knows every /api/admin route in the router, so none escaped the guard', () => {
    const inRouter = routesFromPrintout(t.app.printRoutes({ commonPrefix: false }))
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => r.split(' ')[1].startsWith(ADMIN_PREFIX) && !r.startsWith('HEAD '))
      .sort();
    expect(inRouter.length).toBeGreaterThan(0);
    expect(inRouter).toEqual(
      t.app.adminRouteTable
        .filter((r) => r.url.startsWith(ADMIN_PREFIX))
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    );
  });

  describe.each(Object.entries(ROWS))('%s', (key, row) => {
    const method = key.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';
    it.each(CALLERS)('%s', async (caller) => {
      const want = expected(row, caller);
      const { url, payload, headers } = await row.request(fx, caller);
      const before = await counts();
      const res = await t.app.inject({ method, url, payload: payload as object | undefined, headers: { ...headers, ...cookieFor(caller) } });
      expect(res.statusCode, res.body).toBe(want);
      if (want === 401) expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Please sign in' } });
      if (want === 403) expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      if (want >= 400) expect(await counts()).toEqual(before);
      if (method === 'GET' && want === 200) {
        const head = await t.app.inject({ method: 'HEAD', url, headers: cookieFor(caller) });
        expect(head.statusCode).toBe(200);
      }
      if (caller === 'anonymous' && method === 'GET') {
        expect((await t.app.inject({ method: 'HEAD', url })).statusCode).toBe(401);
      }
    });
  });

  it('refuses an anonymous caller before looking at the body (401, not 400)', async () => {
    const res = await t.app.inject({ method: 'POST', url: API.adminResources, payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: API.adminAdmins,
      headers: { 'content-type': 'application/json', cookie: admin.cookie },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(403);
  });

  it('marks admin responses as not cacheable', async () => {
    const res = await t.app.inject({ url: API.dashboard, headers: { cookie: admin.cookie } });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
