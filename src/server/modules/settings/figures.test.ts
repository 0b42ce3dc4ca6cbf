import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertResource } from '../../testing/resource-fixtures';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { growthPercent, liveFigures } from './figures';

/** The live figures' definitions (docs/decisions/381-live-figures.md), at a fixed moment. */
describe.each(TEST_DATABASES)('live figures on %s', (kind) => {
  let t: TestApp;
  const now = new Date('2026-06-30T12:00:00.000Z');
  const ago = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000 + 60_000).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    // 10 resources long before, 2 within 30 days, 1 more within 7 days, 1 today.
    for (let i = 0; i < 10; i++) await insertResource(t.database, { created_at: '2025-01-01T00:00:00.000Z', download_count: 100 });
    await insertResource(t.database, { created_at: ago(29), download_count: 5 });
    await insertResource(t.database, { created_at: ago(20) });
    await insertResource(t.database, { created_at: ago(6) });
    await insertResource(t.database, { created_at: ago(1) });
    // A draft and a scheduled one, with downloads from when they were public: not resources visitors see.
    const hidden = [await insertResource(t.database, { created_at: ago(1) }), await insertResource(t.database, { created_at: ago(40) })];
    await t.database.db.updateTable('resources').set({ status: 'draft' }).where('id', '=', hidden[0]).execute();
    await t.database.db.updateTable('resources').set({ status: 'scheduled', publish_at: '2026-07-30T00:00:00.000Z' }).where('id', '=', hidden[1]).execute();
    await t.database.db
      .insertInto('download_days')
      .values([
        { day: '2026-06-30', count: 7 },
        { day: '2026-06-29', count: 3 },
        { day: '2026-06-24', count: 10 },
        { day: '2026-06-23', count: 1000 }, // 8 days before: in the month, not the week
        { day: '2026-06-01', count: 20 },
        { day: '2026-05-31', count: 5000 }, // 31 days before: in neither
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts published resources, downloads and growth over the last 1, 7 and 30 days', async () => {
    const live = await liveFigures(t.database.db, now);
    expect(live.resources).toEqual({ value: 14, daily: 1, weekly: 2, monthly: 4 });
    expect(live.downloads).toEqual({ value: 1005, daily: 7, weekly: 20, monthly: 1040 });
    // 4 added in 30 days on top of 10: 40 %; 2 in 7 days on top of 12; 1 today on top of 13.
    expect(live.growth).toEqual({ value: 40, daily: 7.7, weekly: 16.7, monthly: 40 });
  });

  it('says 100 % when everything is new, and 0 % when nothing is', () => {
    expect(growthPercent(3, 0)).toBe(100);
    expect(growthPercent(0, 0)).toBe(0);
    expect(growthPercent(0, 12)).toBe(0);
  });
});
