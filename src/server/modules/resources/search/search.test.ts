import { sql } from 'kysely';
import { PUBLIC_STATUS } from '../visibility';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_VALUES, categoryToSlug } from '../../../../contract/categories';
import { SORT_OPTIONS } from '../../../../contract/constants';
import { resourceListSchema, type Sort } from '../../../../contract/resources';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../../testing/test-utils';
import { updateResource } from '../admin-queries';
import { PUBLIC_COLUMNS } from '../columns';
import { SORT_COLUMNS } from '../cursor';
import { tagKeys } from '../mappers';
import { insertResource, REFERENCE_ORDER, type ReferenceRow } from '../../../testing/resource-fixtures';
import { createResourceSearch, type ListOptions, type ResourceSearch, SEARCH_LIMITS } from '.';
import { type PageStrategy, type SearchFilter, searchFilter } from './planning';
import { INDEX_WALK, type PostgresSearch } from './postgres';

type ResourceFilters = ListOptions['filters'];
const SEARCH_TOTAL_CAP = SEARCH_LIMITS.countCap;

/** The promised semantics, computed without SQL: q is a case-insensitive substring of title, description or a tag; tags = any of. */
function expected(rows: ReferenceRow[], f: ResourceFilters, sort: Sort): number[] {
  const q = f.q?.toLowerCase();
  const tags = f.tags ? tagKeys(f.tags) : [];
  return rows
    .filter((r) => !f.category || r.category === f.category)
    .filter((r) => !q || [r.title, r.description, ...r.tags].some((s) => s.toLowerCase().includes(q)))
    .filter((r) => tags.length === 0 || r.tags.some((t) => tags.includes(t.toLowerCase())))
    .sort(REFERENCE_ORDER[sort])
    .map((r) => r.id);
}

/** Texts that are FTS5 or LIKE syntax: each must be searched for literally, never a 500. */
const HOSTILE = ['"', '""', '"neon', '*', 'neo*', '(neon)', 'title:neon', '^neon', '-neon', 'neon NEAR grain', 'NEAR(a b)', 'AND', 'OR', 'NOT', 'a OR b',
  '%', '_', '\\', '50%', 'a_b', 'C:\\path', "it's", '{title}: x', '100% "off"', '%_\\"*():^-'];

describe.each(TEST_DATABASES)('search on %s', (kind) => {
  let t: TestApp;
  let rows: ReferenceRow[];

  async function loadRows() {
    rows = (
      await t.database.db
        .selectFrom('resources')
        .select(['id', 'category', 'title', 'description', 'tags', 'popularity', 'download_count', 'created_at'])
        .execute()
    ).map((r) => ({ ...r, id: Number(r.id), popularity: Number(r.popularity), download_count: Number(r.download_count), tags: JSON.parse(r.tags) as string[] }));
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: true });
    // Literal wildcard and FTS syntax characters, a tag-only word, non-ASCII letters.
    await insertResource(t.database, { title: 'Sale 50% off "now"', description: 'a_b and C:\\path (NEAR) it\'s', tags: ['Narwhal-Tag'], popularity: 7 });
    await insertResource(t.database, { title: '100% "off" {title}: x', description: 'neo* ^neon -neon title:neon', tags: ['ÉCLAIR Pack'], category: 'typography' });
    await insertResource(t.database, { title: 'Plain', description: 'Nothing special', tags: ['4K', 'a OR b'], category: 'anime_edits', popularity: 3 });
    await loadRows();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every page through the API, as a client walks them. */
  async function walkApi(query: string, limit = 13) {
    const ids: number[] = [];
    let cursor: string | null = null;
    let first: { total: number; totalExact: boolean } | undefined;
    do {
      const url: string = `/api/resources?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const page = resourceListSchema.parse(res.json());
      first ??= page;
      ids.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    return { ids, total: first.total, totalExact: first.totalExact };
  }

  /**
   * A search with a given cap (a small cap forces the capped total and the sort-index walk): few
   * matches are at most the cap, the set-checked walk (SQLite) reaches `matchSetMax` (default: the cap,
   * so that walk only when asked for), a 1–2 character text reads `shortTextScan` rows.
   */
  const searches = new Map<string, ResourceSearch>();
  function searchWith(totalCap: number, shortTextScan?: { count: number; page: number }, matchSetMax?: number) {
    const key = JSON.stringify([totalCap, shortTextScan, matchSetMax]);
    let search = searches.get(key);
    if (!search) {
      const scan = shortTextScan ?? { count: SEARCH_LIMITS.shortTextCountScan, page: SEARCH_LIMITS.shortTextPageScan };
      search = createResourceSearch(t.database, {
        countCap: totalCap,
        sortMatchesMax: totalCap,
        matchSetMax: matchSetMax ?? totalCap,
        shortTextCountScan: scan.count,
        shortTextPageScan: scan.page,
        denseScan: SEARCH_LIMITS.denseScan,
      });
      searches.set(key, search);
    }
    return search;
  }

  /** Every page through the search with a given cap (see searchWith). */
  async function walkDirect(filters: ResourceFilters, sort: Sort, totalCap: number, shortTextScan?: { count: number; page: number }, matchSetMax?: number) {
    const ids: number[] = [];
    let after: { keys: (string | number)[]; id: number } | undefined;
    let first: { total: number; totalExact: boolean } | undefined;
    let pages = 0;
    for (;;) {
      const page = await searchWith(totalCap, shortTextScan, matchSetMax).list({ filters, sort, limit: 9, after });
      first ??= page;
      pages += 1;
      expect(page.rows.length).toBeLessThanOrEqual(9);
      ids.push(...page.rows.map((r) => Number(r.id)));
      const last = page.continueAfter ?? page.rows.at(-1);
      if (!page.hasMore || !last) break;
      const keys = { popular: [last.popularity, last.download_count], newest: [last.created_at], downloads: [last.download_count] }[sort];
      after = { keys: keys.map((k) => (typeof k === 'string' ? k : Number(k))), id: Number(last.id) };
    }
    return { ids, pages, ...first! };
  }

  it('finds q in a tag as well as in titles and descriptions, any case', async () => {
    const tagged = rows.find((r) => r.title.startsWith('Sale 50%'))!;
    for (const q of ['narwhal-t', 'NARWHAL', 'arwhal-ta']) {
      const r = await walkApi(`q=${encodeURIComponent(q)}`);
      expect(r.ids, q).toEqual(expected(rows, { q }, 'popular'));
      expect(r.ids).toContain(tagged.id);
    }
    expect((await walkApi('q=%C3%A9clair')).ids).toEqual(expected(rows, { q: 'éclair' }, 'popular'));
    expect((await walkApi('q=%C3%A9clair')).ids).toHaveLength(1);
  });

  it('searches FTS and LIKE syntax literally: every hostile q answers 200 with exactly the literal matches', async () => {
    for (const q of HOSTILE) {
      for (const category of [undefined, 'typography'] as const) {
        const query = `q=${encodeURIComponent(q)}${category ? `&category=${categoryToSlug(category)}` : ''}`;
        const r = await walkApi(query, 50);
        const want = expected(rows, { q, category }, 'popular');
        expect(r.ids, query).toEqual(want);
        expect(r.total, query).toBe(Math.min(want.length, SEARCH_TOTAL_CAP));
        expect(r.totalExact, query).toBe(want.length <= SEARCH_TOTAL_CAP);
      }
    }
    // The literal texts above do occur, so these are real matches, not empty results by accident.
    expect(expected(rows, { q: '50%' }, 'popular').length).toBeGreaterThan(0);
    expect(expected(rows, { q: '{title}: x' }, 'popular').length).toBe(1);
  });

  // One test per case and sort: each walks three ways, page by page (a few hundred queries for the
  // broad ones), which together ran past one test's time limit on a loaded CI machine.
  const WALK_CASES: ResourceFilters[] = [
    { q: 'cinematic' },
    { q: 'grain' },
    { q: 'ne' },
    { q: 'a' },
    { q: 'lut', category: 'color_grading' },
    { tags: ['LUTs'] },
    { tags: ['luts', 'Transitions'], q: 'pack' },
    { q: 'ne', tags: ['film'] },
    { category: 'video_editing', tags: ['transitions'] },
    { q: 'zzzqqq' },
  ];
  it.each(WALK_CASES.flatMap((f) => SORT_OPTIONS.map((sort) => [JSON.stringify(f), sort, f] as const)))(
    'gives the same pages and totals whether it starts from the matches or walks a sort index, with totals capped: %s by %s',
    async (_, sort, filters) => {
      const want = expected(rows, filters, sort);
      const exact = await walkDirect(filters, sort, 100_000);
      expect(exact.ids, JSON.stringify([filters, sort])).toEqual(want);
      expect(exact).toMatchObject({ total: want.length, totalExact: true });
      // A cap below the number of matches: the walk, and a total of "cap+".
      const cap = 5;
      const capped = await walkDirect(filters, sort, cap);
      expect(capped.ids, JSON.stringify([filters, sort, cap])).toEqual(want);
      expect(capped).toMatchObject(want.length > cap ? { total: cap, totalExact: false } : { total: want.length, totalExact: true });
      // More than the cap but within matchSetMax: SQLite walks the sort index against a set of the matches.
      const matchSetWalk = await walkDirect(filters, sort, cap, undefined, 100_000);
      expect(matchSetWalk.ids, JSON.stringify([filters, sort, 'walk-match-set'])).toEqual(want);
      expect(matchSetWalk).toMatchObject(want.length > cap ? { total: cap, totalExact: false } : { total: want.length, totalExact: true });
    },
  );

  it.each(['ne', 'z', '4k', '%', '"'])('bounds a 1–2 character q (%s): short pages that continue after the last row read, and an "at least" total', async (q) => {
    for (const category of [undefined, 'video_editing'] as const) {
      for (const sort of SORT_OPTIONS) {
        const filters = { q, category };
        const want = expected(rows, filters, sort);
        const label = JSON.stringify([filters, sort]);
        const bounded = await walkDirect(filters, sort, 100_000, { count: 50, page: 40 });
        expect(bounded.ids, label).toEqual(want);
        const scope = rows.filter((r) => !category || r.category === category).length;
        // Every 40 rows read end a request, so the walk takes at least scope / 40 of them.
        expect(bounded.pages, label).toBeGreaterThanOrEqual(Math.floor(scope / 40));
        const inFirst50 = bounded.total;
        expect(bounded.totalExact, label).toBe(false);
        expect(inFirst50, label).toBeLessThanOrEqual(Math.min(50, want.length));
        const unbounded = await walkDirect(filters, sort, 100_000);
        expect(unbounded).toMatchObject({ ids: want, total: want.length, totalExact: true });
      }
    }
  });

  it('keeps the index current on insert, edit (text, tags, category) and delete', async () => {
    const id = await insertResource(t.database, { title: 'Xylophone quartz', tags: ['Gamma-Ray'], category: 'sound_effects' });
    const find = async (query: string) => (await walkApi(query)).ids;
    expect(await find('q=quartz')).toEqual([id]);
    expect(await find('q=gamma-r&category=sound-effects')).toEqual([id]);
    expect(await find('tags=gamma-ray&q=xylo')).toEqual([id]);

    await updateResource(t.database, id, { title: 'Marimba', tags: ['Delta'], category: 'typography' });
    expect(await find('q=quartz')).toEqual([]);
    expect(await find('q=gamma')).toEqual([]);
    expect(await find('q=marimba&category=sound-effects')).toEqual([]);
    expect(await find('q=marimba&category=typography')).toEqual([id]);
    expect(await find('q=delt&tags=delta')).toEqual([id]);

    await t.database.db.deleteFrom('resources').where('id', '=', id).execute();
    expect(await find('q=marimba')).toEqual([]);
  });

  it('matches a tag exactly with a text, even when other tags start and end like it', async () => {
    // SQLite narrows a text-and-tag search by the tag's first and last trigrams, then checks tags exactly.
    const decoy = await insertResource(t.database, { title: 'Quokka lantern one', tags: ['Fire', 'Helm'], category: 'sound_effects' });
    const decoy2 = await insertResource(t.database, { title: 'Quokka lantern two', tags: ['Filmic', 'Realm'], category: 'sound_effects' });
    const real = await insertResource(t.database, { title: 'Quokka lantern three', tags: ['FILM'], category: 'sound_effects' });
    expect((await walkApi('tags=film&q=quokka')).ids).toEqual([real]);
    expect((await walkApi('tags=film&q=quokka&category=sound-effects')).ids).toEqual([real]);
    expect((await walkApi('tags=helm&q=lantern')).ids).toEqual([decoy]);
    for (const sort of SORT_OPTIONS) {
      for (const [cap, matchSetMax] of [[100_000, undefined], [1, undefined], [1, 100_000]] as const) {
        const r = await walkDirect({ q: 'quokka lantern', tags: ['film', 'realm'] }, sort, cap, undefined, matchSetMax);
        expect(new Set(r.ids), JSON.stringify([sort, cap, matchSetMax])).toEqual(new Set([real, decoy2]));
      }
    }
  });

  it('finds words across a space, and never takes a space for a "q" or a "q" for a space', async () => {
    // PostgreSQL's trigram index reads spaces as 'q' (SEARCH_JOIN): texts that differ only there must still differ.
    const spaced = await insertResource(t.database, { title: 'Walrus dusty fade', category: 'photo_editing' });
    const joined = await insertResource(t.database, { title: 'Walrus dustqfade', category: 'photo_editing' });
    for (const sort of SORT_OPTIONS) {
      for (const cap of [100_000, 1]) {
        expect((await walkDirect({ q: 'dusty fade' }, sort, cap)).ids, sort).toEqual([spaced]);
        expect((await walkDirect({ q: 'sty fa' }, sort, cap)).ids, sort).toEqual([spaced]);
        expect((await walkDirect({ q: 'dustqfade' }, sort, cap)).ids, sort).toEqual([joined]);
        expect((await walkDirect({ q: 'dustyqfade' }, sort, cap)).ids, sort).toEqual([]);
        expect((await walkDirect({ q: 'DUSTQ', tags: [] }, sort, cap)).ids, sort).toEqual([joined]);
        expect(new Set((await walkDirect({ q: 'walrus dust' }, sort, cap)).ids), sort).toEqual(new Set([spaced, joined]));
      }
    }
  });

  it('counts a text in a category within that category, however common it is elsewhere', async () => {
    // PostgreSQL reads a category's newest rows first (limits.denseScan) and stops past the cap: only that category's rows may count.
    const here: number[] = [];
    const elsewhere: number[] = [];
    for (let i = 0; i < 3; i++) here.push(await insertResource(t.database, { title: `Pelican sunrise ${i}`, tags: ['Gull'], category: 'typography' }));
    for (let i = 0; i < 8; i++) elsewhere.push(await insertResource(t.database, { title: `Pelican dusk ${i}`, tags: ['Gull'], category: 'anime_edits' }));
    for (const sort of SORT_OPTIONS) {
      for (const filters of [{ q: 'pelican', category: 'typography' }, { q: 'pelican', tags: ['gull'], category: 'typography' }] satisfies ResourceFilters[]) {
        const r = await walkDirect(filters, sort, 5);
        expect(new Set(r.ids), JSON.stringify([filters, sort])).toEqual(new Set(here));
        expect(r, JSON.stringify([filters, sort])).toMatchObject({ total: 3, totalExact: true });
      }
      const many = await walkDirect({ q: 'pelican', category: 'anime_edits' }, sort, 5);
      expect(many).toMatchObject({ total: 5, totalExact: false });
      expect(many.ids).toHaveLength(8);
    }
    await t.database.db.deleteFrom('resources').where('id', 'in', [...here, ...elsewhere]).execute();
  });

  it('answers the totals of searches exactly up to the cap and flags them', async () => {
    const res = await t.app.inject({ url: '/api/resources?q=zzzqqq' });
    expect(res.json()).toMatchObject({ items: [], total: 0, totalExact: true, nextCursor: null });
    const plain = await t.app.inject({ url: '/api/resources?category=video-editing' });
    expect(plain.json().totalExact).toBe(true);
    expect(plain.json().total).toBe(rows.filter((r) => r.category === 'video_editing').length);
  });

  describe('query plans: no full scan of resources on the hot paths', () => {
    const HOT: [string, ResourceFilters][] = [
      ['category list', { category: 'video_editing' }],
      ['search q', { q: 'cinematic' }],
      ['search q + tags', { q: 'cinematic', tags: ['luts'] }],
      ['search q in a category', { q: 'cinematic', category: 'video_editing' }],
      ['search tags in a category', { tags: ['luts'], category: 'color_grading' }],
      ['search q, 2 characters', { q: 'ne' }],
    ];

    async function explain(query: { compile(db: unknown): { sql: string; parameters: readonly unknown[] } }): Promise<string> {
      const compiled = query.compile(t.database.db);
      if (kind === 'sqlite') {
        const plan = t.database.sqlite!.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as { detail: string }[];
        return plan.map((p) => p.detail).join('\n');
      }
      // Few rows here, so the planner would rightly scan; with sequential scans priced out it
      // must show an index that answers the query (a full scan would still show up as Seq Scan).
      return t.database.db.connection().execute(async (c) => {
        await sql`set enable_seqscan = off`.execute(c);
        try {
          const { rows: plan } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${compiled.sql}`).execute(c);
          return plan.map((p) => p['QUERY PLAN']).join('\n');
        } finally {
          await sql`reset enable_seqscan`.execute(c);
        }
      });
    }

    function expectNoFullScan(plan: string, label: string) {
      if (kind === 'sqlite') {
        // "SCAN resources" without "USING … INDEX" reads the whole table.
        expect(plan, label).not.toMatch(/SCAN resources\b(?! USING)/);
        expect(plan, label).not.toMatch(/SCAN resource_tags\b(?! USING)/);
      } else {
        expect(plan, label).not.toMatch(/Seq Scan on resources/);
      }
    }

    const backend = () => createResourceSearch(t.database).backend;
    const pageQuery = (f: SearchFilter, strategy: PageStrategy, sort: Sort, limit: number) =>
      backend().pageQuery(f, strategy, { columns: PUBLIC_COLUMNS, order: { keys: SORT_COLUMNS[sort], direction: 'desc' }, take: limit + 1 });

    it.each(HOT)('%s', async (label, filters) => {
      // PostgreSQL takes parameters in EXPLAIN only as literals: inline them for this check.
      // As the public list asks: only public resources (visibility.ts), checked on the rows read.
      const f = searchFilter({ ...filters, status: PUBLIC_STATUS });
      const short = filters.q === 'ne';
      const strategies: PageStrategy[] = short
        ? ['walk-checking-rows']
        : kind === 'sqlite'
          ? ['sort-matches', 'walk-match-set', 'walk-checking-rows']
          : ['sort-matches', 'walk-checking-rows'];
      const queries: { compile(db: unknown): { sql: string; parameters: readonly unknown[] } }[] = strategies.flatMap((s) =>
        SORT_OPTIONS.map((sort) => pageQuery(f, s, sort, 24)),
      );
      if (strategies.includes('walk-match-set')) {
        // The set-checked walk walks the sort index in order (the set of matches only checks ids): no sort step.
        for (const sort of SORT_OPTIONS) {
          const plan = await explain(pageQuery(f, 'walk-match-set', sort, 24));
          expect(plan, `${label} walk-match-set ${sort}\n${plan}`).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
          expect(plan, `${label} walk-match-set ${sort}\n${plan}`).toMatch(/SCAN resources USING (COVERING )?INDEX|SEARCH resources USING (COVERING )?INDEX/);
        }
      }
      // A 1–2 character q has no index to count with: its count reads rows until the cap (a LIMIT), never all of them when they match often.
      if (short) expect(backend().countQuery(f).compile(t.database.db).sql).toMatch(/limit \S+\) as capped$/);
      else queries.push(backend().countQuery(f));
      if (kind === 'postgres' && f.text !== undefined && f.tags.length === 0 && !short) {
        // The first reads of a text's count (limits.denseScan): bounded by a LIMIT under the count's own; a category's through an index.
        const plan = await explain(inlineParameters((backend() as PostgresSearch).denseCountQuery(f.text, f.category, SEARCH_TOTAL_CAP), t));
        expect(plan, `${label} dense\n${plan}`).toMatch(/Limit[\s\S]*Filter: [\s\S]*Limit[\s\S]* on resources/);
        if (f.category) expectNoFullScan(plan, `${label} dense\n${plan}`);
      }
      for (const q of queries) {
        const plan = await explain(kind === 'postgres' ? inlineParameters(q, t) : q);
        expectNoFullScan(plan, `${label}\n${plan}`);
      }
    });

    // A walk's plan on PostgreSQL, as runPage runs it (INDEX_WALK), on enough rows for the indexes to differ in size.
    if (kind === 'postgres')
      it('a walk reads its sort index in order and stops at the last match of the page: no sort step, whatever the planner guesses of the text', async () => {
        // At 1,000,000 resources the planner, guessing ~20 matches for a text checked on the row, read a
        // whole category through the smaller (status, category) index and sorted it: 300+ ms where the
        // walk takes 1–5 ms (decision 454). Here 16 × the demo's rows, added and analyzed in a transaction
        // that is rolled back.
        await t.database.db
          .transaction()
          .execute(async (trx) => {
            const { rows: cols } = await sql<{ list: string }>`select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as list
              from information_schema.columns where table_schema = current_schema() and table_name = 'resources' and column_name <> 'id'`.execute(trx);
            await sql.raw(`insert into resources (${cols[0].list}) select ${cols[0].list} from resources, generate_series(1, 15)`).execute(trx);
            await sql`analyze resources`.execute(trx);
            for (const [name, value] of Object.entries(INDEX_WALK)) await sql`select set_config(${name}, ${value}, true)`.execute(trx);
            for (const filters of [{ q: 'cinematic', category: 'video_editing' as const }, { q: 'cinematic' }, { q: 'cinematic', tags: ['luts'] }]) {
              const f = searchFilter({ ...filters, status: PUBLIC_STATUS });
              for (const sort of SORT_OPTIONS) {
                const compiled = inlineParameters(pageQuery(f, 'walk-checking-rows', sort, 24), t).compile();
                const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${compiled.sql}`).execute(trx);
                const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
                expect(plan, `${JSON.stringify(filters)} ${sort}\n${plan}`).not.toMatch(/Sort/);
                expect(plan, `${JSON.stringify(filters)} ${sort}\n${plan}`).toMatch(/Index (Only )?Scan using resources_(cat_)?(popular|newest|downloads) on resources/);
              }
            }
            throw new Rollback();
          })
          .catch((error: unknown) => {
            if (!(error instanceof Rollback)) throw error;
          });
      });

    // PostgreSQL's own indexes: registered on that database only, so SQLite's run reports no skipped test.
    if (kind === 'postgres') it('every category has a tags-and-text index of its own rows (migration 008; a new category needs one)', async () => {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'resources'`.execute(t.database.db);
      const search = (r: { indexdef: string }) => /USING gin \(tag_keys, .*gin_trgm_ops\)/.test(r.indexdef);
      expect(rows.filter((r) => search(r) && !r.indexdef.includes('WHERE'))).toHaveLength(1);
      for (const category of CATEGORY_VALUES) {
        expect(rows.filter((r) => search(r) && r.indexdef.includes(`WHERE (category = '${category}'::text)`)), category).toHaveLength(1);
      }
      // No index left over from before migration 008 (every write would keep it up to date for nothing).
      expect(rows.filter((r) => r.indexdef.includes('USING gin') && !search(r))).toEqual([]);
    });
  });
});

/** Thrown to end a transaction that only looked. */
class Rollback extends Error {}

/** EXPLAIN on PostgreSQL cannot take bind parameters: a copy of the query with literals. */
function inlineParameters(query: { compile(db: unknown): { sql: string; parameters: readonly unknown[] } }, t: TestApp) {
  const compiled = query.compile(t.database.db);
  const text = compiled.sql.replace(/\$(\d+)/g, (_, i: string) => {
    const v = compiled.parameters[Number(i) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
  return { compile: () => ({ sql: text, parameters: [] }) };
}
