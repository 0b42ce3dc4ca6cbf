import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { downloadStatsSchema, resourceDownloadStatsSchema } from '../../../contract/downloads';
import { errorBodySchema } from '../../../contract/errors';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { dayOf } from '../../time';
import { createAndSignIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';

const DAY_MS = 86_400_000;

describe.each(TEST_DATABASES)('download statistics on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let a: number;
  let b: number;
  let c: number;
  const now = Date.now();
  const daysAgo = (n: number) => dayOf(new Date(now - n * DAY_MS));
  let ip = 0;

  /** `n` downloads of `id` by `n` visitors, `ago` days ago. */
  const download = async (id: number, n: number, ago: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: now - ago * DAY_MS });
    try {
      for (let i = 0; i < n; i++) {
        const res = await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: { ...BROWSER, 'x-forwarded-for': `192.0.2.${ip++ % 250}` } });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      vi.useRealTimers();
    }
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: true, downloads: { counting: 'unique', rateLimit: 0 } });
    cookie = (await createAndSignIn(t.app, t.database, `stats-${kind}`)).cookie;
    a = await insertResource(t.database, { category: 'video_editing', download_count: 100 });
    b = await insertResource(t.database, { category: 'video_editing', download_count: 0 });
    c = await insertResource(t.database, { category: 'typography', download_count: 5 });
    await download(a, 3, 0);
    await download(a, 2, 10);
    await download(b, 4, 0);
    await download(c, 1, 100);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every download per day over the chosen range, and by category', async () => {
    const week = downloadStatsSchema.strict().parse((await get('/api/admin/downloads?days=7')).json());
    expect(week.days).toHaveLength(7);
    expect(week.days.at(-1)).toEqual({ day: daysAgo(0), count: 7 });
    expect(week.total).toBe(7);
    expect(week.categories.find((x) => x.category === 'video_editing')?.count).toBe(7);
    expect(week.categories.find((x) => x.category === 'typography')?.count).toBe(0);

    const month = downloadStatsSchema.parse((await get('/api/admin/downloads')).json());
    expect(month.days).toHaveLength(30);
    expect(month.days.find((d) => d.day === daysAgo(10))?.count).toBe(2);
    expect(month.total).toBe(9);

    const year = downloadStatsSchema.parse((await get('/api/admin/downloads?days=365')).json());
    expect(year.days).toHaveLength(365);
    expect(year.total).toBe(10);
    expect(year.categories.find((x) => x.category === 'typography')?.count).toBe(1);
    expect(year.days[0].day).toBe(daysAgo(364));
  });

  it("gives one resource's total, rank in its category and per-day counts", async () => {
    const res = await get(`/api/admin/resources/${a}/downloads?days=30`);
    const s = resourceDownloadStatsSchema.strict().parse(res.json());
    expect(s).toMatchObject({ id: a, category: 'video_editing', total: 105, rank: 1, range_total: 5, counting: 'unique' });
    expect(s.category_size).toBeGreaterThanOrEqual(2);
    expect(s.days.find((d) => d.day === daysAgo(10))?.count).toBe(2);
    expect(s.days.at(-1)).toEqual({ day: daysAgo(0), count: 3 });
    const second = resourceDownloadStatsSchema.parse((await get(`/api/admin/resources/${b}/downloads?days=7`)).json());
    expect(second.rank).toBe(2);
    expect(second.range_total).toBe(4);
  });

  it('exports the per-day counts as a CSV attachment', async () => {
    const res = await get(`/api/admin/resources/${a}/downloads.csv?days=30`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="resource-${a}-downloads-${daysAgo(29)}-to-${daysAgo(0)}.csv"; filename*=UTF-8''resource-${a}-downloads-${daysAgo(29)}-to-${daysAgo(0)}.csv`,
    );
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('day,downloads');
    expect(lines).toHaveLength(32); // header, 30 days, and the final line break
    expect(lines).toContain(`${daysAgo(10)},2`);
    expect(lines[30]).toBe(`${daysAgo(0)},3`);
    expect(lines[31]).toBe('');
  });

  it('refuses other ranges, unknown resources and visitors', async () => {
    for (const url of ['/api/admin/downloads?days=8', `/api/admin/resources/${a}/downloads?days=0`, `/api/admin/resources/${a}/downloads.csv?days=abc`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(errorBodySchema.strict().parse(res.json()).error.code).toBe('VALIDATION_ERROR');
    }
    for (const url of ['/api/admin/resources/2147483647/downloads', '/api/admin/resources/2147483647/downloads.csv']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    for (const url of ['/api/admin/downloads', `/api/admin/resources/${a}/downloads`, `/api/admin/resources/${a}/downloads.csv`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});

// The mode does not depend on the database: SQLite is enough.
describe('download statistics name the counting mode', () => {
  it("says 'every' when DOWNLOAD_COUNTING=every", async () => {
    const t = await createTestApp('sqlite', { downloads: { counting: 'every', rateLimit: 0 } });
    try {
      const { cookie } = await createAndSignIn(t.app, t.database, 'stats-every');
      const id = await insertResource(t.database, {});
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/resources/${id}/downloads`, headers: { cookie } });
      expect(resourceDownloadStatsSchema.strict().parse(res.json()).counting).toBe('every');
    } finally {
      await t.close();
    }
  });
});
