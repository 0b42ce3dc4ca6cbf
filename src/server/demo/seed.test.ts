import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_VALUES, DEMO_CATEGORY_COUNTS } from '../../contract/categories';
import { API } from '../../contract/api-paths';
import { DOWNLOAD_RANGES, downloadStatsSchema } from '../../contract/downloads';
import { downloadsDb } from '../modules/downloads/queries';
import { createAndSignIn } from '../testing/auth-helpers';
import { insertResource } from '../testing/resource-fixtures';
import { createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';
import { dayOf } from '../time';
import { buildDemoData, demoApps } from './demo-data';
import { DEMO_MARKER_KEY, seedDemoIfEmpty } from './seed';

const DEMO_TOTAL = Object.values(DEMO_CATEGORY_COUNTS).reduce((a, b) => a + b, 0);

describe('demo data', () => {
  it('is deterministic for a given moment', () => {
    const now = new Date('2025-03-01T12:00:00Z');
    expect(buildDemoData({ now })).toEqual(buildDemoData({ now }));
    expect(buildDemoData({ now, seed: 7 }).resources.map((r) => r.title)).not.toEqual(
      buildDemoData({ now }).resources.map((r) => r.title),
    );
  });

  it('has the spec counts: 1,134 public + 12 premium', () => {
    const { resources } = buildDemoData();
    expect(DEMO_TOTAL - DEMO_CATEGORY_COUNTS.premium_resources).toBe(1134);
    expect(resources).toHaveLength(1146);
  });

  it('lists the apps its texts name, as an owner would: a LUT pack also any LUT-capable editor; fonts and sounds by their files', () => {
    const ids = (json: string | null) => (json === null ? null : (JSON.parse(json) as { id: string; min_version: null }[]).map((a) => a.id));
    expect(ids(demoApps('video_editing', '20 neon glitch transitions for Premiere Pro and CapCut. Drag and drop.'))).toEqual(['premiere-pro']);
    expect(ids(demoApps('color_grading', '12 moody LUTs for DaVinci Resolve and Final Cut Pro.'))).toEqual(['davinci-resolve', 'final-cut-pro', 'any-editor']);
    expect(ids(demoApps('photo_editing', '8 airy presets for Lightroom Mobile and Camera Raw.'))).toEqual(['lightroom', 'photoshop']);
    expect(ids(demoApps('premium_resources', '120 film LUTs with matching Resolve power grades.'))).toEqual(['davinci-resolve']);
    expect(demoApps('motion_graphics', '40 animated elements: arrows, callouts and icons for Apple Motion.')).toBeNull();
    expect(demoApps('typography', 'A bold display face for Premiere Pro and After Effects titles.')).toBeNull();
    expect(demoApps('sound_effects', '200 whooshes for Premiere Pro.')).toBeNull();
    // Every category an app filter serves has resources for several apps.
    const { resources } = buildDemoData();
    for (const category of ['video_editing', 'photo_editing', 'color_grading', 'motion_graphics', 'anime_edits'] as const) {
      const named = new Set(resources.filter((r) => r.category === category).flatMap((r) => ids(r.apps) ?? []));
      expect(named.size, category).toBeGreaterThanOrEqual(2);
    }
  });

  it('has ties on every sort key, so pagination tests exercise the id tie-breaker', () => {
    const { resources } = buildDemoData();
    for (const category of CATEGORY_VALUES.filter((c) => c !== 'premium_resources')) {
      const rows = resources.filter((r) => r.category === category);
      const dup = (key: (r: (typeof rows)[number]) => string) => new Set(rows.map(key)).size < rows.length;
      expect(dup((r) => `${r.popularity}/${r.download_count}`), category).toBe(true);
      expect(dup((r) => String(r.download_count)), category).toBe(true);
      expect(dup((r) => r.created_at), category).toBe(true);
    }
  });
});

describe.each(TEST_DATABASES)('seedDemoIfEmpty on %s', (kind) => {
  let t: TestApp;
  const now = new Date();
  beforeAll(async () => {
    t = await createTestApp(kind);
    // A database with content is left alone (one PostgreSQL instance per file is slow enough).
    await insertResource(t.database, { title: 'Mine' });
    expect(await seedDemoIfEmpty(t.database, { now })).toBe(false);
    expect(await t.database.db.selectFrom('resources').select('title').execute()).toEqual([{ title: 'Mine' }]);
    expect(await t.database.db.selectFrom('announcements').selectAll().execute()).toEqual([]);
    await t.database.db.deleteFrom('resources').execute();

    // How fast it is lives in the benchmark (bench/seed.ts), not here.
    expect(await seedDemoIfEmpty(t.database, { now })).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  it('inserts exactly the per-category counts', async () => {
    const rows = await t.database.db
      .selectFrom('resources')
      .select(['category', 'is_premium', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['category', 'is_premium'])
      .execute();
    const counts = Object.fromEntries(rows.map((r) => [`${r.category}:${r.is_premium}`, Number(r.n)]));
    const expected = Object.fromEntries(
      CATEGORY_VALUES.map((c) => [`${c}:${c === 'premium_resources' ? 1 : 0}`, DEMO_CATEGORY_COUNTS[c]]),
    );
    expect(counts).toEqual(expected);
  });

  it('gives every resource a served thumbnail, an https download and tags from its category', async () => {
    const rows = await t.database.db.selectFrom('resources').selectAll().execute();
    const tagRows = await t.database.db.selectFrom('resource_tags').select(['resource_id', 'tag']).execute();
    const tagIndex = new Map<number, string[]>();
    for (const r of tagRows) tagIndex.set(r.resource_id, [...(tagIndex.get(r.resource_id) ?? []), r.tag]);
    for (const r of rows) {
      expect(r.thumbnail_url).toBe(`/thumbnails/${r.id}.svg`);
      expect(r.download_url).toMatch(/^https:\/\//);
      const tags: string[] = JSON.parse(r.tags);
      const allowed = CATEGORIES.find((c) => c.value === r.category)!.tags;
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) expect(allowed).toContain(tag);
      expect([...(tagIndex.get(r.id) ?? [])].sort()).toEqual(tags.map((x) => x.toLowerCase()).sort());
      expect(r.title.length).toBeGreaterThan(3);
      expect(r.description.length).toBeGreaterThan(30);
    }
  });

  it('spreads created_at over about two years, none in the future', async () => {
    const rows = await t.database.db.selectFrom('resources').select(['created_at', 'updated_at']).execute();
    const times = rows.map((r) => Date.parse(r.created_at));
    const dayMs = 86_400_000;
    expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
    expect(Math.min(...times)).toBeLessThan(now.getTime() - 600 * dayMs);
    expect(Math.min(...times)).toBeGreaterThan(now.getTime() - 740 * dayMs);
    for (const r of rows) expect(r.updated_at >= r.created_at).toBe(true);
    expect(new Set(rows.map((r) => r.created_at.slice(0, 7))).size).toBeGreaterThanOrEqual(24);
  });

  it("filters by the apps the resources' texts name: each one listed names its app", async () => {
    const res = await t.app.inject({ url: `${API.resources}?category=photo-editing&app=lightroom&facets=true&limit=100` });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ items: { description: string; apps: { id: string }[] }[]; total: number; facets: { app: { value: string; count: number }[] } }>();
    expect(list.total).toBeGreaterThan(10);
    for (const item of list.items) {
      expect(item.description).toContain('Lightroom');
      expect(item.apps.map((a) => a.id)).toContain('lightroom');
    }
    expect(list.facets.app.map((a) => a.value)).toEqual(expect.arrayContaining(['lightroom', 'photoshop']));
  });

  it('adds 3 active announcements', async () => {
    const announcements = await t.database.db.selectFrom('announcements').selectAll().execute();
    expect(announcements).toHaveLength(3);
    expect(announcements.every((a) => Number(a.is_active) === 1)).toBe(true);
  });

  it('download statistics agree with the totals: per resource, per day, by category, over every range', async () => {
    const { db } = t.database;
    const resources = await db.selectFrom('resources').select(['id', 'category', 'download_count', 'created_at']).execute();
    const perResource = await downloadsDb(db).selectFrom('resource_download_days').selectAll().execute();
    const sums = new Map<number, number>();
    const siteDays = new Map<string, number>();
    for (const d of perResource) {
      sums.set(Number(d.resource_id), (sums.get(Number(d.resource_id)) ?? 0) + Number(d.count));
      siteDays.set(d.day, (siteDays.get(d.day) ?? 0) + Number(d.count));
    }
    // Every resource's all-time count is the sum of its days, none of them before it was added or after today.
    for (const r of resources) expect(sums.get(Number(r.id)) ?? 0, `resource ${r.id}`).toBe(Number(r.download_count));
    const added = new Map(resources.map((r) => [Number(r.id), r.created_at.slice(0, 10)]));
    for (const d of perResource) expect(d.day >= added.get(Number(d.resource_id))! && d.day <= dayOf(now), `${d.resource_id} ${d.day}`).toBe(true);
    // The site's days are the sums of the resources' days.
    const days = await db.selectFrom('download_days').selectAll().orderBy('day').execute();
    expect(new Map(days.map((d) => [d.day, Number(d.count)]))).toEqual(siteDays);

    // What the admin reads: each range's total equals its by-category breakdown, and its series has downloads from its first day.
    const admin = await createAndSignIn(t.app, t.database, 'stats_admin');
    for (const range of DOWNLOAD_RANGES) {
      const res = await t.app.inject({ method: 'GET', url: `${API.adminDownloads}?days=${range}`, headers: { cookie: admin.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      const stats = downloadStatsSchema.parse(res.json());
      expect(stats.days).toHaveLength(range);
      expect(stats.days.at(-1)!.day).toBe(dayOf(now));
      expect(stats.days.every((d) => d.count > 0), `${range} days`).toBe(true);
      expect(stats.categories.reduce((s, c) => s + c.count, 0), `${range} days`).toBe(stats.total);
      expect(stats.categories.every((c) => c.count > 0), `${range} days`).toBe(true);
    }
    // The most downloaded resource has downloads in the last year (and at most its total).
    const top = resources.reduce((a, b) => (Number(b.download_count) > Number(a.download_count) ? b : a));
    const res = await t.app.inject({ method: 'GET', url: `${API.adminResourceDownloads(Number(top.id))}?days=365`, headers: { cookie: admin.cookie } });
    const year = res.json<{ range_total: number; total: number }>();
    expect(year.range_total).toBeGreaterThan(0);
    expect(year.range_total).toBeLessThanOrEqual(year.total);
  });

  it('seeds only once: a second call, or one after everything was deleted, adds nothing', async () => {
    const before = await t.database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(await seedDemoIfEmpty(t.database)).toBe(false);
    const after = await t.database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const marker = await t.database.db.selectFrom('settings').select('key').where('key', '=', DEMO_MARKER_KEY).execute();
    expect(marker).toHaveLength(1);

    // An admin who deleted the demo content does not get it back on the next restart.
    await t.database.db.deleteFrom('resources').execute();
    await t.database.db.deleteFrom('announcements').execute();
    expect(await seedDemoIfEmpty(t.database)).toBe(false);
    expect(await t.database.db.selectFrom('resources').select('id').execute()).toEqual([]);
  });

  it('leaves the id sequence ready for the next resource', async () => {
    const id = await insertResource(t.database, { title: 'After the seed' });
    expect(id).toBe(DEMO_TOTAL + 1);
  });
});
