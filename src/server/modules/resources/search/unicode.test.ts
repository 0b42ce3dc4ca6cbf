import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../../contract/api-paths';
import { type CategoryValue, categoryToSlug } from '../../../../contract/categories';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../../testing/auth-helpers';
import { insertResource } from '../../../testing/resource-fixtures';
import { createResourceSearch, SEARCH_LIMITS, type SearchLimits } from '.';

/**
 * One folding rule for search and tags, the same on both databases and on every path: a 1–2
 * character q (read on the rows), a 3+ character q (FTS5 / pg_trgm), tags alone, text with tags, in
 * a category and across all, the admin list, and the cached answer as well as the first one.
 * Each word is written in the spellings people type it in; the expected finds are written out here,
 * not computed by the rule under test.
 */
const ROWS: { title: string; category: CategoryValue; tags?: string[] }[] = [
  { title: 'İstanbul skyline', category: 'video_editing', tags: ['Türkiye'] },
  { title: 'Istanbul at night', category: 'photo_editing' },
  { title: 'ΟΔΟΣ signs', category: 'typography', tags: ['ΟΔΟΣ'] },
  { title: 'οδος lettering', category: 'typography', tags: ['οδος'] },
  { title: 'ΣΊΣΥΦΟΣ loop', category: 'motion_graphics' },
  { title: 'σίσυφος boulder', category: 'motion_graphics', tags: ['Σίσυφος'] },
  { title: 'cafe\u0301 ambience', category: 'sound_effects', tags: ['Cafe\u0301'] },
  { title: 'caf\u00e9 chatter', category: 'sound_effects', tags: ['CAF\u00c9'] },
  { title: 'Straße noise', category: 'sound_effects', tags: ['Straße'] },
  { title: 'STRASSE NOISE', category: 'sound_effects', tags: ['STRASSE'] },
  { title: 'ılık water', category: 'video_editing' },
  { title: 'ﬁlm grain', category: 'color_grading', tags: ['ﬁlm'] },
  { title: 'ＬＵＴ pack', category: 'color_grading', tags: ['ＬＵＴ'] },
  { title: 'soft\u00adhyphen', category: 'anime_edits' },
];

const ISTANBUL = ['İstanbul skyline', 'Istanbul at night'];
const GREEK_ROAD = ['ΟΔΟΣ signs', 'οδος lettering'];
const SISYPHUS = ['ΣΊΣΥΦΟΣ loop', 'σίσυφος boulder'];
const CAFE = ['cafe\u0301 ambience', 'caf\u00e9 chatter'];
const STREET = ['Straße noise', 'STRASSE NOISE'];

interface Case {
  q?: string;
  tags?: string;
  category?: CategoryValue;
  finds: string[];
}

const CASES: Case[] = [
  // 3+ characters: the text index.
  ...['istanbul', 'İSTANBUL', 'ıstanbul', 'ISTANBUL'].map((q) => ({ q, finds: ISTANBUL })),
  ...['ΟΔΟΣ', 'οδος', 'οδοσ', 'Οδός'.normalize('NFD').replace(/\u0301/g, '')].map((q) => ({ q, finds: GREEK_ROAD })),
  ...['σίσυφος', 'ΣΊΣΥΦΟΣ', 'Σίσυφοσ', 'ΣΙ\u0301ΣΥΦΟΣ'].map((q) => ({ q, finds: SISYPHUS })),
  ...['café', 'cafe\u0301', 'CAFÉ', 'CAFE\u0301'].map((q) => ({ q, finds: CAFE })),
  { q: 'cafe', finds: [] },
  ...['straße', 'STRASSE', 'STRAẞE', 'strasse'].map((q) => ({ q, finds: STREET })),
  { q: 'ilik', finds: ['ılık water'] },
  ...['film', 'ﬁlm', 'FILM', 'ﬁ'.toUpperCase() + 'LM'].map((q) => ({ q, finds: ['ﬁlm grain'] })),
  ...['lut', 'ＬＵＴ', 'ｌｕｔ', 'LUT'].map((q) => ({ q, finds: ['ＬＵＴ pack'] })),
  { q: 'softhyphen', finds: ['soft\u00adhyphen'] },
  // 1–2 characters after folding: read on the rows.
  { q: 'ß', finds: STREET },
  { q: 'ẞ', finds: STREET },
  { q: 'ς', finds: [...GREEK_ROAD, ...SISYPHUS] },
  { q: 'ΟΣ', finds: [...GREEK_ROAD, ...SISYPHUS] },
  { q: 'é', finds: CAFE },
  { q: 'e\u0301', finds: CAFE },
  { q: 'É', finds: CAFE },
  { q: 'ﬁ', finds: ['ﬁlm grain'] },
  { q: 'ＬＵ', finds: ['ＬＵＴ pack'] },
  // Tags alone.
  ...['türkiye', 'TÜRKIYE', 'Tu\u0308rkiye'].map((tags) => ({ tags, finds: ['İstanbul skyline'] })),
  ...['ΟΔΟΣ', 'οδος', 'οδοσ'].map((tags) => ({ tags, finds: GREEK_ROAD })),
  ...['σίσυφος', 'ΣΊΣΥΦΟΣ'].map((tags) => ({ tags, finds: ['σίσυφος boulder'] })),
  ...['café', 'cafe\u0301', 'CAFE\u0301'].map((tags) => ({ tags, finds: CAFE })),
  ...['straße', 'STRASSE', 'STRAẞE'].map((tags) => ({ tags, finds: STREET })),
  ...['film', 'ﬁlm', 'FILM'].map((tags) => ({ tags, finds: ['ﬁlm grain'] })),
  ...['lut', 'ＬＵＴ'].map((tags) => ({ tags, finds: ['ＬＵＴ pack'] })),
  // Text with tags, 3+ and 1–2 characters.
  { q: 'lettering', tags: 'ΟΔΟΣ', finds: ['οδος lettering'] },
  { q: 'ΣΊΣΥΦ', tags: 'σίσυφος', finds: ['σίσυφος boulder'] },
  { q: 'noise', tags: 'STRAẞE', finds: STREET },
  { q: 'ß', tags: 'strasse', finds: STREET },
  { q: 'ς', tags: 'οδοσ', finds: GREEK_ROAD },
  // In a category.
  { q: 'σίσυφος', category: 'motion_graphics', finds: SISYPHUS },
  { q: 'σίσυφος', category: 'typography', finds: [] },
  { q: 'cafe\u0301', category: 'sound_effects', finds: CAFE },
  { q: 'ς', category: 'typography', finds: GREEK_ROAD },
  { q: 'İSTANBUL', category: 'photo_editing', finds: ['Istanbul at night'] },
  { tags: 'ＳＴＲＡẞＥ', category: 'sound_effects', finds: STREET },
  { q: 'chatter', tags: 'café', category: 'sound_effects', finds: ['caf\u00e9 chatter'] },
];

function queryOf(c: Case): string {
  const parts: string[] = [];
  if (c.q !== undefined) parts.push(`q=${encodeURIComponent(c.q)}`);
  if (c.tags !== undefined) parts.push(`tags=${encodeURIComponent(c.tags)}`);
  if (c.category) parts.push(`category=${categoryToSlug(c.category)}`);
  return parts.join('&');
}

describe.each(TEST_DATABASES)('Unicode search and tags on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await createAndSignIn(t.app, t.database, 'unicode_admin');
    for (const row of ROWS) await insertResource(t.database, { ...row, description: '-' });
  });
  afterAll(async () => {
    await t.close();
  });

  const titles = (items: { title: string }[]) => items.map((i) => i.title).sort();

  it.each(CASES)('public list: q=$q tags=$tags category=$category', async (c) => {
    const url = `/api/resources?${queryOf(c)}&limit=100`;
    const first = await t.app.inject({ url });
    expect(first.statusCode, first.body).toBe(200);
    expect(titles(first.json().items), url).toEqual([...c.finds].sort());
    expect(first.json()).toMatchObject({ total: c.finds.length, totalExact: true });
    // The same URL again: the cached answer.
    const cached = await t.app.inject({ url });
    expect(cached.body, url).toBe(first.body);
  });

  /** Limits that send these few rows down every page strategy: a walk checking rows, the set-checked walk (SQLite), bounded short walks. */
  const STRATEGIES: SearchLimits[] = [
    { ...SEARCH_LIMITS, countCap: 1, sortMatchesMax: 1, matchSetMax: 1 },
    { ...SEARCH_LIMITS, countCap: 1, sortMatchesMax: 1, matchSetMax: 100 },
    { ...SEARCH_LIMITS, shortTextCountScan: 3, shortTextPageScan: 2 },
  ];

  it.each(CASES)('every page strategy: q=$q tags=$tags category=$category', async (c) => {
    for (const limits of STRATEGIES) {
      const search = createResourceSearch(t.database, limits);
      const found: string[] = [];
      let after: { keys: (string | number)[]; id: number } | undefined;
      for (let pages = 0; pages < 50; pages++) {
        const page = await search.list({ filters: { q: c.q, tags: c.tags?.split(','), category: c.category }, sort: 'popular', limit: 2, after });
        found.push(...page.rows.map((r) => r.title));
        const last = page.continueAfter ?? page.rows.at(-1);
        if (!page.hasMore || !last) break;
        after = { keys: [Number(last.popularity), Number(last.download_count)], id: Number(last.id) };
      }
      expect(found.sort(), JSON.stringify(limits)).toEqual([...c.finds].sort());
    }
  });

  it.each(CASES.filter((c) => c.q !== undefined && c.tags === undefined))('admin list: q=$q category=$category', async (c) => {
    const url = `${API.adminResources}?${queryOf(c)}&limit=100`;
    const res = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(titles(res.json().items), url).toEqual([...c.finds].sort());
    expect(res.json()).toMatchObject({ total: c.finds.length, totalExact: true });
  });

  it('tags that fold alike are one tag: the first spelling is kept, one key is stored', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: admin.cookie },
      payload: {
        title: 'Tag spellings',
        description: '-',
        category: 'typography',
        thumbnail_url: '/thumbnails/1.svg',
        download_url: 'https://files.example.com/t.zip',
        tags: ['Straße', 'STRASSE', 'strasse', 'ΟΔΟΣ', 'οδος', 'cafe\u0301', 'café'],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tags).toEqual(['Straße', 'ΟΔΟΣ', 'cafe\u0301']);
    const keys = await t.database.db.selectFrom('resource_tags').select('tag').where('resource_id', '=', res.json().id).orderBy('tag').execute();
    expect(keys.map((k) => k.tag)).toEqual(['café', 'strasse', 'οδοσ'].sort());
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `${API.adminResources}/${res.json().id}`,
      headers: { cookie: admin.cookie },
      payload: { title: 'ΣΊΣΥΦΟΣ edited' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const found = await t.app.inject({ url: `/api/resources?q=${encodeURIComponent('σίσυφος ed')}` });
    expect(titles(found.json().items)).toEqual(['ΣΊΣΥΦΟΣ edited']);
    await t.app.inject({ method: 'DELETE', url: `${API.adminResources}/${res.json().id}`, headers: { cookie: admin.cookie } });
  });

  it('finds text written by SQL from outside the app by the same rule, once the next search has stored it', async () => {
    const id = await insertResource(t.database, { title: 'Before the direct write', description: '-', category: 'anime_edits' });
    await t.database.db.updateTable('resources').set({ title: 'ΣΊΣΥΦΟΣ written directly', tags: JSON.stringify(['ẞ-Direct']) }).where('id', '=', id).execute();
    const search = async (query: string) => titles((await t.app.inject({ url: `/api/resources?${query}` })).json().items);
    expect(await search(`q=${encodeURIComponent('σίσυφοσ written')}`)).toEqual(['ΣΊΣΥΦΟΣ written directly']);
    expect(await search('q=before%20the%20direct')).toEqual([]);
    expect(await search(`tags=${encodeURIComponent('ss-direct')}`)).toEqual(['ΣΊΣΥΦΟΣ written directly']);
    // A row inserted by SQL alone, with no search text at all.
    await t.database.db
      .insertInto('resources')
      .values({
        title: 'Inserted İSTANBUL row',
        description: '-',
        category: 'anime_edits',
        thumbnail_url: '/thumbnails/1.svg',
        download_url: 'https://files.example.com/direct.zip',
        is_premium: 0,
        tags: JSON.stringify(['Straße']),
        created_at: '2024-02-01T00:00:00.000Z',
        updated_at: '2024-02-01T00:00:00.000Z',
        admin_id: null,
      })
      .execute();
    expect(await search('q=inserted%20istanbul')).toEqual(['Inserted İSTANBUL row']);
    expect(await search('tags=strasse&category=anime-edits')).toEqual(['Inserted İSTANBUL row']);
  });
});
