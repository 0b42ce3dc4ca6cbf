import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { buildApp } from '../../app';
import type { App } from '../../context';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { nowIso } from '../../time';
import { publishDueResources } from './admin-queries';

/**
 * Scheduled publishing with real time: two instances on one database (each with its own tick, as
 * every instance runs one), a short PUBLISH_CHECK_INTERVAL, and no visitor until the check: the
 * resource is public soon after its time, published once, and the public answers follow.
 */
const CHECK_MS = 200;

describe.each(TEST_DATABASES)('scheduled publishing on %s', (kind) => {
  let t: TestApp;
  let second: App;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind, { publishCheckMs: CHECK_MS });
    second = await buildApp(t.config, t.database);
    await t.app.ready();
    await second.ready();
    admin = await createAndSignIn(t.app, t.database, 'scheduler');
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const schedule = async (publishAt: string, title = 'Scheduled pack') => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: admin.cookie },
      payload: { title, description: 'd', category: 'sound_effects', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/s.zip', status: 'scheduled', publish_at: publishAt },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; created_at: string };
  };

  it('publishes at publish_at within the check interval, once, with no request in between', async () => {
    // Warm both instances' response caches with the list as it is before.
    expect((await t.app.inject({ url: '/api/resources?category=sound-effects' })).json().items).toEqual([]);
    expect((await second.inject({ url: '/api/resources?category=sound-effects' })).json().items).toEqual([]);
    const publishAt = new Date(Date.now() + 1500).toISOString();
    const { id } = await schedule(publishAt);
    expect((await t.app.inject({ url: API.resource(id) })).statusCode).toBe(404);

    // Wait on the database itself (no request to the app) until the row is published.
    const started = Date.now();
    let row: { status: string; publish_at: string | null; created_at: string } | undefined;
    // Bounded well inside the 30 s the product promises; the check runs every CHECK_MS.
    while (Date.now() - started < 10_000) {
      row = await t.database.db.selectFrom('resources').select(['status', 'publish_at', 'created_at']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status === 'published') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toEqual({ status: 'published', publish_at: null, created_at: publishAt });

    // Both instances answer it (their caches follow the data version).
    for (const app of [t.app, second]) {
      expect((await app.inject({ url: API.resource(id) })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/resources?category=sound-effects' })).json().items.map((r: { id: number }) => r.id)).toEqual([id]);
    }
  });

  it('refuses a publish time in the past, one without status scheduled, and scheduled without a time: 400 on publish_at, nothing written', async () => {
    const before = await t.database.db.selectFrom('resources').select('id').execute();
    const base = { title: 'x', description: 'd', category: 'sound_effects', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/s.zip' };
    for (const extra of [
      { status: 'scheduled', publish_at: new Date(Date.now() - 60_000).toISOString() },
      { status: 'draft', publish_at: new Date(Date.now() + 60_000).toISOString() },
      { publish_at: new Date(Date.now() + 60_000).toISOString() },
      { status: 'scheduled' },
      { status: 'scheduled', publish_at: '2030-01-01 10:00' },
      { status: 'later' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: admin.cookie }, payload: { ...base, ...extra } });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(Object.keys(res.json().error.fields), JSON.stringify(extra)).toEqual([extra.status === 'later' ? 'status' : 'publish_at']);
    }
    expect(await t.database.db.selectFrom('resources').select('id').execute()).toEqual(before);
  });

  it('the admin list filters by status', async () => {
    const { id } = await schedule(new Date(Date.now() + 3_600_000).toISOString(), 'Later pack');
    const list = async (status: string) =>
      ((await t.app.inject({ url: `${API.adminResources}?status=${status}`, headers: { cookie: admin.cookie } })).json().items as { id: number; status: string }[]).map((r) => [r.id, r.status]);
    expect(await list('scheduled')).toEqual([[id, 'scheduled']]);
    expect((await list('published')).every(([, s]) => s === 'published')).toBe(true);
    expect(await list('draft')).toEqual([]);
    expect((await t.app.inject({ url: `${API.adminResources}?status=gone`, headers: { cookie: admin.cookie } })).statusCode).toBe(400);
  });

  // PostgreSQL's statement triggers fire for an UPDATE of no row: every check emptied every cache (decision 457).
  it('leaves the data version as it is when nothing is due, a resource scheduled for later included', async () => {
    await schedule(new Date(Date.now() + 3_600_000).toISOString(), 'Later pack');
    const version = async () => Number((await sql<{ version: number }>`select version from data_version where id = 1`.execute(t.database.db)).rows[0]!.version);
    const before = await version();
    for (let i = 0; i < 3; i++) expect(await publishDueResources(t.database.db, nowIso())).toEqual([]);
    expect(await version()).toBe(before);
  });
});
