import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcementListSchema } from '../../../contract/announcements';
import { BELL_ANNOUNCEMENT_LIMIT } from '../../../contract/constants';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';

describe.each(TEST_DATABASES)('GET /api/announcements/active on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async () => {
    const res = await t.app.inject({ url: '/api/announcements/active' });
    expect(res.statusCode).toBe(200);
    return announcementListSchema.parse(res.json()).items;
  };
  const add = async (message: string, created_at: string, is_active = 1) =>
    Number(
      (
        await t.database.db
          .insertInto('announcements')
          .values({ message, created_at, is_active, admin_id: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('is empty when there are none', async () => {
    expect(await get()).toEqual([]);
  });

  it(`shows at most ${BELL_ANNOUNCEMENT_LIMIT} active ones, newest first, ties by id`, async () => {
    const ids: Record<string, number> = {};
    ids.oldest = await add('oldest', '2024-01-01T00:00:00.000Z');
    ids.old = await add('old', '2024-01-02T00:00:00.000Z');
    ids.mid = await add('mid', '2024-01-03T00:00:00.000Z');
    ids.tieA = await add('tie a', '2024-01-04T00:00:00.000Z');
    ids.tieB = await add('tie b', '2024-01-04T00:00:00.000Z');
    ids.newer = await add('newer', '2024-01-05T00:00:00.000Z');
    ids.newest = await add('newest', '2024-01-06T00:00:00.000Z');
    await add('inactive and newest', '2024-02-01T00:00:00.000Z', 0);
    const items = await get();
    expect(items.map((a) => a.message)).toEqual(['newest', 'newer', 'tie b', 'tie a', 'mid']);
    expect(items.every((a) => a.is_active === true && a.admin_id === null)).toBe(true);
    expect(items[0]).toEqual({ id: ids.newest, message: 'newest', is_active: true, admin_id: null, created_at: '2024-01-06T00:00:00.000Z', starts_at: null, ends_at: null });
  });

  it('shows those inside their window only: started (or no start) and not ended (or no end)', async () => {
    await t.database.db.deleteFrom('announcements').execute();
    const hour = 3_600_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const windowed = (message: string, starts_at: string | null, ends_at: string | null) =>
      t.database.db.insertInto('announcements').values({ message, created_at: '2024-03-01T00:00:00.000Z', is_active: 1, admin_id: null, starts_at, ends_at }).execute();
    await windowed('open', null, null);
    await windowed('started', at(-hour), null);
    await windowed('inside', at(-hour), at(hour));
    await windowed('ends later', null, at(hour));
    await windowed('not yet', at(hour), null);
    await windowed('ended', null, at(-hour));
    await windowed('window passed', at(-2 * hour), at(-hour));
    expect((await get()).map((a) => a.message).sort()).toEqual(['ends later', 'inside', 'open', 'started']);
  });
});
