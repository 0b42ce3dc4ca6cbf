import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AuditEntry, AuditList } from '../../../contract/audit';
import type { Resource } from '../../../contract/resources';
import { ConfigError, loadConfig } from '../../config';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createResource as createResourceRow, type NewResource } from '../resources/admin-queries';
import { newResourceAuditFields, resourceAuditFields } from '../resources/audit-fields';
import { auditDb } from './queries';
import { CHANGES_MAX, STRING_MAX } from './record';
import { sweepAuditLog } from './routes';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The audit log (docs/decisions/420-the-audit-log.md): written with the change or not at all, read
 * through filters a page at a time (super admins all, an admin their own), exported as CSV,
 * bounded per entry, free of secrets, swept after AUDIT_DAYS. Every write route's entry is checked
 * in write-routes.test.ts.
 */
describe.each(TEST_DATABASES)('the audit log on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let editor: SignedIn;
  let other: SignedIn;

  const as = (who: SignedIn) => ({ cookie: who.cookie });
  const createResource = async (who: SignedIn, title: string, extra: Record<string, unknown> = {}): Promise<Resource> => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: as(who),
      payload: { title, description: 'Audited', category: 'typography', thumbnail_url: '/thumbnails/a.svg', download_url: 'https://example.com/a.zip', tags: ['Fonts'], ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const list = async (who: SignedIn, query: string): Promise<{ status: number; body: AuditList & { error?: { code: string } } }> => {
    const res = await t.app.inject({ url: `${API.adminAudit}?${query}`, headers: as(who) });
    return { status: res.statusCode, body: res.json() };
  };
  const count = async () => Number((await auditDb(t.database.db).selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const titleOf = async (id: number) => (await t.database.db.selectFrom('resources').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title;

  /** Makes every audit entry for `targetId` fail to be written (a fault forced inside the change's transaction). */
  async function failEntriesFor(targetId: number) {
    if (t.database.dialect === 'postgres') {
      await sql
        .raw(
          `create or replace function audit_test_refuse() returns trigger language plpgsql as $$ begin
             if new.target_id = '${targetId}' then raise exception 'forced audit failure'; end if; return new; end $$`,
        )
        .execute(t.database.db);
      await sql.raw('create trigger audit_test_refuse before insert on audit_log for each row execute function audit_test_refuse()').execute(t.database.db);
    } else {
      await sql.raw(`create trigger audit_test_refuse before insert on audit_log when new.target_id = '${targetId}' begin select raise(abort, 'forced audit failure'); end`).execute(t.database.db);
    }
  }
  const stopFailing = () => sql.raw('drop trigger audit_test_refuse' + (t.database.dialect === 'postgres' ? ' on audit_log' : '')).execute(t.database.db);

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'log_root', { superUser: true });
    editor = await createAndSignIn(t.app, t.database, 'log_editor');
    other = await createAndSignIn(t.app, t.database, 'log_other');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps no entry of a change that rolled back, and no change whose entry could not be written', async () => {
    const r = await createResource(editor, 'Kept as it was');
    await failEntriesFor(r.id);
    try {
      const before = await count();
      const res = await t.app.inject({ method: 'PATCH', url: API.adminResource(r.id), headers: as(editor), payload: { title: 'Never saved' } });
      expect(res.statusCode).toBe(500);
      expect(await titleOf(r.id)).toBe('Kept as it was');
      expect(await count()).toBe(before);
    } finally {
      await stopFailing();
    }
  });

  it('keeps the entries of the ids a bulk action changed, and neither change nor entry of an id that failed', async () => {
    const ok = await createResource(editor, 'Bulk ok');
    const failing = await createResource(editor, 'Bulk failing');
    await failEntriesFor(failing.id);
    try {
      const before = await count();
      const res = await t.app.inject({ method: 'POST', url: API.adminResourcesBulk, headers: as(editor), payload: { ids: [ok.id, failing.id], action: 'premium' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ succeeded: 1, failed: 1 });
      const premium = await t.database.db.selectFrom('resources').select(['id', 'is_premium']).where('id', 'in', [ok.id, failing.id]).orderBy('id').execute();
      expect(premium.map((p) => Number(p.is_premium))).toEqual([1, 0]);
      expect(await count()).toBe(before + 1);
      const { body } = await list(root, `action=resource.bulk&target_type=resource&target_id=${ok.id}`);
      expect(body.items).toHaveLength(1);
      expect(body.items[0].changes).toEqual({ bulk_action: 'premium', before: { is_premium: false }, after: { is_premium: true } });
    } finally {
      await stopFailing();
    }
  });

  it('keeps no entry of an import row that failed, and one for each row written', async () => {
    const a = await createResource(editor, 'Import a');
    const b = await createResource(editor, 'Import b');
    await failEntriesFor(b.id);
    try {
      const before = await count();
      const csv = `id,title\r\n${a.id},Import a renamed\r\n${b.id},Import b renamed\r\n`;
      const res = await t.app.inject({ method: 'POST', url: API.adminResourcesImport, headers: { ...as(editor), 'content-type': 'text/csv' }, payload: csv });
      // The forced fault is not a row's error: the batch's transaction is undone, entries and all.
      expect(res.statusCode).toBe(500);
      expect([await titleOf(a.id), await titleOf(b.id)]).toEqual(['Import a', 'Import b']);
      expect(await count()).toBe(before);
    } finally {
      await stopFailing();
    }
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResourcesImport,
      headers: { ...as(editor), 'content-type': 'text/csv' },
      payload: `id,title\r\n${a.id},Import a renamed\r\n${b.id},Import b renamed\r\n`,
    });
    expect(res.statusCode).toBe(200);
    const { body } = await list(editor, 'action=catalogue.import');
    expect(body.items.map((e) => [e.target_id, (e.changes as { after: { title: string } }).after.title])).toEqual([
      [String(b.id), 'Import b renamed'],
      [String(a.id), 'Import a renamed'],
    ]);
  });

  it('filters by action, target and time, newest first, a page at a time', async () => {
    const r = await createResource(other, 'Paged');
    for (let i = 1; i <= 5; i++) {
      const res = await t.app.inject({ method: 'PATCH', url: API.adminResource(r.id), headers: as(other), payload: { title: `Paged ${i}` } });
      expect(res.statusCode).toBe(200);
    }
    const seen: AuditEntry[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const { status, body } = await list(other, `target_type=resource&target_id=${r.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      seen.push(...body.items);
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    expect(seen.map((e) => e.action)).toEqual(['resource.update', 'resource.update', 'resource.update', 'resource.update', 'resource.update', 'resource.create']);
    expect(seen.map((e) => (e.changes as { after: { title: string } }).after.title)).toEqual(['Paged 5', 'Paged 4', 'Paged 3', 'Paged 2', 'Paged 1', 'Paged']);
    expect(seen[0].changes).toEqual({ before: { title: 'Paged 4' }, after: { title: 'Paged 5' } });

    const updates = await list(other, `action=resource.update&target_id=${r.id}`);
    expect(updates.body.items).toHaveLength(5);
    const future = await list(other, `from=${encodeURIComponent(new Date(Date.now() + DAY_MS).toISOString())}`);
    expect(future.body.items).toEqual([]);
    const past = await list(other, `to=${encodeURIComponent(new Date(Date.now() + DAY_MS).toISOString())}&target_id=${r.id}`);
    expect(past.body.items).toHaveLength(6);
  });

  it('answers bad filters and cursors with a 400 in the error shape', async () => {
    for (const q of ['cursor=not-a-cursor', 'cursor=eyJ4IjoxfQ', 'action=DROP%20TABLE', 'from=yesterday', 'actor=0', 'limit=1000', 'target_id=']) {
      const { status, body } = await list(root, q);
      expect(status, q).toBe(400);
      expect(body.error?.code, q).toBe('VALIDATION_ERROR');
    }
  });

  it('shows an admin their own entries only, and a super admin everyone', async () => {
    await createResource(editor, 'By the editor');
    await createResource(other, 'By the other');
    const own = await list(editor, 'limit=100');
    expect(own.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThan(0);
    expect(new Set(own.body.items.map((e) => e.actor_id))).toEqual(new Set([editor.admin.id]));
    const refused = await list(editor, `actor=${other.admin.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
    const csv = await t.app.inject({ url: `${API.adminAuditCsv}?actor=${other.admin.id}`, headers: as(editor) });
    expect(csv.statusCode).toBe(403);

    const all = await list(root, 'limit=100');
    const actors = new Set(all.body.items.map((e) => e.actor_id));
    expect(actors.has(editor.admin.id) && actors.has(other.admin.id)).toBe(true);
    const theirs = await list(root, `actor=${other.admin.id}&limit=100`);
    expect(theirs.body.items.length).toBeGreaterThan(0);
    expect(new Set(theirs.body.items.map((e) => e.actor_id))).toEqual(new Set([other.admin.id]));
  });

  it('exports the same filters as CSV', async () => {
    const r = await createResource(editor, 'Exported, "quoted"');
    await t.app.inject({ method: 'DELETE', url: API.adminResource(r.id), headers: as(editor) });
    const res = await t.app.inject({ url: `${API.adminAuditCsv}?target_type=resource&target_id=${r.id}`, headers: as(editor) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,created_at,actor_id,actor_username,action,target_type,target_id,changes,ip,user_agent');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',log_editor,resource.trash,resource,');
    expect(lines[2]).toContain(',log_editor,resource.create,resource,');
    expect(lines[2]).toContain('Exported, \\""quoted\\""');
    // An admin's export holds their own entries only.
    const mine = await t.app.inject({ url: API.adminAuditCsv, headers: as(other) });
    expect(mine.body).not.toContain('log_editor');
  });

  it('keeps a 5,000-character description whole, cuts what is longer visibly, and bounds the entry', async () => {
    const long = 'd'.repeat(5000);
    const r = await createResource(editor, 'Long description', { description: long });
    const { body } = await list(editor, `target_id=${r.id}&action=resource.create`);
    expect((body.items[0].changes as { after: { description: string } }).after.description).toBe(long);

    // Written in the change's transaction by a service, beyond what any form takes.
    const { recordAudit, SYSTEM_ACTOR } = await import('./record');
    const huge = 'x'.repeat(STRING_MAX * 3);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, 'y'.repeat(STRING_MAX)]));
    await t.database.db.transaction().execute(async (trx) => {
      await recordAudit(trx, SYSTEM_ACTOR, { action: 'resource.update', target: { type: 'resource', id: 'huge' }, changes: { after: { description: huge } } });
      await recordAudit(trx, SYSTEM_ACTOR, { action: 'resource.update', target: { type: 'resource', id: 'many' }, changes: { after: many } });
    });
    const rows = await auditDb(t.database.db).selectFrom('audit_log').select(['target_id', 'changes']).where('target_id', 'in', ['huge', 'many']).orderBy('id').execute();
    for (const row of rows) expect(Buffer.byteLength(row.changes!)).toBeLessThanOrEqual(CHANGES_MAX);
    const cut = JSON.parse(rows[0].changes!).after.description as string;
    expect(cut.startsWith('x'.repeat(STRING_MAX))).toBe(true);
    expect(cut).toMatch(/… \[cut: 60000 characters in all\]$/);
    const spread = JSON.parse(rows[1].changes!).after as Record<string, string>;
    expect(Object.keys(spread)).toHaveLength(40);
    expect(spread.field_0).toMatch(/\[cut: 20000 characters in all\]$/);
  });

  it("never records a password or its hash: a created admin's password appears nowhere", async () => {
    const password = 'unmistakable-Secret-9431';
    const res = await t.app.inject({ method: 'POST', url: API.adminAdmins, headers: as(root), payload: { username: 'log_created', password } });
    expect(res.statusCode).toBe(201);
    const signIn = await t.app.inject({ method: 'POST', url: API.login, payload: { username: 'log_created', password } });
    expect(signIn.statusCode).toBe(200);
    const failed = await t.app.inject({ method: 'POST', url: API.login, payload: { username: 'log_created', password: `${password}-wrong` } });
    expect(failed.statusCode).toBe(401);
    const hash = (await t.database.db.selectFrom('admins').select('password_hash').where('username', '=', 'log_created').executeTakeFirstOrThrow()).password_hash;
    const everything = JSON.stringify(await auditDb(t.database.db).selectFrom('audit_log').selectAll().execute());
    expect(everything).toContain('log_created');
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(hash);
    const { body } = await list(root, 'action=admin.create&target_type=admin');
    expect(body.items[0].changes).toEqual({ after: { username: 'log_created', is_super_user: false } });
  });

  it('is swept of entries older than AUDIT_DAYS only', async () => {
    const db = auditDb(t.database.db);
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY_MS).toISOString();
    await db
      .insertInto('audit_log')
      .values([
        { created_at: at(400), actor_id: null, actor_username: null, action: 'resource.update', target_type: 'resource', target_id: 'sweep-old', changes: null, ip: null, user_agent: null },
        { created_at: at(365.01), actor_id: null, actor_username: null, action: 'resource.update', target_type: 'resource', target_id: 'sweep-just-old', changes: null, ip: null, user_agent: null },
        { created_at: at(364.99), actor_id: null, actor_username: null, action: 'resource.update', target_type: 'resource', target_id: 'sweep-kept', changes: null, ip: null, user_agent: null },
      ])
      .execute();
    const before = await count();
    expect(await sweepAuditLog(t.database, t.config.auditDays, now)).toBe(2);
    expect(await count()).toBe(before - 2);
    const left = await db.selectFrom('audit_log').select('target_id').where('target_id', 'like', 'sweep-%').execute();
    expect(left.map((r) => r.target_id)).toEqual(['sweep-kept']);
    expect(t.config.auditDays).toBe(365);
  });

  it("describes a new resource from its input as it reads back (an import's batch of new rows records without reading them)", async () => {
    const input: NewResource = {
      title: 'Described',
      description: 'From its input',
      category: 'typography',
      thumbnail_url: '/thumbnails/d.svg',
      download_url: 'https://example.com/d.zip',
      tags: [' Fonts ', 'fonts', 'Serif'],
      is_premium: true,
      licence: { kind: 'attribution', credit: 'By someone' },
      thumbnail_choice: 'image',
      status: 'scheduled',
      publish_at: '2030-01-01T00:00:00.000Z',
    };
    const created = await createResourceRow(t.database, input, editor.admin.id);
    const read = await t.database.db.transaction().execute((trx) => resourceAuditFields(trx, created.id));
    expect(newResourceAuditFields(input)).toEqual(read);
  });

  it('has no route that edits or deletes an entry', () => {
    const writes = t.app.adminRouteTable.filter((r) => r.url.startsWith(API.adminAudit) && r.method !== 'GET');
    expect(writes).toEqual([]);
  });
});

describe('AUDIT_DAYS', () => {
  const load = (value?: string) => loadConfig({ SESSION_SECRET: 'config-test-session-secret-0123456789', ...(value === undefined ? {} : { AUDIT_DAYS: value }) });

  it('defaults to 365 days and reads whole days', () => {
    expect(load().auditDays).toBe(365);
    expect(load('30').auditDays).toBe(30);
  });

  it.each(['0', '-1', '1.5', 'abc', '', '36501'])('refuses %j with one line naming it', (value) => {
    expect(() => load(value)).toThrow(ConfigError);
    expect(() => load(value)).toThrow(/^Invalid configuration: AUDIT_DAYS must be a whole number of days from 1 to 36500$/);
  });
});
