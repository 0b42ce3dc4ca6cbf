import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_VALUES, DEMO_CATEGORY_COUNTS } from '../../contract/categories';
import { DASHBOARD_DAYS } from '../../contract/constants';
import { insertResource } from '../testing/resource-fixtures';
import { createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';
import { dayOf } from '../time';
import { buildDemoData } from './demo-data';
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
  let seconds = 0;
  const now = new Date();
  beforeAll(async () => {
    t = await createTestApp(kind);
    // A database with content is left alone (one PostgreSQL instance per file is slow enough).
    await insertResource(t.database, { title: 'Mine' });
    expect(await seedDemoIfEmpty(t.database, { now })).toBe(false);
    expect(await t.database.db.selectFrom('resources').select('title').execute()).toEqual([{ title: 'Mine' }]);
    expect(await t.database.db.selectFrom('announcements').selectAll().execute()).toEqual([]);
    await t.database.db.deleteFrom('resources').execute();

    const started = performance.now();
    expect(await seedDemoIfEmpty(t.database, { now })).toBe(true);
    seconds = (performance.now() - started) / 1000;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is fast', () => {
    // The issue asks for under 2 s on SQLite; in-process PGlite is slower but must stay quick.
    expect(seconds).toBeLessThan(kind === 'sqlite' ? 2 : 10);
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

  it('adds 3 active announcements and 30 days of download counts up to today', async () => {
    const announcements = await t.database.db.selectFrom('announcements').selectAll().execute();
    expect(announcements).toHaveLength(3);
    expect(announcements.every((a) => Number(a.is_active) === 1)).toBe(true);
    const days = await t.database.db.selectFrom('download_days').selectAll().orderBy('day').execute();
    expect(days).toHaveLength(DASHBOARD_DAYS);
    expect(days.at(-1)!.day).toBe(dayOf(now));
    expect(days.every((d) => d.count > 0)).toBe(true);
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
