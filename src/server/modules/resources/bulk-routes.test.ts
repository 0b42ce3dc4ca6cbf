import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { BULK_MAX } from '../../../contract/bulk';
import { TAGS_MAX } from '../../../contract/constants';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';

/** Bulk actions (POST /api/admin/resources/bulk) and the ids of "Select all N matching" (GET /api/admin/resources/ids). */
describe.each(TEST_DATABASES)('bulk actions on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind, { publicUrl: 'https://vault.example' });
    admin = await createAndSignIn(t.app, t.database, 'bulk_admin');
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('resource_tags').execute();
    await t.database.db.deleteFrom('resources').execute();
  });

  const db = () => t.database.db;
  const bulk = (payload: unknown) => t.app.inject({ method: 'POST', url: API.adminResourcesBulk, payload: payload as object, headers: { cookie: admin.cookie } });
  let n = 0;
  /** A resource made through the admin API, as the form makes it. */
  const make = async (extra: Record<string, unknown> = {}) => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: admin.cookie },
      payload: { title: `Bulk item ${n}`, description: 'd', category: 'sound_effects', thumbnail_url: '/thumbnails/1.svg', download_url: `https://example.com/${n}.zip`, ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; created_at: string; updated_at: string };
  };
  const row = (id: number) => db().selectFrom('resources').select(['status', 'publish_at', 'category', 'is_premium', 'tags', 'created_at', 'updated_at']).where('id', '=', id).executeTakeFirst();
  const tagRows = async (id: number) => (await db().selectFrom('resource_tags').select('tag').where('resource_id', '=', id).orderBy('tag').execute()).map((r) => r.tag);
  const everything = async () => ({
    resources: await db().selectFrom('resources').selectAll().orderBy('id').execute(),
    tags: await db().selectFrom('resource_tags').selectAll().orderBy('resource_id').orderBy('tag').execute(),
  });
  const publicIds = async () => ((await t.app.inject({ url: '/api/resources?category=sound-effects&sort=newest' })).json().items as { id: number }[]).map((r) => r.id);

  it('publish: drafts and scheduled ones are public at once (publish_at cleared, new as of now); caches and the sitemap follow', async () => {
    const draft = await make({ status: 'draft' });
    const scheduled = await make({ status: 'scheduled', publish_at: new Date(Date.now() + 3_600_000).toISOString() });
    const published = await make();
    // Warm the public caches with the list and the sitemap as they are before.
    expect(await publicIds()).toEqual([published.id]);
    const sitemapBefore = (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(sitemapBefore).not.toContain(`/resources/${draft.id}-`);
    const publishedRowBefore = await row(published.id);

    const res = await bulk({ ids: [draft.id, scheduled.id, published.id], action: 'publish' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ results: [draft, scheduled, published].map((r) => ({ id: r.id, ok: true })), succeeded: 3, failed: 0 });
    for (const id of [draft.id, scheduled.id]) {
      const r = await row(id);
      expect(r).toMatchObject({ status: 'published', publish_at: null });
      expect(r!.created_at > draft.created_at).toBe(true);
      expect((await t.app.inject({ url: API.resource(id) })).statusCode).toBe(200);
    }
    // Already published: left as it was (not even updated_at).
    expect(await row(published.id)).toEqual(publishedRowBefore);
    expect((await publicIds()).sort()).toEqual([draft.id, scheduled.id, published.id].sort());
    const sitemap = (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(sitemap).toContain(`/resources/${draft.id}-`);
    expect(sitemap).toContain(`/resources/${scheduled.id}-`);
  });

  it('unpublish: published and scheduled ones become drafts and leave the public site', async () => {
    const a = await make();
    const b = await make({ status: 'scheduled', publish_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await publicIds()).toEqual([a.id]);
    const res = await bulk({ ids: [a.id, b.id], action: 'unpublish' });
    expect(res.json()).toMatchObject({ succeeded: 2, failed: 0 });
    expect(await row(a.id)).toMatchObject({ status: 'draft', publish_at: null });
    expect(await row(b.id)).toMatchObject({ status: 'draft', publish_at: null });
    expect(await publicIds()).toEqual([]);
    expect((await t.app.inject({ url: API.resource(a.id) })).statusCode).toBe(404);
  });

  it('trash: each resource goes the way of the single delete; an unknown id is reported not found', async () => {
    const a = await make({ tags: ['Boom'] });
    const b = await make();
    const res = await bulk({ ids: [a.id, 999_999, b.id], action: 'trash' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      results: [
        { id: a.id, ok: true },
        { id: 999_999, ok: false, error: { code: 'NOT_FOUND', message: 'Resource not found' } },
        { id: b.id, ok: true },
      ],
      succeeded: 2,
      failed: 1,
    });
    expect(await publicIds()).toEqual([]);
    // As after DELETE /api/admin/resources/:id: into the trash, tags kept (decision 398).
    expect(await db().selectFrom('resources').select(['status', 'status_before_trash']).where('id', '=', a.id).executeTakeFirst()).toEqual({ status: 'trashed', status_before_trash: 'published' });
    const single = await make({ tags: ['Boom'] });
    expect((await t.app.inject({ method: 'DELETE', url: API.adminResource(single.id), headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    const shape = async (id: number) => ({ row: (await row(id)) === undefined ? 'gone' : 'kept', tags: await tagRows(id) });
    expect(await shape(a.id)).toEqual(await shape(single.id));
  });

  it('a resource in the trash is out of reach of every action (restore it first): not found, and left as it was', async () => {
    const a = await make({ tags: ['Boom'] });
    expect((await t.app.inject({ method: 'DELETE', url: API.adminResource(a.id), headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    const before = await row(a.id);
    for (const body of [
      { action: 'publish' },
      { action: 'unpublish' },
      { action: 'trash' },
      { action: 'move', category: 'typography' },
      { action: 'add_tags', tags: ['New'] },
      { action: 'remove_tags', tags: ['Boom'] },
      { action: 'premium' },
      { action: 'not_premium' },
    ]) {
      const res = await bulk({ ids: [a.id], ...body });
      expect(res.json(), body.action).toEqual({ results: [{ id: a.id, ok: false, error: { code: 'NOT_FOUND', message: 'Resource not found' } }], succeeded: 0, failed: 1 });
    }
    expect(await row(a.id)).toEqual(before);
  });

  it('move: to another category (the list and the public list follow); the same category is left as it was', async () => {
    const a = await make();
    const b = await make({ category: 'typography' });
    const bBefore = await row(b.id);
    const res = await bulk({ ids: [a.id, b.id], action: 'move', category: 'typography' });
    expect(res.json()).toMatchObject({ succeeded: 2, failed: 0 });
    expect(await row(a.id)).toMatchObject({ category: 'typography' });
    expect(await row(b.id)).toEqual(bBefore);
    expect(await publicIds()).toEqual([]);
    const typography = (await t.app.inject({ url: '/api/resources?category=typography' })).json().items.map((r: { id: number }) => r.id);
    expect(typography.sort()).toEqual([a.id, b.id].sort());
  });

  it('add_tags and remove_tags: by the form\'s rules (a tag as typed once, ignoring case), search and the tag filter follow', async () => {
    const a = await make({ tags: ['Cinematic'] });
    const b = await make({ tags: [] });
    let res = await bulk({ ids: [a.id, b.id], action: 'add_tags', tags: [' cinematic ', 'Dark Mood', 'dark mood'] });
    expect(res.json()).toMatchObject({ succeeded: 2, failed: 0 });
    expect(JSON.parse((await row(a.id))!.tags)).toEqual(['Cinematic', 'Dark Mood']);
    expect(JSON.parse((await row(b.id))!.tags)).toEqual(['cinematic', 'Dark Mood']);
    expect(await tagRows(a.id)).toEqual(['cinematic', 'dark mood']);
    const tagged = (await t.app.inject({ url: '/api/resources?category=sound-effects&tags=dark%20mood' })).json().items.map((r: { id: number }) => r.id);
    expect(tagged.sort()).toEqual([a.id, b.id].sort());

    res = await bulk({ ids: [a.id, b.id], action: 'remove_tags', tags: ['CINEMATIC'] });
    expect(res.json()).toMatchObject({ succeeded: 2, failed: 0 });
    expect(JSON.parse((await row(a.id))!.tags)).toEqual(['Dark Mood']);
    expect(await tagRows(b.id)).toEqual(['dark mood']);
    const searched = (await t.app.inject({ url: '/api/resources?category=sound-effects&q=cinematic' })).json().items;
    expect(searched).toEqual([]);
  });

  it('premium and not_premium', async () => {
    const a = await make();
    const b = await make({ is_premium: true });
    expect((await bulk({ ids: [a.id, b.id], action: 'premium' })).json()).toMatchObject({ succeeded: 2 });
    expect([(await row(a.id))!.is_premium, (await row(b.id))!.is_premium].map(Number)).toEqual([1, 1]);
    expect((await bulk({ ids: [a.id], action: 'not_premium' })).json()).toMatchObject({ succeeded: 1 });
    expect(Number((await row(a.id))!.is_premium)).toBe(0);
    expect(Number((await row(b.id))!.is_premium)).toBe(1);
  });

  it('each id all or nothing: one that fails is itself unchanged, the others are done', async () => {
    const full = await make({ tags: Array.from({ length: TAGS_MAX }, (_, i) => `Tag ${i}`) });
    const a = await make({ tags: ['Keep'] });
    const doomed = await make({ tags: ['Keep'] });
    const b = await make();
    // The tag rows of `doomed` cannot be written: its row's update has run in the transaction
    // when this fails, so only rolling back the whole id leaves it unchanged.
    if (kind === 'postgres') {
      await sql`create function refuse_doomed() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(db());
      await sql`create trigger refuse_doomed before insert on resource_tags for each row when (new.resource_id = ${sql.lit(doomed.id)}) execute function refuse_doomed()`.execute(db());
    } else {
      await sql`create trigger refuse_doomed before insert on resource_tags when new.resource_id = ${sql.lit(doomed.id)} begin select raise(abort, 'refused by the test'); end`.execute(db());
    }
    try {
      const before = { full: await row(full.id), doomed: await row(doomed.id), doomedTags: await tagRows(doomed.id) };
      const res = await bulk({ ids: [a.id, full.id, doomed.id, b.id], action: 'add_tags', tags: ['Fresh'] });
      expect(res.statusCode).toBe(200);
      const { results, succeeded, failed } = res.json();
      expect([succeeded, failed]).toEqual([2, 2]);
      expect(results[0]).toEqual({ id: a.id, ok: true });
      expect(results[1]).toEqual({ id: full.id, ok: false, error: { code: 'VALIDATION_ERROR', message: `A resource has at most ${TAGS_MAX} tags: this one would have ${TAGS_MAX + 1}` } });
      expect(results[2]).toEqual({ id: doomed.id, ok: false, error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' } });
      expect(results[3]).toEqual({ id: b.id, ok: true });
      expect(await row(full.id)).toEqual(before.full);
      expect(await row(doomed.id)).toEqual(before.doomed);
      expect(await tagRows(doomed.id)).toEqual(before.doomedTags);
      expect(await tagRows(a.id)).toEqual(['fresh', 'keep']);
      expect(await tagRows(b.id)).toEqual(['fresh']);
    } finally {
      if (kind === 'postgres') {
        await sql`drop trigger refuse_doomed on resource_tags`.execute(db());
        await sql`drop function refuse_doomed`.execute(db());
      } else {
        await sql`drop trigger refuse_doomed`.execute(db());
      }
    }
  });

  it(`takes up to ${BULK_MAX} ids in one request`, { timeout: 60_000 }, async () => {
    const a = await make({ status: 'draft' });
    const ids = [a.id, ...Array.from({ length: BULK_MAX - 1 }, (_, i) => 1_000_000 + i)];
    const res = await bulk({ ids, action: 'publish' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ succeeded: 1, failed: BULK_MAX - 1 });
    expect(res.json().results).toHaveLength(BULK_MAX);
    expect(await row(a.id)).toMatchObject({ status: 'published' });
  });

  it('bad input: 400 naming the field, nothing changed', async () => {
    const a = await make({ status: 'draft', tags: ['Keep'] });
    const before = await everything();
    const cases: [unknown, string][] = [
      [{ ids: [], action: 'publish' }, 'ids'],
      [{ ids: Array.from({ length: BULK_MAX + 1 }, (_, i) => i + 1), action: 'publish' }, 'ids'],
      [{ ids: [a.id, a.id], action: 'publish' }, 'ids'],
      [{ ids: [0], action: 'publish' }, 'ids.0'],
      [{ ids: [-3], action: 'publish' }, 'ids.0'],
      [{ ids: [1.5], action: 'publish' }, 'ids.0'],
      [{ ids: [String(a.id)], action: 'publish' }, 'ids.0'],
      [{ ids: [2_147_483_648], action: 'publish' }, 'ids.0'],
      [{ ids: 'all', action: 'publish' }, 'ids'],
      [{ action: 'publish' }, 'ids'],
      [{ ids: [a.id] }, 'action'],
      [{ ids: [a.id], action: 'delete' }, 'action'],
      [{ ids: [a.id], action: 'move' }, 'category'],
      [{ ids: [a.id], action: 'move', category: 'nowhere' }, 'category'],
      [{ ids: [a.id], action: 'add_tags' }, 'tags'],
      [{ ids: [a.id], action: 'add_tags', tags: [] }, 'tags'],
      [{ ids: [a.id], action: 'add_tags', tags: ['a,b'] }, 'tags.0'],
      [{ ids: [a.id], action: 'add_tags', tags: ['x'.repeat(41)] }, 'tags.0'],
      [{ ids: [a.id], action: 'remove_tags', tags: ['  '] }, 'tags.0'],
      [{ ids: [a.id], action: 'remove_tags', tags: Array.from({ length: TAGS_MAX + 1 }, (_, i) => `t${i}`) }, 'tags'],
      [{ ids: [a.id], action: 'publish', category: 'typography' }, 'category'],
      [{ ids: [a.id], action: 'move', category: 'typography', tags: ['x'] }, 'tags'],
      [{ ids: [a.id], action: 'premium', colour: 'red' }, '_'],
    ];
    for (const [payload, field] of cases) {
      const res = await bulk(payload);
      const where = JSON.stringify(payload).slice(0, 120);
      expect(res.statusCode, `${where}: ${res.body}`).toBe(400);
      expect(res.json().error.code, where).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().error.fields ?? {}), `${where}: ${res.body}`).toContain(field);
    }
    expect(await everything()).toEqual(before);
  });

  it('is for signed-in admins only', async () => {
    const a = await make({ status: 'draft' });
    const res = await t.app.inject({ method: 'POST', url: API.adminResourcesBulk, payload: { ids: [a.id], action: 'publish' } });
    expect(res.statusCode).toBe(401);
    expect(await row(a.id)).toMatchObject({ status: 'draft' });
  });

  describe('ids of the list\'s matches', () => {
    const ids = (query: string) => t.app.inject({ url: `${API.adminResourceIds}?${query}`, headers: { cookie: admin.cookie } });

    it('answers the ids the admin list shows for the same filters (category, status, q), newest first, with the total', async () => {
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await make({ status: i % 2 === 0 ? 'draft' : 'published', title: i < 3 ? `Thunder ${i}` : `Rain ${i}` }));
      await make({ category: 'typography', status: 'draft', title: 'Thunder elsewhere' });
      const newestFirst = (list: { id: number }[]) => list.map((r) => r.id).reverse();
      const all = await ids('category=sound_effects');
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual({ ids: newestFirst(made), total: 5, totalExact: true });
      expect((await ids('category=sound-effects&status=draft')).json()).toEqual({ ids: newestFirst([made[0], made[2], made[4]]), total: 3, totalExact: true });
      expect((await ids('category=sound_effects&status=draft&q=thunder')).json()).toEqual({ ids: newestFirst([made[0], made[2]]), total: 2, totalExact: true });
      // The same as the list's pages, whatever the filters.
      for (const query of ['category=sound_effects', 'category=sound_effects&status=draft&q=thunder', 'q=th', 'status=draft']) {
        const list = (await t.app.inject({ url: `${API.adminResources}?${query}&limit=100`, headers: { cookie: admin.cookie } })).json();
        expect((await ids(query)).json(), query).toEqual({ ids: list.items.map((r: { id: number }) => r.id), total: list.total, totalExact: list.totalExact });
      }
      expect((await ids('category=sound_effects&q=nothing-like-it')).json()).toEqual({ ids: [], total: 0, totalExact: true });
    });

    it(`stops at ${BULK_MAX} ids and says how many match`, { timeout: 120_000 }, async () => {
      const now = Date.now();
      const values = Array.from({ length: BULK_MAX + 5 }, (_, i) => {
        const at = new Date(now - i * 1000).toISOString();
        return { title: `Many ${i}`, description: 'd', category: 'sound_effects', thumbnail_url: '/t.svg', download_url: 'https://example.com/m.zip', is_premium: 0, tags: '[]', created_at: at, updated_at: at, admin_id: null };
      });
      await db().insertInto('resources').values(values).execute();
      const res = (await ids('category=sound_effects')).json();
      expect(res.total).toBe(BULK_MAX + 5);
      expect(res.totalExact).toBe(true);
      expect(res.ids).toHaveLength(BULK_MAX);
      const newest = await db().selectFrom('resources').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(BULK_MAX).execute();
      expect(res.ids).toEqual(newest.map((r) => Number(r.id)));
    });

    it('refuses what the list refuses: 400', async () => {
      for (const query of ['category=nowhere', 'status=gone', `q=${'x'.repeat(300)}`, 'q=%00']) {
        expect((await ids(query)).statusCode, query).toBe(400);
      }
    });
  });
});
