import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryValue } from '../../../../contract/categories';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../../testing/test-utils';
import { insertResource } from '../../../testing/resource-fixtures';
import { createResourceSearch, type ListOptions, SEARCH_LIMITS } from '.';

/**
 * A public search counts only what the public sees, however many hidden resources (drafts, the
 * trash) match too and wherever they sit among the matches: SQLite reads the FTS5 index alone and
 * takes the hidden out by id (search/sqlite.ts matchIdsQuery), so the hidden must never take the
 * place of a public match inside the count's bound.
 */
describe.each(TEST_DATABASES)('public search counts beside hidden matches on %s', (kind) => {
  let t: TestApp;
  const published: Record<string, number[]> = { video_editing: [], typography: [] };

  async function add(category: CategoryValue, status: 'published' | 'draft' | 'trashed', tags: string[]) {
    const id = await insertResource(t.database, { title: `Hiddencount item ${status}`, description: 'quokkaword in the text', category, tags });
    if (status === 'draft') await t.database.db.updateTable('resources').set({ status: 'draft' }).where('id', '=', id).execute();
    if (status === 'trashed') {
      await t.database.db
        .updateTable('resources')
        .set({ status: 'trashed', status_before_trash: 'published', trashed_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    }
    if (status === 'published') published[category].push(id);
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: false });
    // The hidden first (lowest ids: read first from the index), then public ones, then hidden again.
    for (let i = 0; i < 8; i++) await add('video_editing', i % 2 === 0 ? 'draft' : 'trashed', ['Quokkatag']);
    for (let i = 0; i < 7; i++) await add('video_editing', 'published', i < 4 ? ['Quokkatag'] : []);
    for (let i = 0; i < 3; i++) await add('typography', 'draft', ['Quokkatag']);
    for (let i = 0; i < 2; i++) await add('typography', 'published', ['Quokkatag']);
    for (let i = 0; i < 4; i++) await add('video_editing', 'draft', []);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The total and every id, paged through with a count bound of `cap`. */
  async function search(filters: ListOptions['filters'], cap: number) {
    const search = createResourceSearch(t.database, { ...SEARCH_LIMITS, countCap: cap, sortMatchesMax: cap, matchSetMax: cap });
    const ids: number[] = [];
    let after: { keys: (string | number)[]; id: number } | undefined;
    let first: { total: number; totalExact: boolean } | undefined;
    for (;;) {
      const page = await search.list({ filters, sort: 'newest', limit: 4, after });
      first ??= page;
      ids.push(...page.rows.map((r) => Number(r.id)));
      const last = page.continueAfter ?? page.rows.at(-1);
      if (!page.hasMore || !last) break;
      after = { keys: [last.created_at], id: Number(last.id) };
    }
    return { total: first!.total, exact: first!.totalExact, ids: ids.sort((a, b) => a - b) };
  }

  const all = () => [...published.video_editing, ...published.typography].sort((a, b) => a - b);
  const tagged = () => [...published.video_editing.slice(0, 4), ...published.typography].sort((a, b) => a - b);

  it('a text: exact totals under the bound, "at least" the bound over it, only public ids', async () => {
    expect(await search({ q: 'quokkaword' }, 20)).toEqual({ total: 9, exact: true, ids: all() });
    expect(await search({ q: 'quokkaword' }, 9)).toEqual({ total: 9, exact: true, ids: all() });
    expect(await search({ q: 'quokkaword' }, 8)).toEqual({ total: 8, exact: false, ids: all() });
    expect(await search({ q: 'quokkaword' }, 3)).toEqual({ total: 3, exact: false, ids: all() });
  });

  it('a text in a category, tags alone, a text with tags', async () => {
    expect(await search({ q: 'quokkaword', category: 'video_editing' }, 7)).toEqual({ total: 7, exact: true, ids: published.video_editing });
    expect(await search({ q: 'quokkaword', category: 'video_editing' }, 6)).toEqual({ total: 6, exact: false, ids: published.video_editing });
    expect(await search({ q: 'quokkaword', category: 'typography' }, 2)).toEqual({ total: 2, exact: true, ids: published.typography });
    expect(await search({ tags: ['quokkatag'] }, 6)).toEqual({ total: 6, exact: true, ids: tagged() });
    expect(await search({ tags: ['quokkatag'] }, 5)).toEqual({ total: 5, exact: false, ids: tagged() });
    expect(await search({ q: 'quokkaword', tags: ['Quokkatag'] }, 6)).toEqual({ total: 6, exact: true, ids: tagged() });
    expect(await search({ q: 'quokkaword', tags: ['Quokkatag'] }, 5)).toEqual({ total: 5, exact: false, ids: tagged() });
  });

  it('the same through the API: hidden resources are neither counted nor listed', async () => {
    const body = (await t.app.inject({ url: '/api/resources?q=quokkaword&limit=100' })).json() as { total: number; totalExact: boolean; items: { id: number }[] };
    expect(body.total).toBe(9);
    expect(body.totalExact).toBe(true);
    expect(body.items.map((i) => i.id).sort((a, b) => a - b)).toEqual(all());
  });
});
