import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { buildApp } from '../../app';
import type { App } from '../../context';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { purgeExpiredTrash } from './trash';

/**
 * The trash's purge with real time (docs/decisions/399-purging-the-trash.md): two instances on one
 * database, each with its own purger, a short interval and no request in between. What has been in
 * the trash for TRASH_DAYS goes, once; what came later stays, restorable.
 */
const PURGE_MS = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
const TRASH_DAYS = 2;

describe.each(TEST_DATABASES)('purging the trash on %s', (kind) => {
  let t: TestApp;
  let second: App;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind, { trashPurgeMs: PURGE_MS, trashDays: TRASH_DAYS });
    second = await buildApp(t.config, t.database);
    await t.app.ready();
    await second.ready();
    admin = await createAndSignIn(t.app, t.database, 'purger');
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  /** A resource deleted through the API, then dated `daysAgo` in the trash. */
  const deleted = async (title: string, daysAgo: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: admin.cookie },
      payload: { title, description: 'd', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/p.zip', tags: ['Serif'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json<{ id: number }>();
    expect((await t.app.inject({ method: 'DELETE', url: API.adminResource(id), headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    const trashedAt = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
    await t.database.db.updateTable('resources').set({ trashed_at: trashedAt }).where('id', '=', id).execute();
    return id;
  };
  const exists = async (id: number) => (await t.database.db.selectFrom('resources').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('removes what has been in the trash for TRASH_DAYS, with no request, and keeps what came later', async () => {
    const old = await deleted('Old serif', TRASH_DAYS + 0.01);
    const older = await deleted('Older serif', TRASH_DAYS + 5);
    const recent = await deleted('Recent serif', TRASH_DAYS - 0.01);
    // Wait on the database itself until the purgers have run over both old ones.
    const started = Date.now();
    while (Date.now() - started < 10_000 && ((await exists(old)) || (await exists(older)))) await new Promise((r) => setTimeout(r, 50));
    expect(await exists(old)).toBe(false);
    expect(await exists(older)).toBe(false);
    expect(await t.database.db.selectFrom('resource_tags').select('resource_id').where('resource_id', 'in', [old, older]).execute()).toEqual([]);
    // Several more ticks of both instances: the recent one stays, and comes back on restore.
    await new Promise((r) => setTimeout(r, PURGE_MS * 3));
    expect(await exists(recent)).toBe(true);
    const restored = await t.app.inject({ method: 'POST', url: API.adminTrashRestore(recent), headers: { cookie: admin.cookie } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await t.app.inject({ url: API.resource(recent) })).statusCode).toBe(200);
  });

  it('purges a resource once when two purges run at once, and never one that is not in the trash', async () => {
    const a = await deleted('Twin serif', TRASH_DAYS + 1);
    const live = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: admin.cookie },
      payload: { title: 'Live serif', description: 'd', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/p.zip' },
    });
    const liveId = live.json<{ id: number }>().id;
    // Dated long ago but not in the trash: the purge never reads it.
    await t.database.db.updateTable('resources').set({ trashed_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', liveId).execute();
    const now = Date.now();
    const [one, two] = await Promise.all([purgeExpiredTrash(t.database, TRASH_DAYS, now), purgeExpiredTrash(t.database, TRASH_DAYS, now)]);
    // The ticks of the running instances may have taken it first: at most one call purged it.
    expect([...one, ...two].filter((id) => id === a).length).toBeLessThanOrEqual(1);
    expect(await exists(a)).toBe(false);
    expect(await exists(liveId)).toBe(true);
  });

  it('purges by the time given: nothing before TRASH_DAYS, everything after', async () => {
    const id = await deleted('Timed serif', 0);
    const trashedAt = Date.parse((await t.database.db.selectFrom('resources').select('trashed_at').where('id', '=', id).executeTakeFirstOrThrow()).trashed_at!);
    expect(await purgeExpiredTrash(t.database, TRASH_DAYS, trashedAt + TRASH_DAYS * DAY_MS - 1)).toEqual([]);
    expect(await exists(id)).toBe(true);
    expect(await purgeExpiredTrash(t.database, TRASH_DAYS, trashedAt + TRASH_DAYS * DAY_MS)).toEqual([id]);
    expect(await exists(id)).toBe(false);
  });
});
