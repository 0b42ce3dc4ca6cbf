import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AuditEntry } from '../../../contract/audit';
import { UPLOADS_PATH, uploadPath } from '../../../contract/files';
import { createAndSignIn, login, sessionCookie, type SignedIn } from '../../testing/auth-helpers';
import { routesFromPrintout } from '../../testing/hostile-input';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { nowIso } from '../../time';
import { createAccount } from '../admins/accounts';
import type { SettingsVersionsTable } from '../settings/queries';
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
  freshAdmin(): Promise<{ id: number; username: string; password: string }>;
}
interface Request {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** For 'self' cases: who signs in, and whom the entry must name. */
  self?: { id: number; username: string; password: string };
}
type Case =
  | { action: string; caller: Caller; target: string; status: number; request(fx: Fixtures, cookie: string): Promise<Request> }
  | { writesNothing: string; caller: Caller; status: number; request(fx: Fixtures, cookie: string): Promise<Request> };

let unique = 0;
const validResource = () => ({
  title: `Audited resource ${unique++}`,
  description: 'Made by the audit check',
  category: 'typography',
  thumbnail_url: '/thumbnails/audit.svg',
  download_url: 'https://example.com/audit.zip',
  tags: ['Fonts'],
});
const TUS = { 'tus-resumable': '1.0.0' };
const tusCreation = () => ({ ...TUS, 'upload-length': '10', 'upload-metadata': `filename ${Buffer.from('audit.zip').toString('base64')}` });

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
    request: async (fx) => ({ url: API.logout, self: await fx.freshAdmin() }),
  },
};

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
    superUser = await createAndSignIn(t.app, t.database, 'audit_root', { superUser: true });
    admin = await createAndSignIn(t.app, t.database, 'audit_editor');
    const db = t.database.db;
    fx = {
      async resourceId() {
        const now = nowIso();
        const r = await db
          .insertInto('resources')
          .values({ ...validResource(), tags: '["Fonts"]', is_premium: 0, created_at: now, updated_at: now, admin_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      },
      async trashedId() {
        const id = await fx.resourceId();
        await db.updateTable('resources').set({ status: 'trashed', status_before_trash: 'published', trashed_at: nowIso() }).where('id', '=', id).execute();
        return id;
      },
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
      async uploadId(cookie) {
        const res = await t.app.inject({ method: 'POST', url: UPLOADS_PATH, headers: { ...tusCreation(), cookie } });
        if (res.statusCode !== 201) throw new Error(`could not begin an upload: ${res.statusCode} ${res.body}`);
        return String(res.headers.location).split('/').pop()!;
      },
      async announcementId() {
        const r = await db.insertInto('announcements').values({ message: 'Audit target', is_active: 1, admin_id: null, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
        return r.id;
      },
      async plainAdminId() {
        const name = `target_${unique++}`;
        const r = await db
          .insertInto('admins')
          .values({ username: name, username_key: name, password_hash: '$argon2id$v=19$m=19456,t=2,p=1$x$y', is_super_user: 0, created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      },
      async settingsVersionId() {
        // The current settings first differ from the defaults a version of no sections restores.
        const res = await t.app.inject({
          method: 'PATCH',
          url: API.adminSettings,
          headers: { cookie: superUser.cookie },
          payload: { site: { name: `Before restore ${unique++}`, description: 'Changed', public_url: '' } },
        });
        if (res.statusCode !== 200) throw new Error(`could not save settings: ${res.body}`);
        const r = await db
          .withTables<{ settings_versions: SettingsVersionsTable }>()
          .insertInto('settings_versions')
          .values({ saved_at: nowIso(), admin_id: null, changed: '[]', restored_from: null, sections: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(r.id);
      },
      async freshAdmin() {
        const username = `self_${unique++}`;
        const password = `pw-${username}-correct-horse`;
        const { admin: a } = await createAccount(db, { username, password, isSuperUser: false });
        return { id: a.id, username, password };
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
      const { url, payload, headers, self } = await c.request(fx, caller.cookie);
      let cookie: string | undefined = caller.cookie;
      if (c.caller === 'self') {
        cookie = undefined;
        if (key === 'POST /api/auth/logout') {
          cookie = sessionCookie(await login(t.app, self!.username, self!.password));
        }
      }
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
      expect(added).toHaveLength(1);
      const who = self ?? { id: caller.admin.id, username: caller.admin.username };
      expect(added[0]).toMatchObject({ action: c.action, actor_id: who.id, actor_username: who.username, target_type: c.target, ip: '203.0.113.7', user_agent: 'audit-check/1.0' });
      expect(added[0].target_id).not.toBeNull();
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
});
