import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateResources } from '../../../../scripts/generate-resources';
import { sitemapPaths } from '../../../contract/pages';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { insertResource } from '../../testing/resource-fixtures';
import { SITEMAP_MAX_URLS, SITEMAP_PAGE_URLS } from './sitemap';

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
const BASE = 'https://vault.example';

/** Copies of the generated resources the paging test adds in one INSERT … SELECT. */
const COPIES = 100;
const GENERATED = (SITEMAP_MAX_URLS + 500) / (COPIES + 1);

describe.each(TEST_DATABASES)('sitemap.xml on %s', (kind) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await createTestApp(kind, { publicUrl: BASE });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('one list while it fits: every page, every resource at its canonical address with lastmod', async () => {
    const a = await insertResource(t.database, { title: 'First & Best', created_at: '2025-01-02T03:04:05.000Z' });
    const b = await insertResource(t.database, { title: 'Second' });
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(locs(res.body)).toEqual([...sitemapPaths().map((p) => BASE + p), `${BASE}/resources/${a}-first-and-best`, `${BASE}/resources/${b}-second`]);
    expect(res.body).toContain(`<url><loc>${BASE}/resources/${a}-first-and-best</loc><lastmod>2025-01-02T03:04:05.000Z</lastmod></url>`);
    // A deleted resource leaves the list.
    await t.database.db.deleteFrom('resources').where('id', '=', b).execute();
    expect(locs((await get('/sitemap.xml')).body)).not.toContain(`${BASE}/resources/${b}-second`);
  });

  it(`past ${SITEMAP_MAX_URLS.toLocaleString('en')} URLs: an index of paged sitemaps, each within the limit, every resource once`, { timeout: 300_000 }, async () => {
    // Past the limit: SITEMAP_MAX_URLS + 500 resources. Generating that many one catalogue at a
    // time (with their tags and search text, which a sitemap does not read) took most of this
    // file's time; generate 1/101 of them (real titles, for the slugs) and copy those 100 times,
    // with new ids, in one statement. The copies' search text is empty: indexing 50,000 texts for
    // search (PostgreSQL's trigram indexes, SQLite's FTS5) was most of what was left.
    const maxBefore = Number((await t.database.db.selectFrom('resources').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow()).max ?? 0);
    await generateResources(t.database, GENERATED);
    await sql`insert into resources (title, description, category, thumbnail_url, download_url, is_premium, tags, created_at, updated_at, search_text)
      with recursive copies(n) as (select 1 union all select n + 1 from copies where n < ${COPIES})
      select r.title, r.description, r.category, r.thumbnail_url, r.download_url, r.is_premium, r.tags, r.created_at, r.updated_at, ''
      from copies cross join resources r where r.id > ${maxBefore} order by copies.n, r.id`.execute(t.database.db);
    const { count, max } = await t.database.db
      .selectFrom('resources')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('id').as('max')])
      .executeTakeFirstOrThrow();
    const root = await get('/sitemap.xml');
    expect(root.statusCode).toBe(200);
    expect(root.body).toMatch(/<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const pages = Math.ceil(Number(max) / SITEMAP_PAGE_URLS);
    expect(pages).toBe(6);
    expect(locs(root.body)).toEqual([`${BASE}/sitemaps/pages.xml`, ...Array.from({ length: pages }, (_, i) => `${BASE}/sitemaps/resources-${i + 1}.xml`)]);

    expect(locs((await get('/sitemaps/pages.xml')).body)).toEqual(sitemapPaths().map((p) => BASE + p));
    const seen = new Set<string>();
    for (let n = 1; n <= pages; n++) {
      const page = await get(`/sitemaps/resources-${n}.xml`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/<urlset /);
      const urls = locs(page.body);
      expect(urls.length).toBeLessThanOrEqual(SITEMAP_PAGE_URLS);
      expect(page.body.match(/<lastmod>/g)?.length).toBe(urls.length);
      // One assertion over the page (10,000 expect() calls cost seconds): it names every bad URL.
      expect(urls.filter((u) => !/^https:\/\/vault\.example\/resources\/[1-9]\d*-[a-z0-9-]+$/.test(u))).toEqual([]);
      for (const u of urls) seen.add(u);
    }
    expect(seen.size).toBe(Number(count));
    for (const url of [`/sitemaps/resources-${pages + 1}.xml`, '/sitemaps/resources-0.xml', '/sitemaps/other.xml', '/sitemaps/resources-1.xml.gz']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });
});
