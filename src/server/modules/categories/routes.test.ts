import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_VALUES, DEMO_CATEGORY_COUNTS } from '../../../contract/categories';
import { categoryListSchema } from '../../../contract/site';
import { seedDemoIfEmpty } from '../../demo/seed';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { insertResource } from '../../testing/resource-fixtures';

describe.each(TEST_DATABASES)('GET /api/categories on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async () => {
    const res = await t.app.inject({ url: '/api/categories' });
    expect(res.statusCode).toBe(200);
    return categoryListSchema.strict().parse(res.json()).items;
  };

  it('lists all 8 categories with zero counts on an empty database', async () => {
    const items = await get();
    expect(items.map((c) => c.value)).toEqual([...CATEGORY_VALUES]);
    expect(items.every((c) => c.count === 0)).toBe(true);
    const video = items.find((c) => c.value === 'video_editing')!;
    const info = CATEGORIES.find((c) => c.value === 'video_editing')!;
    expect(video).toEqual({ value: info.value, slug: 'video-editing', title: info.title, description: info.description, tags: [...info.tags], count: 0 });
  });

  it('counts the demo catalogue exactly, 1,134 public resources', async () => {
    await seedDemoIfEmpty(t.database);
    const items = await get();
    for (const c of items) expect(c.count, c.value).toBe(DEMO_CATEGORY_COUNTS[c.value]);
    expect(items.filter((c) => c.value !== 'premium_resources').reduce((sum, c) => sum + c.count, 0)).toBe(1134);
  });

  it('counts live: a new resource shows up at once', async () => {
    await insertResource(t.database, { category: 'anime_edits' });
    const anime = (await get()).find((c) => c.value === 'anime_edits')!;
    expect(anime.count).toBe(DEMO_CATEGORY_COUNTS.anime_edits + 1);
  });
});
