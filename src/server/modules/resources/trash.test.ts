import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AdminResourceList, PreviewLink, Resource } from '../../../contract/resources';
import type { TrashList } from '../../../contract/trash';
import type { Dashboard } from '../../../contract/dashboard';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { BROWSER, TEST_DATABASES } from '../../testing/test-utils';
import { type FilesTestApp, randomData, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { liveFigures } from '../settings/figures';
import { sweepFiles } from '../files/sweep';
import { createUploads } from '../files/uploads';
import { JobKinds } from '../../jobs/kinds';
import { openFileStore } from '../../storage/open';
import { countPublicResources } from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The trash (docs/decisions/398-the-trash-is-a-status.md): a deleted resource does not exist for
 * visitors through any public route, while a published one beside it (same category and tag) does,
 * so each check can fail; its files, media, counts and page address are kept, and a restore brings
 * every answer back. Each resource has a hosted download and thumbnail (file links and media).
 */
describe.each(TEST_DATABASES)('the trash on %s', (kind) => {
  let t: FilesTestApp;
  let root: SignedIn;
  let clientDir: string;
  const made: Record<'kept' | 'gone', Resource> = {} as never;
  let fileLink = '';

  async function create(name: keyof typeof made) {
    // Each its own image: media are named by their content, and a key a public resource also owns is served.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: name === 'kept' ? 200 : 40, b: 90 } } }).png().toBuffer();
    const thumb = await tusUpload(t, png, { name: `${name}.png`, purpose: 'thumbnail' });
    const file = await tusUpload(t, randomData(2048), { name: `${name}.zip` });
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: t.admin.cookie },
      payload: {
        title: `Walrus pack ${name}`,
        description: 'Tusks for every edit',
        category: 'premium_resources',
        tags: ['Tusks'],
        is_premium: true,
        thumbnail_upload_id: thumb.id,
        download_upload_id: file.id,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    made[name] = res.json();
  }

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
  const asAdmin = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, who: SignedIn = t.admin, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
  const ids = (body: { items: { id: number }[] }) => body.items.map((r) => r.id);
  const listed = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return ids(res.json());
  };
  const download = (id: number, headers: Record<string, string> = BROWSER) => t.app.inject({ method: 'POST', url: API.download(id), headers });
  const fileIdsOf = async (id: number) => {
    const row = await t.database.db.selectFrom('resources').select(['download_file_id', 'thumbnail_file_id']).where('id', '=', id).executeTakeFirstOrThrow();
    return [Number(row.download_file_id), Number(row.thumbnail_file_id)];
  };
  let goneFiles: number[] = [];
  const mediaOf = (r: Resource) => [...new Set([r.thumbnail!.src, ...r.thumbnail!.srcset.split(',').map((c) => c.trim().split(' ')[0]!)])];

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'rv-trash-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await startFilesApp(kind, 'local', { clientDir });
    root = await createAndSignIn(t.app, t.database, 'trash_root', { superUser: true });
    await create('kept');
    await create('gone');
    // Counts kept: two downloads before the delete, and a file link handed out while public.
    expect((await download(made.gone.id)).statusCode).toBe(200);
    fileLink = new URL((await download(made.gone.id)).json().download_url).pathname;
    expect((await get(fileLink)).statusCode).toBe(200);
    // Everything public names it before the delete (so each check below can fail).
    expect(await listed(API.related(made.kept.id))).toEqual([made.gone.id]);
    expect(await listed(API.premium)).toContain(made.gone.id);
    goneFiles = await fileIdsOf(made.gone.id);
    const del = await asAdmin('DELETE', API.adminResource(made.gone.id));
    expect(del.statusCode, del.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('lists: a category, all, the premium carousel, related', async () => {
    expect(await listed('/api/resources?category=premium-resources')).toEqual([made.kept.id]);
    expect(await listed('/api/resources')).toEqual([made.kept.id]);
    expect((await get('/api/resources?category=premium-resources')).json()).toMatchObject({ total: 1, totalExact: true });
    expect(await listed(API.premium)).toEqual([made.kept.id]);
    expect(await listed(API.related(made.kept.id))).toEqual([]);
    expect((await get(API.related(made.gone.id))).statusCode).toBe(404);
  });

  it.each([
    ['a text', 'q=walrus'],
    ['a text in a category', 'q=walrus&category=premium-resources'],
    ['a 1–2 character text', 'q=wa'],
    ['tags', 'tags=tusks'],
    ['tags in a category', 'tags=tusks&category=premium-resources'],
    ['a text and tags', 'q=walrus&tags=tusks'],
  ])('search: %s', async (_label, query) => {
    for (const sort of ['popular', 'newest', 'downloads']) {
      const res = await get(`/api/resources?${query}&sort=${sort}`);
      expect(ids(res.json()), `${query} ${sort}`).toEqual([made.kept.id]);
      expect(res.json().total, `${query} ${sort}`).toBe(1);
    }
  });

  it('counts: category cards, the home figures and the admin dashboard', async () => {
    const categories = (await get(API.categories)).json().items as { value: string; count: number }[];
    expect(categories.find((c) => c.value === 'premium_resources')!.count).toBe(1);
    expect(await countPublicResources(t.database.db)).toBe(1);
    expect((await liveFigures(t.database)).resources.value).toBe(1);
    const dashboard = (await asAdmin('GET', API.dashboard)).json<Dashboard>();
    expect(dashboard.total_resources).toBe(1);
    expect(dashboard.categories.find((c) => c.category === 'premium_resources')!.count).toBe(1);
    expect(dashboard.top_resources.map((r) => r.id)).toEqual([made.kept.id]);
    // Downloads already recorded stay in the total (decision 400).
    expect(dashboard.total_downloads).toBe(2);
  });

  it('its API answer, page, sitemap entry and social card: 404 / absent', async () => {
    expect((await get(API.resource(made.gone.id))).statusCode).toBe(404);
    expect((await get(API.resource(made.kept.id))).statusCode).toBe(200);
    const page = await get(made.gone.url);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<meta name="robots" content="noindex" />');
    expect((await get(made.kept.url)).statusCode).toBe(200);
    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(made.kept.url);
    expect(sitemap).not.toContain(`/resources/${made.gone.id}-`);
    expect((await get(`/og/resources/${made.gone.id}.jpg`)).statusCode).toBe(404);
    expect((await get(`/og/resources/${made.kept.id}.jpg`)).statusCode).toBe(200);
  });

  it('downloads, the file link handed out before, thumbnails and media: 404 for visitors; media still shown to admins', async () => {
    expect((await download(made.gone.id)).statusCode).toBe(404);
    expect((await download(made.gone.id, { 'user-agent': 'curl/8.0' })).statusCode).toBe(404);
    expect((await get(API.download(made.gone.id), BROWSER)).statusCode).toBe(404);
    expect((await get(fileLink)).statusCode).toBe(404);
    expect((await get(`/thumbnails/${made.gone.id}.svg`)).statusCode).toBe(404);
    expect((await get(`/thumbnails/${made.kept.id}.svg`)).statusCode).toBe(200);
    for (const url of mediaOf(made.gone)) {
      expect((await get(url)).statusCode, url).toBe(404);
      expect((await get(url, { cookie: t.admin.cookie })).statusCode, url).toBe(200);
    }
    expect((await get(made.kept.thumbnail!.src)).statusCode).toBe(200);
  });

  it('a preview link made before the delete opens neither its page nor its media', async () => {
    // Made for a draft-like copy: a resource in the trash gets no preview link at all.
    expect((await asAdmin('POST', API.adminResourcePreviewLink(made.gone.id))).statusCode).toBe(404);
    const restored = await asAdmin('POST', API.adminTrashRestore(made.gone.id));
    expect(restored.statusCode, restored.body).toBe(200);
    const link = (await asAdmin('POST', API.adminResourcePreviewLink(made.gone.id))).json<PreviewLink>();
    const token = new URL(link.url, t.base).searchParams.get('preview')!;
    expect((await asAdmin('DELETE', API.adminResource(made.gone.id))).statusCode).toBe(200);
    expect((await get(link.url)).statusCode).toBe(404);
    expect((await get(`/thumbnails/${made.gone.id}.svg?preview=${token}`)).statusCode).toBe(404);
    for (const url of mediaOf(made.gone)) expect((await get(`${url}?preview=${token}`)).statusCode, url).toBe(404);
  });

  it('the admin list leaves it out, with any status filter; it cannot be edited, retried or deleted again', async () => {
    const list = (await asAdmin('GET', API.adminResources)).json<AdminResourceList>();
    expect(ids(list)).toEqual([made.kept.id]);
    expect(list.total).toBe(1);
    for (const q of ['status=published', 'status=draft', `id=${made.gone.id}`, 'q=walrus', 'q=wa', 'category=premium-resources']) {
      expect(ids((await asAdmin('GET', `${API.adminResources}?${q}`)).json()), q).not.toContain(made.gone.id);
    }
    expect((await asAdmin('GET', `${API.adminResources}?status=trashed`)).statusCode).toBe(400);
    const edit = await asAdmin('PATCH', API.adminResource(made.gone.id), t.admin, { title: 'Edited in the trash' });
    expect(edit.statusCode).toBe(404);
    expect((await asAdmin('PATCH', API.adminResource(made.gone.id), t.admin, { status: 'published' })).statusCode).toBe(404);
    expect((await asAdmin('DELETE', API.adminResource(made.gone.id))).statusCode).toBe(404);
    const retry = await asAdmin('POST', API.adminResourcePreviewRetry(made.gone.id));
    expect(retry.statusCode).toBe(404);
    expect(retry.json().error.message).toBe('Resource not found');
    const row = await t.database.db.selectFrom('resources').select(['title', 'status']).where('id', '=', made.gone.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: made.gone.title, status: 'trashed' });
  });

  it('the Trash page lists it with when it is purged; a bad cursor is a 400', async () => {
    const res = await asAdmin('GET', API.adminTrash);
    expect(res.statusCode, res.body).toBe(200);
    const trash = res.json<TrashList>();
    expect(trash).toMatchObject({ total: 1, trash_days: 30, nextCursor: null });
    const [item] = trash.items;
    expect(item).toMatchObject({ id: made.gone.id, title: made.gone.title, category: 'premium_resources', status_before_trash: 'published', download_count: 2 });
    expect(Date.parse(item!.purge_at) - Date.parse(item!.trashed_at)).toBe(30 * DAY_MS);
    expect(Math.abs(Date.parse(item!.trashed_at) - Date.now())).toBeLessThan(120_000);
    expect((await asAdmin('GET', `${API.adminTrash}?cursor=nope`)).statusCode).toBe(400);
    expect((await asAdmin('GET', `${API.adminTrash}?limit=0`)).statusCode).toBe(400);
  });

  it('the sweep frees none of its files or media while it is in the trash', async () => {
    // The sweep as another instance runs it: the same database and store.
    const opened = openFileStore(t.config);
    try {
      const ctx = { config: t.config, database: t.database, files: opened.files, jobs: new JobKinds() };
      await sweepFiles(ctx, createUploads(ctx), { nowMs: Date.now() + 365 * DAY_MS, graceMs: 0 });
    } finally {
      opened.close();
    }
    const files = await t.database.db.selectFrom('files').select(['id', 'detached_at']).where('id', 'in', goneFiles).execute();
    expect(files.map((f) => f.detached_at)).toEqual([null, null]);
    for (const url of mediaOf(made.gone)) expect((await get(url, { cookie: t.admin.cookie })).statusCode, url).toBe(200);
  });

  it('a restore brings everything back as it was: lists, counts, page address, downloads, file link, media', async () => {
    const res = await asAdmin('POST', API.adminTrashRestore(made.gone.id));
    expect(res.statusCode, res.body).toBe(200);
    const back = res.json<Resource>();
    expect(back).toMatchObject({ id: made.gone.id, status: 'published', url: made.gone.url, download_count: 2, created_at: made.gone.created_at });
    expect(back.file).toEqual(made.gone.file);
    expect(back.thumbnail).toEqual(made.gone.thumbnail);
    expect(await listed('/api/resources?category=premium-resources&sort=newest')).toEqual([made.gone.id, made.kept.id]);
    expect(await listed(API.related(made.kept.id))).toEqual([made.gone.id]);
    expect((await get(made.gone.url)).statusCode).toBe(200);
    expect((await get(fileLink)).statusCode).toBe(200);
    for (const url of mediaOf(made.gone)) expect((await get(url)).statusCode, url).toBe(200);
    expect((await download(made.gone.id)).json().download_count).toBe(3);
    expect((await asAdmin('GET', API.adminTrash)).json<TrashList>()).toMatchObject({ total: 0, items: [] });
    // Nothing to restore twice.
    expect((await asAdmin('POST', API.adminTrashRestore(made.gone.id))).statusCode).toBe(404);
  });

  it('a draft or scheduled resource comes back as a draft or scheduled, with its publish time', async () => {
    const publishAt = new Date(Date.now() + 3_600_000).toISOString();
    await asAdmin('PATCH', API.adminResource(made.gone.id), t.admin, { status: 'scheduled', publish_at: publishAt });
    expect((await asAdmin('DELETE', API.adminResource(made.gone.id))).statusCode).toBe(200);
    const back = (await asAdmin('POST', API.adminTrashRestore(made.gone.id))).json<Resource>();
    expect(back).toMatchObject({ status: 'scheduled', publish_at: publishAt });
    await asAdmin('PATCH', API.adminResource(made.gone.id), t.admin, { status: 'published' });
  });

  it('"Delete forever": super admins only, for a resource in the trash only; its row goes and its files are left to the sweep', async () => {
    expect((await asAdmin('DELETE', API.adminTrashItem(made.gone.id), root)).statusCode).toBe(404); // not in the trash
    expect((await asAdmin('DELETE', API.adminResource(made.gone.id))).statusCode).toBe(200);
    expect((await asAdmin('DELETE', API.adminTrashItem(made.gone.id))).statusCode).toBe(403);
    expect((await asAdmin('DELETE', API.adminTrashItem(made.gone.id), root)).statusCode).toBe(200);
    expect(await t.database.db.selectFrom('resources').select('id').where('id', '=', made.gone.id).executeTakeFirst()).toBeUndefined();
    const files = await t.database.db.selectFrom('files').select('detached_at').where('id', 'in', goneFiles).execute();
    expect(files.map((f) => f.detached_at === null)).toEqual([false, false]);
    expect((await asAdmin('POST', API.adminTrashRestore(made.gone.id))).statusCode).toBe(404);
    expect((await asAdmin('DELETE', API.adminTrashItem(made.gone.id), root)).statusCode).toBe(404);
    expect((await asAdmin('DELETE', API.adminTrashItem('x' as never), root)).statusCode).toBe(400);
    // The other resource is untouched.
    expect((await get(API.resource(made.kept.id))).statusCode).toBe(200);
  });
});
