import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_VALUES, DEMO_CATEGORY_COUNTS } from '../../../contract/categories';
import { PAGE_SIZE, PAGE_SIZE_MAX, SORT_OPTIONS } from '../../../contract/constants';
import { resourceListSchema, type Sort } from '../../../contract/resources';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { insertResource, REFERENCE_ORDER, type ReferenceRow } from '../../testing/resource-fixtures';

const SORT_KEY: Record<Sort, (r: ReferenceRow) => string> = {
  popular: (r) => `${r.popularity}/${r.download_count}`,
  newest: (r) => r.created_at,
  downloads: (r) => String(r.download_count),
};

describe.each(TEST_DATABASES)('keyset pagination over the demo catalogue on %s', (kind) => {
  let t: TestApp;
  let rows: ReferenceRow[];

  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: true });
    rows = (
      await t.database.db
        .selectFrom('resources')
        .select(['id', 'category', 'title', 'description', 'tags', 'popularity', 'download_count', 'created_at'])
        .execute()
    ).map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[] }));
  });
  afterAll(async () => {
    await t.close();
  });

  /** Follows nextCursor to the end; checks every page on the way. */
  async function walk(query: string, limit: number) {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let total = -1;
    do {
      const url: string = `/api/resources?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const page = resourceListSchema.parse(res.json());
      if (total === -1) total = page.total;
      expect(page.total, 'total ignores the cursor').toBe(total);
      if (page.nextCursor) expect(page.items).toHaveLength(limit);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(2000);
    } while (cursor);
    return { ids: seen, total };
  }

  function expectExactWalk(walked: { ids: number[]; total: number }, expected: ReferenceRow[], sort: Sort) {
    expect(new Set(walked.ids).size, 'no page repeats a resource').toBe(walked.ids.length);
    expect(walked.total).toBe(expected.length);
    expect(walked.ids, 'no gaps and the promised order').toEqual([...expected].sort(REFERENCE_ORDER[sort]).map((r) => r.id));
  }


  it.each(SORT_OPTIONS)('walks every category with sort=%s, 7 per page, through ties, with no repeat and no gap', async (sort) => {
    for (const category of CATEGORY_VALUES) {
      const expected = rows.filter((r) => r.category === category);
      expect(expected).toHaveLength(DEMO_CATEGORY_COUNTS[category]);
      const walked = await walk(`category=${category}&sort=${sort}`, 7);
      expectExactWalk(walked, expected, sort);
      if (category !== 'premium_resources') {
        // The demo data must contain equal sort keys, or this test would not prove the tie-breaker.
        const keys = expected.map(SORT_KEY[sort]);
        expect(new Set(keys).size, `${category} has ties on ${sort}`).toBeLessThan(keys.length);
      }
    }
  });

  it.each(SORT_OPTIONS)('walks filtered lists (q, tags, both) and the whole catalogue with sort=%s', async (sort) => {
    const has = (r: ReferenceRow, q: string) =>
      [r.title, r.description, ...r.tags].some((s) => s.toLowerCase().includes(q.toLowerCase()));
    const anyTag = (r: ReferenceRow, tags: string[]) => r.tags.some((x) => tags.includes(x.toLowerCase()));
    const cases: [string, ReferenceRow[], number][] = [
      ['q=lut', rows.filter((r) => has(r, 'lut')), 17],
      ['tags=Transitions,film', rows.filter((r) => anyTag(r, ['transitions', 'film'])), 23],
      ['category=sound-effects&q=whoosh&tags=impacts,whoosh', rows.filter((r) => r.category === 'sound_effects' && has(r, 'whoosh') && anyTag(r, ['impacts', 'whoosh'])), 3],
      ['q=cinematic', rows.filter((r) => has(r, 'cinematic')), 19],
      ['', rows, 50],
    ];
    for (const [query, expected, limit] of cases) {
      expect(expected.length, `${query} selects something`).toBeGreaterThan(0);
      expectExactWalk(await walk(`${query}&sort=${sort}`, limit), expected, sort);
    }
  });

  it(`serves ${PAGE_SIZE} by default and at most ${PAGE_SIZE_MAX}`, async () => {
    const first = resourceListSchema.parse((await t.app.inject({ url: '/api/resources' })).json());
    expect(first.items).toHaveLength(PAGE_SIZE);
    expect(first.total).toBe(rows.length);
    expect(first.nextCursor).not.toBeNull();
    const max = resourceListSchema.parse((await t.app.inject({ url: `/api/resources?limit=${PAGE_SIZE_MAX}` })).json());
    expect(max.items).toHaveLength(PAGE_SIZE_MAX);
  });

  it('does not repeat or skip existing resources when a new one arrives mid-walk', async () => {
    const category = 'color_grading';
    const before = rows.filter((r) => r.category === category).sort(REFERENCE_ORDER.newest);
    const first = resourceListSchema.parse(
      (await t.app.inject({ url: `/api/resources?category=${category}&sort=newest&limit=10` })).json(),
    );
    const newId = await insertResource(t.database, { category, created_at: new Date().toISOString() });
    const rest = await walkFrom(`category=${category}&sort=newest`, 10, first.nextCursor!);
    const all = [...first.items.map((r) => r.id), ...rest];
    expect(all).not.toContain(newId);
    expect(all).toEqual(before.map((r) => r.id));
  });

  async function walkFrom(query: string, limit: number, cursor: string) {
    const ids: number[] = [];
    let next: string | null = cursor;
    while (next) {
      const page = resourceListSchema.parse((await t.app.inject({ url: `/api/resources?${query}&limit=${limit}&cursor=${next}` })).json());
      ids.push(...page.items.map((r) => r.id));
      next = page.nextCursor;
    }
    return ids;
  }
});
