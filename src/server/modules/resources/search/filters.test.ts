import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryToSlug, type CategoryValue } from '../../../../contract/categories';
import { SORT_OPTIONS } from '../../../../contract/constants';
import { errorBodySchema } from '../../../../contract/errors';
import type { ResourceFacts } from '../../../../contract/facts';
import { DURATION_BUCKETS, FORMAT_FACET_MAX, MIN_HEIGHTS, type PublicResource, type ResourceFacets, resourceListSchema, type Sort } from '../../../../contract/resources';
import { APP_IDS } from '../../../../contract/apps';
import { ORIENTATIONS } from '../../../../contract/facts';
import { CATEGORIES } from '../../../../contract/categories';
import { generatedFacts } from '../../../../../scripts/generated-facts';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../../testing/test-utils';
import { loadFiles } from '../../files/stored';
import { listingExtensions } from '../../listings/answers';
import { PUBLIC_COLUMNS, type PublicRow } from '../columns';
import { fileIds, tagKeys, toPublicResource } from '../mappers';
import { REFERENCE_ORDER, type ReferenceRow } from '../../../testing/resource-fixtures';
import { isPublicRow } from '../visibility';
import { createResourceSearch, type FactFilter, SEARCH_LIMITS } from '.';
import { NOT_FORMATS, writeStaleFacets } from './facet-rows';

/** A public resource as the API shows it, with the extensions inside its download. */
type Ref = ReferenceRow & { facts: ResourceFacts | null; apps: string[]; formats: string[] };

interface Query {
  category?: CategoryValue;
  q?: string;
  tags?: string[];
  facts: FactFilter;
}

/** The promised semantics, computed without SQL (contract/resources.ts). */
function holds(r: Ref, q: Query, skip?: string): boolean {
  const text = q.q?.toLowerCase();
  const tags = q.tags ? tagKeys(q.tags) : [];
  const f = q.facts;
  const sized = r.facts && (r.facts.kind === 'video' || r.facts.kind === 'image-pair') ? r.facts : null;
  const timed = r.facts && (r.facts.kind === 'video' || r.facts.kind === 'audio') ? r.facts : null;
  return (
    (skip === 'category' || !q.category || r.category === q.category) &&
    (!text || [r.title, r.description, ...r.tags].some((s) => s.toLowerCase().includes(text))) &&
    (tags.length === 0 || r.tags.some((t) => tags.includes(t.toLowerCase()))) &&
    (skip === 'app' || f.app === undefined || r.apps.includes(f.app)) &&
    (skip === 'format' || f.format === undefined || r.formats.includes(f.format)) &&
    (skip === 'orientation' || f.orientation === undefined || sized?.orientation === f.orientation) &&
    (skip === 'min_height' || f.minHeight === undefined || (sized !== null && sized.height >= f.minHeight)) &&
    (skip === 'duration' ||
      (f.durationMin === undefined && f.durationMax === undefined) ||
      (timed !== null && timed.duration >= (f.durationMin ?? 0) && (f.durationMax === undefined || timed.duration < f.durationMax)))
  );
}

function expectedFacets(refs: Ref[], q: Query): Omit<ResourceFacets, 'exact'> {
  const count = <T>(skip: string, values: readonly T[], has: (r: Ref, v: T) => boolean) =>
    values.map((v) => ({ value: String(v), count: refs.filter((r) => holds(r, q, skip) && has(r, v)).length })).filter((c) => c.count > 0);
  const formats = [...new Set(refs.flatMap((r) => r.formats))];
  const sized = (r: Ref) => (r.facts && (r.facts.kind === 'video' || r.facts.kind === 'image-pair') ? r.facts : null);
  const timed = (r: Ref) => (r.facts && (r.facts.kind === 'video' || r.facts.kind === 'audio') ? r.facts.duration : null);
  return {
    category: count('category', CATEGORIES.map((c) => c.value), (r, v) => r.category === v),
    app: count('app', APP_IDS, (r, v) => r.apps.includes(v)),
    format: count('format', formats, (r, v) => r.formats.includes(v))
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
      .slice(0, FORMAT_FACET_MAX),
    orientation: count('orientation', ORIENTATIONS, (r, v) => sized(r)?.orientation === v),
    min_height: count('min_height', MIN_HEIGHTS, (r, v) => (sized(r)?.height ?? 0) >= v),
    duration: count('duration', DURATION_BUCKETS.map((b) => b.id), (r, id) => {
      const b = DURATION_BUCKETS.find((x) => x.id === id)!;
      const d = timed(r);
      return d !== null && d >= b.min && (b.max === null || d < b.max);
    }),
  };
}

function urlOf(q: Query): string {
  const p = new URLSearchParams();
  if (q.category) p.set('category', categoryToSlug(q.category));
  if (q.q) p.set('q', q.q);
  if (q.tags) p.set('tags', q.tags.join(','));
  const f = q.facts;
  if (f.app) p.set('app', f.app);
  if (f.format) p.set('format', f.format);
  if (f.orientation) p.set('orientation', f.orientation);
  if (f.minHeight !== undefined) p.set('min_height', String(f.minHeight));
  if (f.durationMin !== undefined) p.set('duration_min', String(f.durationMin));
  if (f.durationMax !== undefined) p.set('duration_max', String(f.durationMax));
  return p.toString();
}

const QUERIES: Query[] = [
  { facts: {} },
  { facts: { app: 'after-effects' } },
  { facts: { app: 'fonts' } },
  { facts: { format: 'mp4' } },
  { facts: { orientation: 'portrait' } },
  { facts: { minHeight: 1080 } },
  { facts: { minHeight: 2160 } },
  { facts: { durationMin: 15, durationMax: 60 } },
  { facts: { durationMax: 15 } },
  { facts: { durationMin: 300 } },
  { category: 'motion_graphics', facts: { app: 'after-effects' } },
  { category: 'video_editing', facts: { format: 'mp4', orientation: 'landscape', durationMax: 60 } },
  { category: 'sound_effects', facts: { durationMin: 1, durationMax: 30 } },
  { q: 'cinematic', facts: { minHeight: 1080 } },
  { q: 'ne', facts: { app: 'premiere-pro' } },
  { tags: ['Transitions', 'LUTs'], facts: { orientation: 'landscape' } },
  { category: 'anime_edits', q: 'edit', tags: ['Anime'], facts: { app: 'after-effects', minHeight: 720 } },
  { facts: { app: 'lightroom', format: 'xmp' } },
  { facts: { format: 'nothing' } },
  // A read-me is in nearly every pack's listing, but not a format (NOT_FORMATS): it matches nothing.
  { facts: { format: 'txt' } },
];

describe.each(TEST_DATABASES)('fact filters and facets on %s', (kind) => {
  let t: TestApp;
  let refs: Ref[];

  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: true });
    const { db } = t.database;
    const ids = (await db.selectFrom('resources').select(['id', 'category']).orderBy('id').execute()).map((r) => ({ id: Number(r.id), category: r.category }));
    const now = new Date('2026-01-01T00:00:00Z');
    // Facts for a share of the catalogue (generated-facts.ts), an admin's apps on some, some resources hidden.
    await db.transaction().execute(async (trx) => {
      for (const { id, category } of ids) {
        const g = generatedFacts(category, id, now);
        const file = g.file ? Number((await trx.insertInto('files').values(g.file).returning('id').executeTakeFirstOrThrow()).id) : null;
        const apps = id % 11 === 0 ? JSON.stringify([{ id: 'davinci-resolve', min_version: '18' }]) : null;
        await trx.updateTable('resources').set({ preview: g.preview, download_file_id: file, apps, ...(id % 17 === 0 ? { status: 'draft' } : {}) }).where('id', '=', id).execute();
      }
      await writeStaleFacets(trx);
    });
    const rows = (await sql<PublicRow & { status: string }>`select ${sql.join(PUBLIC_COLUMNS.map((c) => sql.ref(c)))}, status from resources`.execute(db)).rows.filter(isPublicRow);
    const files = await loadFiles(db, fileIds(rows));
    refs = rows.map((row) => {
      const r: PublicResource = toPublicResource(row, files);
      const file = row.download_file_id === null ? undefined : files.get(Number(row.download_file_id));
      return { ...r, facts: r.facts, apps: r.apps.map((a) => a.id), formats: Object.keys(listingExtensions(file)).filter((ext) => !NOT_FORMATS.has(ext)) };
    });
    // The catalogue holds each kind of fact, and resources without any.
    expect(refs.filter((r) => r.facts?.kind === 'video').length).toBeGreaterThan(100);
    expect(refs.filter((r) => r.facts?.kind === 'audio').length).toBeGreaterThan(30);
    expect(refs.filter((r) => r.facts === null && r.apps.length === 0).length).toBeGreaterThan(100);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function walk(query: string, limit = 17) {
    const ids: number[] = [];
    let cursor: string | null = null;
    let first: { total: number; totalExact: boolean; facets?: ResourceFacets } | undefined;
    do {
      const url: string = `/api/resources?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}${first ? '' : '&facets=true'}`;
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const page = resourceListSchema.parse(res.json());
      first ??= page;
      ids.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    return { ids, ...first! };
  }

  const expectedIds = (q: Query, sort: Sort) => refs.filter((r) => holds(r, q)).sort(REFERENCE_ORDER[sort]).map((r) => r.id);

  it.each(QUERIES.map((q) => [urlOf(q) || '(no filter)', q] as const))('%s: every page in each sort is the reference, and the facets count it', async (_name, q) => {
    for (const sort of SORT_OPTIONS) {
      const got = await walk(`${urlOf(q)}&sort=${sort}`);
      const want = expectedIds(q, sort);
      expect(got.ids, sort).toEqual(want);
      // Exact facets: the total is exact too (with a text search, from the facets when its count stopped at its cap).
      expect({ total: got.total, totalExact: got.totalExact }).toEqual({ total: want.length, totalExact: true });
      expect(got.facets).toEqual({ exact: true, ...expectedFacets(refs, q) });
    }
  });

  it('with small bounds: common filters walk the sort index a bounded stretch at a time, pages still give the reference; facets say they are not exact', async () => {
    const search = createResourceSearch(t.database, { ...SEARCH_LIMITS, shortTextPageScan: 60 }, { gatherMax: 10, scanRows: 50 });
    for (const q of [{ facts: { minHeight: 720 } }, { category: 'video_editing', facts: { orientation: 'landscape', durationMax: 120 } }, { q: 'ne', facts: { app: 'after-effects' } }] as Query[]) {
      const want = expectedIds(q, 'newest');
      const got: number[] = [];
      let after: { keys: (string | number)[]; id: number } | undefined;
      let requests = 0;
      for (;;) {
        const page = await search.list({ filters: { ...q, facts: q.facts }, sort: 'newest', limit: 10, after: after as never });
        requests++;
        got.push(...page.rows.map((r) => Number(r.id)));
        expect(page.totalExact).toBe(false);
        if (!page.hasMore) break;
        const last = page.continueAfter ?? page.rows.at(-1)!;
        after = { keys: [last.created_at as string], id: Number(last.id) };
      }
      expect(got).toEqual(want);
      expect(requests).toBeGreaterThan(want.length / 10);
      const facets = await search.facets({ filters: q });
      expect(facets.exact).toBe(false);
      const full = expectedFacets(refs, q);
      for (const d of ['category', 'app', 'format', 'orientation', 'min_height', 'duration'] as const) {
        for (const c of facets[d]) expect(c.count, `${d} ${c.value}`).toBeLessThanOrEqual(full[d].find((e) => e.value === c.value)?.count ?? 0);
      }
    }
  });

  it('with small bounds, each facet counts the newest rows of its scope as the scan read them, under every filter but its own', async () => {
    const limits = { gatherMax: 10, scanRows: 50 };
    const search = createResourceSearch(t.database, SEARCH_LIMITS, limits);
    const dimensions = ['category', 'app', 'format', 'orientation', 'min_height', 'duration'] as const;
    for (const q of [{ facts: { minHeight: 720 } }, { category: 'video_editing', facts: { orientation: 'landscape', durationMax: 120 } }, { q: 'ne', facts: { app: 'after-effects' } }] as Query[]) {
      // The scope a facet's matches come from: the category's (or, for the category facet, the whole site's) newest rows.
      const scanned = (d: string) => refs.filter((r) => d === 'category' || !q.category || r.category === q.category).sort(REFERENCE_ORDER.newest).slice(0, limits.scanRows);
      const want = Object.fromEntries(dimensions.map((d) => [d, expectedFacets(scanned(d), q)[d]]));
      expect(await search.facets({ filters: q }), urlOf(q)).toEqual({ exact: false, ...want });
    }
  });

  it('with a small count cap, the facets give the list its total: exact ones the count where it stopped at its cap, others the larger least total', async () => {
    const cap = { ...SEARCH_LIMITS, countCap: 3, sortMatchesMax: 3, matchSetMax: 3 };
    const search = createResourceSearch(t.database, cap);
    for (const q of [{ q: 'e', facts: {} }, { q: 'cinematic', facts: {} }, { category: 'video_editing', q: 'ne', facts: {} }, { tags: ['Cinematic', 'LUTs'], facts: {} }] as Query[]) {
      const want = expectedIds(q, 'popular').length;
      expect(want, urlOf(q)).toBeGreaterThan(3);
      const options = { filters: q, sort: 'popular' as const, limit: 10 };
      expect(await search.list(options), urlOf(q)).toMatchObject({ totalExact: false });
      const page = await search.listWithFacets(options);
      expect(page.facets).toEqual({ exact: true, ...expectedFacets(refs, q) });
      expect({ total: page.total, totalExact: page.totalExact }, urlOf(q)).toEqual({ total: want, totalExact: true });
      expect(page.rows.map((r) => Number(r.id))).toEqual(expectedIds(q, 'popular').slice(0, 10));
    }
    // Facets that are not exact (counted over the newest rows read) are a least total too: the larger one is kept.
    const bounded = createResourceSearch(t.database, cap, { gatherMax: 10, scanRows: 50 });
    for (const q of [{ q: 'e', facts: {} }, { category: 'video_editing', q: 'e', facts: {} }] as Query[]) {
      const page = await bounded.listWithFacets({ filters: q, sort: 'popular', limit: 10 });
      expect(page, urlOf(q)).toMatchObject({ totalExact: false, facets: { exact: false } });
      const counted = page.facets.category.filter((c) => !q.category || c.value === q.category).reduce((n, c) => n + c.count, 0);
      expect(counted, urlOf(q)).toBeGreaterThan(3);
      expect(page.total, urlOf(q)).toBe(counted);
      expect(page.total, urlOf(q)).toBeLessThan(expectedIds(q, 'popular').length);
    }
  });

  it('bad filter values answer 400 in the error shape', async () => {
    for (const query of ['app=blender', 'format=.', 'format=a%20b', 'format=' + 'x'.repeat(40), 'orientation=round', 'min_height=1000', 'min_height=1080.0', 'min_height=-720',
      'duration_min=-1', 'duration_min=1.5', 'duration_max=99999999', 'duration_min=abc', 'facets=yes', 'app=after-effects&app=fonts']) {
      const res = await t.app.inject({ url: `/api/resources?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(errorBodySchema.safeParse(res.json()).success, query).toBe(true);
    }
  });

  it('each filter is part of the public cache key: another filter value is another answer', async () => {
    const a = await t.app.inject({ url: '/api/resources?app=after-effects' });
    const b = await t.app.inject({ url: '/api/resources?app=fonts' });
    const again = await t.app.inject({ url: '/api/resources?app=after-effects&unknown=1' });
    expect(a.json().items).not.toEqual(b.json().items);
    expect(again.body).toBe(a.body);
    expect(again.headers.etag).toBe(a.headers.etag);
  });
});
