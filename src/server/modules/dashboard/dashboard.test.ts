import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { CATEGORY_VALUES } from '../../../contract/categories';
import { DASHBOARD_DAYS } from '../../../contract/constants';
import { dashboardSchema } from '../../../contract/dashboard';
import { downloadStatsSchema } from '../../../contract/downloads';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { dayOf } from '../../time';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { dashboardDays } from './queries';

const DAY = 24 * 60 * 60 * 1000;

describe('dashboardDays', () => {
  it('covers the window ending today, oldest first, across a month and year boundary', () => {
    const days = dashboardDays(new Date('2025-01-02T23:59:59.999Z'));
    expect(days).toHaveLength(DASHBOARD_DAYS);
    expect(days[0]).toBe('2024-12-04');
    expect(days.at(-1)).toBe('2025-01-02');
    expect(new Set(days).size).toBe(DASHBOARD_DAYS);
  });
});

describe.each(TEST_DATABASES)('admin dashboard on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  let editor: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, 'dash_root', { superUser: true });
    editor = await createAndSignIn(t.app, t.database, 'dash_editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const downloads = async (who: SignedIn) => {
    const res = await t.app.inject({ url: API.adminDownloads, headers: { cookie: who.cookie } });
    expect(res.statusCode).toBe(200);
    return downloadStatsSchema.parse(res.json());
  };
  const get = async (who: SignedIn) => {
    const res = await t.app.inject({ url: API.dashboard, headers: { cookie: who.cookie } });
    expect(res.statusCode).toBe(200);
    return dashboardSchema.parse(res.json());
  };

  it('answers zeros for an empty site, with every category and every day present', async () => {
    const d = await get(root);
    expect(d).toMatchObject({ total_resources: 0, active_announcements: 0, total_downloads: 0, total_admins: 2, top_resources: [] });
    expect(d.categories).toEqual(CATEGORY_VALUES.map((category) => ({ category, count: 0 })));
    const { days } = await downloads(root);
    expect(days).toHaveLength(DASHBOARD_DAYS);
    expect(days.every((x) => x.count === 0)).toBe(true);
    expect(days.at(-1)!.day).toBe(dayOf());
  });

  it('aggregates resources, downloads, announcements and days; Total Admins only for super users', async () => {
    const db = t.database.db;
    const now = new Date().toISOString();
    const resources: [string, number][] = [
      ['video_editing', 50],
      ['video_editing', 900],
      ['typography', 900],
      ['typography', 10],
      ['anime_edits', 400],
      ['premium_resources', 75],
      ['premium_resources', 0],
    ];
    const ids: number[] = [];
    for (const [i, [category, downloads]] of resources.entries()) {
      const r = await db
        .insertInto('resources')
        .values({ title: `R${i}`, description: 'd', category, thumbnail_url: '/t.svg', download_url: 'https://example.com/f', is_premium: 0, download_count: downloads, popularity: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(r.id);
    }
    await db
      .insertInto('announcements')
      .values([
        { message: 'a', is_active: 1, admin_id: null, created_at: now },
        { message: 'b', is_active: 1, admin_id: null, created_at: now },
        { message: 'c', is_active: 0, admin_id: null, created_at: now },
      ])
      .execute();
    const today = Date.now();
    await db
      .insertInto('download_days')
      .values([
        { day: dayOf(new Date(today)), count: 7 },
        { day: dayOf(new Date(today - 3 * DAY)), count: 3 },
        { day: dayOf(new Date(today - (DASHBOARD_DAYS - 1) * DAY)), count: 11 },
        { day: dayOf(new Date(today - DASHBOARD_DAYS * DAY)), count: 999 },
      ])
      .execute();

    const d = await get(root);
    expect(d.total_resources).toBe(7);
    expect(d.total_downloads).toBe(2335);
    expect(d.active_announcements).toBe(2);
    expect(d.total_admins).toBe(2);
    expect(Object.fromEntries(d.categories.map((c) => [c.category, c.count]))).toEqual({
      video_editing: 2,
      photo_editing: 0,
      sound_effects: 0,
      color_grading: 0,
      typography: 2,
      motion_graphics: 0,
      anime_edits: 1,
      premium_resources: 2,
    });
    // Ties on downloads go to the lower id.
    expect(d.top_resources).toEqual([
      { id: ids[1], title: 'R1', category: 'video_editing', download_count: 900 },
      { id: ids[2], title: 'R2', category: 'typography', download_count: 900 },
      { id: ids[4], title: 'R4', category: 'anime_edits', download_count: 400 },
      { id: ids[5], title: 'R5', category: 'premium_resources', download_count: 75 },
      { id: ids[0], title: 'R0', category: 'video_editing', download_count: 50 },
    ]);
    // The downloads chart's numbers (its default range) come from GET /api/admin/downloads.
    const perDay = (await downloads(root)).days;
    expect(perDay).toHaveLength(DASHBOARD_DAYS);
    expect(perDay.map((x) => x.day)).toEqual([...perDay.map((x) => x.day)].sort());
    expect(perDay[0]).toEqual({ day: dayOf(new Date(today - (DASHBOARD_DAYS - 1) * DAY)), count: 11 });
    expect(perDay.at(-1)).toEqual({ day: dayOf(new Date(today)), count: 7 });
    expect(perDay.at(-4)!.count).toBe(3);
    expect(perDay.reduce((s, x) => s + x.count, 0)).toBe(21);

    const asEditor = await get(editor);
    expect(asEditor.total_admins).toBeNull();
    expect({ ...asEditor, total_admins: 2 }).toEqual(d);
  });
});
