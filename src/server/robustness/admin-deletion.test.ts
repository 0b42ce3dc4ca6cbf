import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api-paths';
import { createAndSignIn, login, nextIp, type SignedIn } from '../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';

/**
 * A super admin deletes admin B while B's requests are in flight: B's writes that record B
 * (a new resource's or announcement's admin_id, a new session) race the deletion. Each request
 * must succeed or get 401 (the session is gone), never 500, and nothing may be left pointing at B.
 */
const ROUNDS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(TEST_DATABASES)('deleting an admin while their requests are in flight on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let resourceId: number;
  let announcementId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'deleting_root', { superUser: true });
    const r = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: root.cookie }, payload: resource('Shared target') });
    resourceId = r.json().id;
    const a = await t.app.inject({ method: 'POST', url: API.adminAnnouncements, headers: { cookie: root.cookie }, payload: { message: 'Shared target' } });
    announcementId = a.json().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  function resource(title: string) {
    return { title, description: 'In flight', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/f.zip', tags: ['Race'] };
  }

  it('answers every one of B\'s requests 2xx or 401, never 500, in every round', async () => {
    const seen: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const name = `doomed_${round}`;
      const b = await createAndSignIn(t.app, t.database, name);
      // Seen a while ago: each request below also slides (writes) the session.
      await t.database.db.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - 5 * 60_000).toISOString() }).where('admin_id', '=', b.admin.id).execute();
      const headers = { cookie: b.cookie };
      const requests = Array.from({ length: 36 }, (_, i) => {
        switch (i % 6) {
          case 0:
            return { label: 'create resource', send: () => t.app.inject({ method: 'POST', url: API.adminResources, headers, payload: resource(`${name} ${i}`) }) };
          case 1:
            return { label: 'create announcement', send: () => t.app.inject({ method: 'POST', url: API.adminAnnouncements, headers, payload: { message: `${name} ${i}` } }) };
          case 2:
            return { label: 'edit resource', send: () => t.app.inject({ method: 'PATCH', url: API.adminResource(resourceId), headers, payload: { title: `${name} ${i}` } }) };
          case 3:
            return { label: 'edit announcement', send: () => t.app.inject({ method: 'PATCH', url: API.adminAnnouncement(announcementId), headers, payload: { message: `${name} ${i}` } }) };
          case 4:
            return { label: 'sign in', send: () => login(t.app, name, b.password, nextIp()) };
          default:
            return { label: 'me', send: () => t.app.inject({ url: API.me, headers }) };
        }
      });
      // Started over a few milliseconds around the deletion (at a different moment each round).
      const inFlight = requests.map((r, i) => sleep(i % 8).then(r.send).then((res) => ({ label: r.label, res })));
      await sleep(round % 6);
      const del = await t.app.inject({ method: 'DELETE', url: API.adminAdmin(b.admin.id), headers: { cookie: root.cookie } });
      expect(del.statusCode, del.body).toBe(200);
      for (const { label, res } of await Promise.all(inFlight)) {
        const key = `${label} ${res.statusCode}`;
        seen[key] = (seen[key] ?? 0) + 1;
        expect([200, 201, 401], `${label}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      }
      const db = t.database.db;
      expect(await db.selectFrom('admins').select('id').where('id', '=', b.admin.id).execute()).toHaveLength(0);
      expect(await db.selectFrom('sessions').select('id').where('admin_id', '=', b.admin.id).execute()).toHaveLength(0);
      expect(await db.selectFrom('resources').select('id').where('admin_id', '=', b.admin.id).execute()).toHaveLength(0);
      expect(await db.selectFrom('announcements').select('id').where('admin_id', '=', b.admin.id).execute()).toHaveLength(0);
    }
    // The race was run, not dodged: some requests got in before the deletion and some after.
    const statuses = Object.keys(seen).map((k) => Number(k.split(' ').pop()));
    expect(statuses.some((s) => s === 401)).toBe(true);
    expect(statuses.some((s) => s === 200 || s === 201)).toBe(true);
  });

  it('waits for a transaction writing the admin\'s resource twice, then deletes: both commit', async () => {
    // On PostgreSQL a transaction's second write of a row it wrote checks the admin_id key again
    // (a KEY SHARE lock on the admin), as a save does when it writes a resource's facet profile
    // after its change; the deletion must not hold the admin meanwhile (a deadlock, answered 500).
    const b = await createAndSignIn(t.app, t.database, 'owner_of_one');
    const created = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: b.cookie }, payload: resource('Owned by B') });
    const id = Number(created.json().id);
    let del: Promise<{ statusCode: number; body: string }> | undefined;
    await t.database.db.transaction().execute(async (trx) => {
      await sql`update resources set title = 'Edited while B goes' where id = ${id}`.execute(trx);
      del = t.app.inject({ method: 'DELETE', url: API.adminAdmin(b.admin.id), headers: { cookie: root.cookie } });
      await sleep(kind === 'postgres' ? 300 : 0);
      await sql`update resources set apps = ${JSON.stringify([{ id: 'lightroom', min_version: '' }])} where id = ${id}`.execute(trx);
    });
    const answered = await del!;
    expect(answered.statusCode, answered.body).toBe(200);
    const row = await t.database.db.selectFrom('resources').select(['title', 'admin_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Edited while B goes', admin_id: null });
  });
});
