import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/errors';
import { publicResourceSchema, resourceListSchema, type PublicResource } from '../../../contract/resources';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { PREMIUM_LIST_LIMIT } from './routes';
import { insertResource } from '../../testing/resource-fixtures';

describe.each(TEST_DATABASES)('public resources API on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    const d = t.database;
    ids.zebra = await insertResource(d, { title: 'Zebrafish Glitch Pack', description: 'Plain words.', tags: ['Transitions'], popularity: 50, download_count: 100, created_at: '2024-03-01T10:00:00.000Z' });
    ids.quokka = await insertResource(d, { title: 'Plain title', description: 'Made with QUOKKA energy.', tags: ['Effects'], popularity: 40, download_count: 300, created_at: '2024-05-01T10:00:00.000Z' });
    ids.narwhal = await insertResource(d, { category: 'photo_editing', title: 'Other', description: 'Other words.', tags: ['Narwhal', 'Portrait'], popularity: 60, download_count: 50, created_at: '2024-02-01T10:00:00.000Z' });
    ids.film = await insertResource(d, { category: 'photo_editing', title: 'Another', description: 'Nothing here.', tags: ['Film'], popularity: 60, download_count: 80, created_at: '2024-02-01T10:00:00.000Z' });
    ids.wild = await insertResource(d, { title: '100% Off_Sale \\ Pack', description: 'Wildcards in the title.', popularity: 10, download_count: 80, created_at: '2024-06-01T10:00:00.000Z' });
    ids.unicode = await insertResource(d, { title: 'Überraschung 🎬 Pack', description: 'Unicode title.', tags: ['Motion'], popularity: 10, download_count: 80, created_at: '2024-06-01T10:00:00.000Z' });
    ids.premiumOld = await insertResource(d, { category: 'premium_resources', is_premium: true, title: 'Premium Old', created_at: '2023-01-01T00:00:00.000Z' });
    ids.premiumNew = await insertResource(d, { category: 'premium_resources', is_premium: true, title: 'Premium New', created_at: '2024-07-01T00:00:00.000Z' });
  });
  afterAll(async () => {
    await t.close();
  });

  async function list(query: string) {
    const res = await t.app.inject({ url: `/api/resources${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return resourceListSchema.parse(res.json());
  }
  const idsOf = (items: PublicResource[]) => items.map((r) => r.id).sort((a, b) => a - b);
  const sorted = (...names: string[]) => names.map((n) => ids[n]).sort((a, b) => a - b);

  it('filters by category value or slug alike', async () => {
    const byValue = await list('?category=photo_editing');
    const bySlug = await list('?category=photo-editing');
    expect(idsOf(byValue.items)).toEqual(sorted('narwhal', 'film'));
    expect(bySlug).toEqual(byValue);
    expect(byValue.total).toBe(2);
    expect(byValue.items.every((r) => r.category === 'photo_editing')).toBe(true);
  });

  it.each([
    ['title, other case', 'zEBRAfish', ['zebra']],
    ['title prefix', 'ZEBRA', ['zebra']],
    ['description', 'quokka', ['quokka']],
    ['a tag only', 'NARWHAL', ['narwhal']],
    ['part of a tag', 'narw', ['narwhal']],
    ['a literal %', '%', ['wild']],
    ['a literal _', '_', ['wild']],
    ['a literal backslash', '\\', ['wild']],
    ['unicode as typed', 'Überraschung 🎬', ['unicode']],
    ['SQL as text', "' OR 1=1 --", []],
    ['surrounding spaces', '  quokka  ', ['quokka']],
  ])('q matches %s', async (_label, q, expected) => {
    const res = await list(`?q=${encodeURIComponent(q)}`);
    expect(idsOf(res.items)).toEqual(sorted(...expected));
    expect(res.total).toBe(expected.length);
  });

  it('tags match resources having any of them, case-insensitively, comma-separated or repeated', async () => {
    const comma = await list('?tags=narwhal,FILM');
    const repeated = await list('?tags=Narwhal&tags=film');
    expect(idsOf(comma.items)).toEqual(sorted('narwhal', 'film'));
    expect(idsOf(repeated.items)).toEqual(idsOf(comma.items));
    expect(idsOf((await list('?tags=Transitions')).items)).toEqual(sorted('zebra'));
    expect((await list('?tags=nope')).items).toEqual([]);
  });

  it('combines category, q and tags with AND', async () => {
    expect(idsOf((await list('?category=photo-editing&tags=film,narwhal&q=another')).items)).toEqual(sorted('film'));
    expect((await list('?category=video_editing&q=narwhal')).total).toBe(0);
    expect(idsOf((await list('?category=video_editing&tags=effects,transitions')).items)).toEqual(sorted('zebra', 'quokka'));
  });

  it('sorts popular by popularity, then downloads, then newest id', async () => {
    const { items } = await list('?sort=popular');
    const expected = [...items].sort((a, b) => b.popularity - a.popularity || b.download_count - a.download_count || b.id - a.id);
    expect(items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    // Equal popularity (60): more downloads first.
    expect(items.slice(0, 2).map((r) => r.id)).toEqual([ids.film, ids.narwhal]);
    expect((await list('')).items).toEqual(items);
  });

  it('sorts newest by created_at, ties by id', async () => {
    const { items } = await list('?sort=newest');
    expect(items[0].id).toBe(ids.premiumNew);
    // Same created_at: the larger id first.
    const tie = items.filter((r) => r.created_at === '2024-06-01T10:00:00.000Z').map((r) => r.id);
    expect(tie).toEqual([ids.unicode, ids.wild]);
    const expected = [...items].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
    expect(items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('sorts downloads by download_count, ties by id', async () => {
    const { items } = await list('?sort=downloads');
    expect(items[0].id).toBe(ids.quokka);
    expect(items.filter((r) => r.download_count === 80).map((r) => r.id)).toEqual([ids.unicode, ids.wild, ids.film]);
    const expected = [...items].sort((a, b) => b.download_count - a.download_count || b.id - a.id);
    expect(items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('returns one resource without its download URL', async () => {
    const res = await t.app.inject({ url: `/api/resources/${ids.zebra}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(publicResourceSchema.strict().parse(body)).toMatchObject({ id: ids.zebra, title: 'Zebrafish Glitch Pack', tags: ['Transitions'] });
    expect(body).not.toHaveProperty('download_url');
    expect(body).not.toHaveProperty('admin_id');
  });

  it('404s in the error shape for a resource that does not exist', async () => {
    const res = await t.app.inject({ url: '/api/resources/999999' });
    expect(res.statusCode).toBe(404);
    expect(errorBodySchema.parse(res.json()).error.code).toBe('NOT_FOUND');
  });

  it('lists premium resources newest first', async () => {
    const res = await t.app.inject({ url: '/api/resources/premium' });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as PublicResource[];
    expect(items.map((r) => r.id)).toEqual([ids.premiumNew, ids.premiumOld]);
    expect(items.every((r) => r.is_premium && r.category === 'premium_resources')).toBe(true);
  });

  it(`caps the premium list at ${PREMIUM_LIST_LIMIT}`, async () => {
    for (let i = 0; i < PREMIUM_LIST_LIMIT + 1; i++) {
      await insertResource(t.database, { category: 'premium_resources', is_premium: true, title: `Bulk premium ${i}` });
    }
    const items = (await t.app.inject({ url: '/api/resources/premium' })).json().items as PublicResource[];
    expect(items).toHaveLength(PREMIUM_LIST_LIMIT);
    expect(items.map((r) => r.id)).not.toContain(ids.premiumOld);
  });
});
