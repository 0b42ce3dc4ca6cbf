import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../../contract/api-paths';
import { createAndSignIn, type SignedIn } from '../../../testing/auth-helpers';
import { createTestApp, openDatabaseBefore, TEST_DATABASES, type TestApp } from '../../../testing/test-utils';
import { migrateToLatest } from '../../../db/migrate';
import { generatedFacts } from '../../../../../scripts/generated-facts';
import { saveListing } from '../../listings/listings';
import { assignPreviewJob, enqueuePreviewJob, publishPreview } from '../../media/resource-previews';
import { computeStaleFacets, FORMAT_ROWS_MAX, facetProfile, facetRowsOf } from './facet-rows';

/** A facet profile's items in one form (numbers as JavaScript writes them), sorted: migration 041's SQL writes 1080.0 where the app writes 1080. */
const profileItems = (profile: string | null | undefined) =>
  profile === null || profile === undefined
    ? null
    : profile
        .split(' ')
        .map((item) => {
          const [kind, value] = item.split('=');
          return kind === 'height' || kind === 'duration' ? `${kind}=${Number(value)}` : item;
        })
        .sort();

/**
 * Each writer of what the facet rows come from (a preview made, a listing saved, an admin's apps,
 * category or download, a bulk move, SQL from outside the app) leaves them right: read straight from
 * resource_facets after the write, before any search could compute them.
 */
describe.each(TEST_DATABASES)('facet rows kept by every writer on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await createAndSignIn(t.app, t.database, 'facets_admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const profile = async (id: number) => (await db().selectFrom('resources').select('facet_profile').where('id', '=', id).executeTakeFirstOrThrow()).facet_profile;
  /** The resource's facet rows, checked against its profile (the same facts, as one string on its row). */
  const facets = async (id: number) => {
    const rows = (await db().selectFrom('resource_facets').select(['kind', 'value', 'number', 'category']).where('resource_id', '=', id).orderBy('kind').orderBy('value').execute()).map((r) => ({
      ...r,
      number: r.number === null ? null : Number(r.number),
    }));
    expect(profileItems(await profile(id)), `the profile of ${id}`).toEqual(profileItems(facetProfile(rows.map((r) => ({ ...r, resource_id: id, kind: r.kind as never })))));
    return rows;
  };
  const stale = async () => (await db().selectFrom('resource_facets_stale').select('resource_id').execute()).length;
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });
  const base = { title: 'Titles pack', description: 'd', category: 'motion_graphics', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/p.zip' };

  it('admin create and edit: apps, category; a bulk move; a listing saved; a preview published', async () => {
    const created = await send('POST', API.adminResources, { ...base, apps: [{ id: 'after-effects', min_version: '2024' }] });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    expect(await facets(id)).toEqual([{ kind: 'app', value: 'after-effects', number: null, category: 'motion_graphics' }]);

    const edited = await send('PATCH', API.adminResource(id), { ...base, category: 'video_editing', apps: [{ id: 'premiere-pro', min_version: '' }, { id: 'fonts', min_version: '' }] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await facets(id)).toEqual([
      { kind: 'app', value: 'fonts', number: null, category: 'video_editing' },
      { kind: 'app', value: 'premiere-pro', number: null, category: 'video_editing' },
    ]);

    const moved = await send('POST', API.adminResourcesBulk, { ids: [id], action: 'move', category: 'anime_edits' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await facets(id)).map((f) => f.category)).toEqual(['anime_edits', 'anime_edits']);

    // Back to deduced apps, then a hosted download listed: its extensions and what they point to.
    expect((await send('PATCH', API.adminResource(id), { ...base, apps: null })).statusCode).toBe(200);
    const file = [...Array(50).keys()].map((i) => generatedFacts('video_editing', i + 1, new Date()).file).find((f) => f !== null)!;
    const fileId = Number((await db().insertInto('files').values({ ...file, listing_status: null, listing_extensions: null }).returning('id').executeTakeFirstOrThrow()).id);
    await db().updateTable('resources').set({ download_file_id: fileId }).where('id', '=', id).execute();
    // Its read-me and saved links are not formats (NOT_FORMATS).
    await saveListing(t.database, fileId, { status: 'listed', entries: [], total_size: 10, extensions: { mogrt: 1, aep: 2, txt: 3, md: 1, url: 1, pdf: 1 } });
    expect(await facets(id)).toEqual([
      { kind: 'app', value: 'after-effects', number: null, category: 'motion_graphics' },
      { kind: 'app', value: 'premiere-pro', number: null, category: 'motion_graphics' },
      { kind: 'format', value: 'aep', number: null, category: 'motion_graphics' },
      { kind: 'format', value: 'mogrt', number: null, category: 'motion_graphics' },
      { kind: 'format', value: 'pdf', number: null, category: 'motion_graphics' },
    ]);

    // A preview job finishing: the video's duration, height and orientation.
    const job = (await enqueuePreviewJob(t.database, { kind: 'video', source: 'uploads/none' })).id;
    await assignPreviewJob(db(), [id], job);
    const preview = JSON.parse([...Array(50).keys()].map((i) => generatedFacts('video_editing', i + 1, new Date()).preview).find((p) => p !== null)!);
    await publishPreview(t.database, job, { ...preview, width: 1080, height: 1920, duration: 42.5 });
    const rows = await facets(id);
    expect(rows.filter((r) => r.kind !== 'app' && r.kind !== 'format')).toEqual([
      { kind: 'duration', value: '', number: 42.5, category: 'motion_graphics' },
      { kind: 'height', value: '', number: 1920, category: 'motion_graphics' },
      { kind: 'orientation', value: 'portrait', number: null, category: 'motion_graphics' },
    ]);
    expect(await stale()).toBe(0);
  });

  it('SQL from outside the app: the rows go at once, and the next filtered search computes them by the same rule', async () => {
    const id = Number((await send('POST', API.adminResources, { ...base, apps: [{ id: 'photoshop', min_version: '' }] })).json().id);
    expect(await profile(id)).toBe('app=photoshop');
    await sql`update resources set apps = ${JSON.stringify([{ id: 'lightroom' }])} where id = ${id}`.execute(db());
    expect(await facets(id)).toEqual([]);
    expect(await profile(id)).toBeNull();
    expect(await stale()).toBe(1);
    const found = await t.app.inject({ url: '/api/resources?app=lightroom' });
    expect(found.json().items.map((r: { id: number }) => r.id)).toEqual([id]);
    expect(await facets(id)).toEqual([{ kind: 'app', value: 'lightroom', number: null, category: 'motion_graphics' }]);
    expect(await profile(id)).toBe('app=lightroom');
    expect(await stale()).toBe(0);
  });

  it('a writer leaves a stale resource another transaction holds to it, and the next filtered search computes it', async () => {
    // On PostgreSQL a writer computing every stale resource would wait for the holder of one while
    // the holder waits for the writer's own row: a deadlock, one of them failing (two preview jobs did).
    const [a, b] = [0, 1].map(async () => Number((await send('POST', API.adminResources, { ...base, apps: [{ id: 'photoshop', min_version: '' }] })).json().id));
    const [ida, idb] = [await a, await b];
    await sql`update resources set apps = ${JSON.stringify([{ id: 'davinci-resolve' }])} where id = ${idb}`.execute(db());
    let edit: ReturnType<typeof send> | undefined;
    await db().transaction().execute(async (trx) => {
      // download_count: a write that bumps no data version, so it waits on rows alone.
      await sql`update resources set download_count = download_count where id = ${idb}`.execute(trx);
      edit = send('PATCH', API.adminResource(ida), { ...base, apps: [{ id: 'after-effects', min_version: '' }] });
      await new Promise((resolve) => setTimeout(resolve, kind === 'postgres' ? 300 : 0));
      await sql`update resources set download_count = download_count where id = ${ida}`.execute(trx);
    });
    expect((await edit!).statusCode).toBe(200);
    expect(await profile(ida)).toBe('app=after-effects');
    const found = await t.app.inject({ url: '/api/resources?app=davinci-resolve' });
    expect(found.json().items.map((r: { id: number }) => r.id)).toEqual([idb]);
    expect(await profile(idb)).toBe('app=davinci-resolve');
    expect(await stale()).toBe(0);
  });

  it('a pack of many odd extensions keeps its most frequent ones as formats, and a profile the sort index takes', async () => {
    const id = Number((await send('POST', API.adminResources, { ...base, apps: null })).json().id);
    const file = [...Array(50).keys()].map((i) => generatedFacts('video_editing', i + 1, new Date()).file).find((f) => f !== null)!;
    const fileId = Number((await db().insertInto('files').values({ ...file, listing_status: null, listing_extensions: null }).returning('id').executeTakeFirstOrThrow()).id);
    await db().updateTable('resources').set({ download_file_id: fileId }).where('id', '=', id).execute();
    // 500 extensions of 16 characters, the first 30 more frequent than the rest.
    const extensions = Object.fromEntries([...Array(500).keys()].map((i) => [`x${String(i).padStart(15, '0')}`, i < 30 ? 100 - i : 1]));
    await saveListing(t.database, fileId, { status: 'listed', entries: [], total_size: 10, extensions });
    const formats = (await facets(id)).filter((r) => r.kind === 'format').map((r) => r.value);
    expect(formats).toHaveLength(FORMAT_ROWS_MAX);
    expect(formats).toEqual(Object.keys(extensions).slice(0, FORMAT_ROWS_MAX).sort());
    expect((await profile(id))!.length).toBeLessThan(1300);
  });

  it("a download's listing changed from outside the app clears the profile of the resources it belongs to", async () => {
    const id = Number((await send('POST', API.adminResources, { ...base, apps: null })).json().id);
    const file = [...Array(50).keys()].map((i) => generatedFacts('video_editing', i + 1, new Date()).file).find((f) => f !== null)!;
    const fileId = Number((await db().insertInto('files').values({ ...file, listing_status: null, listing_extensions: null }).returning('id').executeTakeFirstOrThrow()).id);
    await db().updateTable('resources').set({ download_file_id: fileId }).where('id', '=', id).execute();
    await saveListing(t.database, fileId, { status: 'listed', entries: [], total_size: 10, extensions: { cube: 1 } });
    expect(await profile(id)).toBe('app=any-editor format=cube');
    await sql`update files set listing_extensions = ${JSON.stringify({ otf: 1 })} where id = ${fileId}`.execute(db());
    expect(await profile(id)).toBeNull();
    expect(await facets(id)).toEqual([]);
  });
});

/** Migration 039 computes the facet rows of the resources written before it, by the app's rule (facetRowsOf). */
describe.each(TEST_DATABASES)('facet rows after the upgrade to migration 039 on %s', (kind) => {
  it('every resource gets the rows its preview, apps and listing give', async () => {
    const { database, drop } = await openDatabaseBefore(kind, '039_resource_facets');
    try {
      const now = '2024-01-01T00:00:00.000Z';
      const made: { id: number; category: string; preview: string | null; apps: string | null; listing_extensions: string | null }[] = [];
      for (let i = 1; i <= 40; i++) {
        const category = ['video_editing', 'sound_effects', 'typography', 'color_grading'][i % 4];
        const g = generatedFacts(category, i, new Date(now));
        const fileId = g.file ? Number((await database.db.insertInto('files').values(g.file).returning('id').executeTakeFirstOrThrow()).id) : null;
        const apps = i % 5 === 0 ? JSON.stringify([{ id: 'fonts', min_version: null }]) : null;
        const row = await database.db
          .insertInto('resources')
          .values({ title: `R${i}`, description: '', category, thumbnail_url: '', download_url: 'https://e.example/x.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null, preview: g.preview, apps, download_file_id: fileId } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        made.push({ id: Number(row.id), category, preview: g.preview, apps, listing_extensions: g.file?.listing_extensions ?? null });
      }
      await migrateToLatest(database.db, database.dialect);
      const stored = await database.db.selectFrom('resource_facets').select(['resource_id', 'kind', 'value', 'number', 'category']).execute();
      const key = (r: { resource_id: number; kind: string; value: string; number: number | null; category: string }) =>
        `${Number(r.resource_id)} ${r.kind} ${r.value} ${r.number === null ? '' : Number(r.number)} ${r.category}`;
      const expected = made.flatMap((m) => facetRowsOf(m)).map(key).sort();
      expect(expected.length).toBeGreaterThan(40);
      expect(stored.map(key).sort()).toEqual(expected);
      expect(await database.db.selectFrom('resource_facets_stale').selectAll().execute()).toEqual([]);
      // Migration 041: each resource's profile, the same facts as its rows.
      const profiles = await database.db.selectFrom('resources').select(['id', 'facet_profile']).orderBy('id').execute();
      expect(profiles.map((r) => profileItems(r.facet_profile))).toEqual(made.map((m) => profileItems(facetProfile(facetRowsOf(m)))));
      expect(profiles.filter((r) => r.facet_profile !== null).length).toBeGreaterThan(20);
    } finally {
      await drop();
    }
  });
});

/** Migration 041 on a database whose facet rows came from a download of more extensions than the app keeps now. */
describe.each(TEST_DATABASES)('facet profiles after the upgrade to migration 041 on %s', (kind) => {
  it('a resource of too many format rows is left stale, without rows, until the app computes them by its rule', async () => {
    const { database, drop } = await openDatabaseBefore(kind, '041_facet_profiles');
    try {
      const now = '2024-01-01T00:00:00.000Z';
      const values = (title: string) => ({ title, description: '', category: 'typography', thumbnail_url: '', download_url: 'https://e.example/x.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null });
      const extensions = Object.fromEntries([...Array(120).keys()].map((i) => [`f${String(i).padStart(15, '0')}`, 120 - i]));
      const fileId = Number((await database.db.insertInto('files').values({ ...generatedFacts('typography', 1, new Date(now)).file!, listing_extensions: JSON.stringify(extensions) }).returning('id').executeTakeFirstOrThrow()).id);
      const big = Number((await database.db.insertInto('resources').values({ ...values('Big'), download_file_id: fileId } as never).returning('id').executeTakeFirstOrThrow()).id);
      const small = Number((await database.db.insertInto('resources').values({ ...values('Small'), apps: JSON.stringify([{ id: 'fonts', min_version: null }]) } as never).returning('id').executeTakeFirstOrThrow()).id);
      // As the app wrote them before migration 041: a row per extension.
      await database.db.deleteFrom('resource_facets_stale').execute();
      await database.db.deleteFrom('resource_facets').execute();
      await database.db.insertInto('resource_facets').values(Object.keys(extensions).map((value) => ({ resource_id: big, kind: 'format', value, number: null, category: 'typography' }))).execute();
      await database.db.insertInto('resource_facets').values({ resource_id: small, kind: 'app', value: 'fonts', number: null, category: 'typography' }).execute();

      await migrateToLatest(database.db, database.dialect);
      const profileOf = async (id: number) => (await database.db.selectFrom('resources').select('facet_profile').where('id', '=', id).executeTakeFirstOrThrow()).facet_profile;
      expect(await profileOf(small)).toBe('app=fonts');
      expect(await profileOf(big)).toBeNull();
      expect(await database.db.selectFrom('resource_facets').select('kind').where('resource_id', '=', big).execute()).toEqual([]);
      expect((await database.db.selectFrom('resource_facets_stale').select('resource_id').execute()).map((r) => Number(r.resource_id))).toEqual([big]);

      expect(await computeStaleFacets(database.db)).toBe(1);
      const formats = (await database.db.selectFrom('resource_facets').select('value').where('resource_id', '=', big).where('kind', '=', 'format').execute()).map((r) => r.value);
      expect(formats.sort()).toEqual(Object.keys(extensions).slice(0, FORMAT_ROWS_MAX));
      expect(profileItems(await profileOf(big))).toEqual(formats.map((f) => `format=${f}`));
    } finally {
      await drop();
    }
  });
});

/** Migration 044: the format rows of read-mes and saved links (NOT_FORMATS) written before it go, from the rows and the profiles. */
describe.each(TEST_DATABASES)('read-mes are not formats after the upgrade to migration 044 on %s', (kind) => {
  const version = async (db: TestApp['database']['db']) => Number((await sql<{ version: number }>`select version from data_version where id = 1`.execute(db)).rows[0]!.version);

  it('deletes their rows and takes them out of each profile, leaving every other item and look-alike', async () => {
    const { database, drop } = await openDatabaseBefore(kind, '044_read_me_is_not_a_format');
    try {
      const now = '2024-01-01T00:00:00.000Z';
      const values = (title: string, facet_profile: string | null) => ({ title, description: '', category: 'motion_graphics', thumbnail_url: '', download_url: 'https://e.example/x.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null, facet_profile });
      // As the app wrote them before migration 044.
      const made: Record<string, { id: number; items: string[] }> = {};
      for (const [name, items] of Object.entries({
        pack: ['app=after-effects', 'format=aep', 'format=txt', 'format=url', 'height=1080'],
        readme: ['format=txt'],
        alike: ['format=txts', 'format=md5', 'format=pdf'],
        none: [],
      })) {
        const id = Number((await database.db.insertInto('resources').values(values(name, items.length ? items.join(' ') : null) as never).returning('id').executeTakeFirstOrThrow()).id);
        made[name] = { id, items };
      }
      await database.db.deleteFrom('resource_facets_stale').execute();
      await database.db.deleteFrom('resource_facets').execute();
      for (const { id, items } of Object.values(made)) {
        for (const item of items) {
          const [k, v] = item.split('=') as [string, string];
          const row = k === 'height' ? { kind: k, value: '', number: Number(v) } : { kind: k, value: v, number: null };
          await database.db.insertInto('resource_facets').values({ resource_id: id, ...row, category: 'motion_graphics' } as never).execute();
        }
      }

      const before = await version(database.db);
      await migrateToLatest(database.db, database.dialect);
      // Public answers changed: caches keyed by the data version let go of them.
      expect(await version(database.db)).toBeGreaterThan(before);
      const after = async (id: number) => ({
        profile: (await database.db.selectFrom('resources').select('facet_profile').where('id', '=', id).executeTakeFirstOrThrow()).facet_profile,
        rows: (await database.db.selectFrom('resource_facets').select(['kind', 'value']).where('resource_id', '=', id).execute()).map((r) => `${r.kind}=${r.value}`).sort(),
      });
      expect(await after(made.pack!.id)).toEqual({ profile: 'app=after-effects format=aep height=1080', rows: ['app=after-effects', 'format=aep', 'height='] });
      expect(await after(made.readme!.id)).toEqual({ profile: null, rows: [] });
      expect(await after(made.alike!.id)).toEqual({ profile: 'format=txts format=md5 format=pdf', rows: ['format=md5', 'format=pdf', 'format=txts'] });
      expect(await after(made.none!.id)).toEqual({ profile: null, rows: [] });
      expect(await database.db.selectFrom('resource_facets_stale').select('resource_id').execute()).toEqual([]);
    } finally {
      await drop();
    }
  });

  it('writes nothing where there is nothing to take out: the data version stays', async () => {
    const { database, drop } = await openDatabaseBefore(kind, '044_read_me_is_not_a_format');
    try {
      const before = await version(database.db);
      await migrateToLatest(database.db, database.dialect);
      expect(await version(database.db)).toBe(before);
    } finally {
      await drop();
    }
  });
});
