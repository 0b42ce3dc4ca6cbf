import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { PreviewLink, Resource } from '../../../contract/resources';
import { BROWSER, tampered, TEST_DATABASES } from '../../testing/test-utils';
import { type FilesTestApp, randomData, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { countPublicResources } from './queries';

/**
 * The public rule (visibility.ts): a draft or a scheduled resource does not exist for visitors,
 * through every public route; a published one beside it does (so each check can fail). Each
 * resource has a hosted download and a hosted thumbnail, so file links and media are covered.
 */
describe.each(TEST_DATABASES)('drafts and scheduled resources are not public, on %s', (kind) => {
  let t: FilesTestApp;
  const ids = { published: 0, draft: 0, scheduled: 0 };
  const admin: Record<string, Resource> = {};
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  let clientDir: string;

  async function create(name: keyof typeof ids, extra: Record<string, unknown>) {
    // Each its own image: media are named by their content, and a key a public resource also owns is served.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: Object.keys(admin).length * 40, b: 90 } } }).png().toBuffer();
    const thumb = await tusUpload(t, png, { name: `${name}.png`, purpose: 'thumbnail' });
    const file = await tusUpload(t, randomData(2048), { name: `${name}.zip` });
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: t.admin.cookie },
      payload: {
        title: `Zebra pack ${name}`,
        description: 'Stripes for every edit',
        category: 'premium_resources',
        tags: ['Stripes'],
        is_premium: true,
        thumbnail_upload_id: thumb.id,
        download_upload_id: file.id,
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    admin[name] = res.json();
    ids[name] = admin[name].id;
  }

  beforeAll(async () => {
    // The site's own page template (the built client is not needed to render a page's head).
    clientDir = mkdtempSync(path.join(tmpdir(), 'rv-visibility-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await startFilesApp(kind, 'local', { clientDir });
    await create('published', {});
    await create('draft', { status: 'draft' });
    await create('scheduled', { status: 'scheduled', publish_at: inAnHour() });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
  const listed = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { id: number }[]).map((r) => r.id);
  };

  it('the admin API shows each with its status and publish time', () => {
    expect(admin.published).toMatchObject({ status: 'published', publish_at: null });
    expect(admin.draft).toMatchObject({ status: 'draft', publish_at: null });
    expect(admin.scheduled).toMatchObject({ status: 'scheduled', publish_at: expect.stringMatching(/Z$/) });
  });

  it('lists: a category, all, the premium carousel', async () => {
    expect(await listed('/api/resources?category=premium-resources')).toEqual([ids.published]);
    expect(await listed('/api/resources')).toEqual([ids.published]);
    expect((await get('/api/resources?category=premium-resources')).json()).toMatchObject({ total: 1, totalExact: true });
    expect(await listed(API.premium)).toEqual([ids.published]);
  });

  it.each([
    ['a text', 'q=zebra'],
    ['a text in a category', 'q=zebra&category=premium-resources'],
    ['a 1–2 character text', 'q=ze'],
    ['tags', 'tags=stripes'],
    ['tags in a category', 'tags=stripes&category=premium-resources'],
    ['a text and tags', 'q=zebra&tags=stripes'],
  ])('search: %s', async (_label, query) => {
    for (const sort of ['popular', 'newest', 'downloads']) {
      const res = await get(`/api/resources?${query}&sort=${sort}`);
      expect(res.json().items.map((r: { id: number }) => r.id), `${query} ${sort}`).toEqual([ids.published]);
      expect(res.json().total, `${query} ${sort}`).toBe(1);
    }
  });

  it('counts: category cards and the home figure', async () => {
    const categories = (await get(API.categories)).json().items as { value: string; count: number }[];
    expect(categories.find((c) => c.value === 'premium_resources')!.count).toBe(1);
    expect(await countPublicResources(t.database.db)).toBe(1);
  });

  it('one resource and its related: 404 for the others, never among related', async () => {
    expect((await get(API.resource(ids.published))).statusCode).toBe(200);
    expect(await listed(API.related(ids.published))).toEqual([]);
    for (const id of [ids.draft, ids.scheduled]) {
      expect((await get(API.resource(id))).statusCode).toBe(404);
      expect((await get(API.related(id))).statusCode).toBe(404);
    }
  });

  it('resource pages: 404 (noindex); the sitemap lists the published one only', async () => {
    expect((await get(admin.published.url)).statusCode).toBe(200);
    for (const name of ['draft', 'scheduled'] as const) {
      const page = await get(admin[name].url);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('<meta name="robots" content="noindex" />');
    }
    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(admin.published.url);
    expect(sitemap).not.toContain(`/resources/${ids.draft}-`);
    expect(sitemap).not.toContain(`/resources/${ids.scheduled}-`);
  });

  it('social cards, generated thumbnails, hosted thumbnails: 404', async () => {
    expect((await get(`/og/resources/${ids.published}.jpg`)).statusCode).toBe(200);
    expect((await get(admin.published.thumbnail!.src)).statusCode).toBe(200);
    expect((await get(`/thumbnails/${ids.published}.svg`)).statusCode).toBe(200);
    for (const name of ['draft', 'scheduled'] as const) {
      expect((await get(`/og/resources/${ids[name]}.jpg`)).statusCode).toBe(404);
      expect((await get(`/thumbnails/${ids[name]}.svg`)).statusCode).toBe(404);
      expect((await get(admin[name].thumbnail!.src)).statusCode).toBe(404);
    }
  });

  it('downloads: 404 for the JSON POST and the GET, for visitors and for bots', async () => {
    const post = (id: number, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: API.download(id), headers });
    expect((await post(ids.published, BROWSER)).statusCode).toBe(200);
    for (const id of [ids.draft, ids.scheduled]) {
      expect((await post(id, BROWSER)).statusCode).toBe(404);
      expect((await post(id, { 'user-agent': 'curl/8.0' })).statusCode).toBe(404);
      expect((await get(API.download(id), BROWSER)).statusCode).toBe(404);
    }
    const after = await t.database.db.selectFrom('resources').select(['id', 'download_count']).where('id', 'in', [ids.draft, ids.scheduled]).execute();
    expect(after.map((r) => Number(r.download_count))).toEqual([0, 0]);
  });

  it('a hosted file link handed out while public answers 404 once the resource is a draft, and again once published', async () => {
    const { download_url } = (await t.app.inject({ method: 'POST', url: API.download(ids.published), headers: BROWSER })).json();
    const path = new URL(download_url).pathname;
    expect((await get(path)).statusCode).toBe(200);
    const drafted = await t.app.inject({ method: 'PATCH', url: API.adminResource(ids.published), headers: { cookie: t.admin.cookie }, payload: { status: 'draft' } });
    expect(drafted.json()).toMatchObject({ status: 'draft' });
    expect((await get(path)).statusCode).toBe(404);
    expect((await get(admin.published.thumbnail!.src)).statusCode).toBe(404);
    await t.app.inject({ method: 'PATCH', url: API.adminResource(ids.published), headers: { cookie: t.admin.cookie }, payload: { status: 'published' } });
    expect((await get(path)).statusCode).toBe(200);
  });

  it('a preview link opens a draft page for whoever holds it, noindex and never cached; a tampered or foreign one does not', async () => {
    const res = await t.app.inject({ method: 'POST', url: API.adminResourcePreviewLink(ids.draft), headers: { cookie: t.admin.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<PreviewLink>();
    expect(link.url).toMatch(new RegExp(`^${admin.draft.url}\\?preview=`));
    expect(Date.parse(link.expires_at)).toBeGreaterThan(Date.now());
    const page = await get(link.url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.body).toContain('<meta name="robots" content="noindex" />');
    expect(page.body).toContain('Zebra pack draft');
    // Still not public: the API and the plain page.
    expect((await get(API.resource(ids.draft))).statusCode).toBe(404);
    expect((await get(admin.draft.url)).statusCode).toBe(404);
    // The token names its resource: it opens no other.
    const token = new URL(link.url, t.base).searchParams.get('preview')!;
    expect((await get(`${admin.scheduled.url}?preview=${token}`)).statusCode).toBe(404);
    expect((await get(`${admin.draft.url}?preview=${tampered(token)}`)).statusCode).toBe(404);
    // Only an admin hands them out.
    expect((await t.app.inject({ method: 'POST', url: API.adminResourcePreviewLink(ids.draft) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: API.adminResourcePreviewLink(999_999), headers: { cookie: t.admin.cookie } })).statusCode).toBe(404);
  });

  it('a preview link’s page gets the draft’s thumbnail and media, and a signed-in admin too, never cached; visitors and other links do not, and the download stays 404', async () => {
    const linkTo = async (id: number) =>
      new URL((await t.app.inject({ method: 'POST', url: API.adminResourcePreviewLink(id), headers: { cookie: t.admin.cookie } })).json<PreviewLink>().url, t.base).searchParams.get('preview')!;
    const token = await linkTo(ids.draft);
    const other = await linkTo(ids.scheduled);
    const media = [admin.draft.thumbnail!.src, ...admin.draft.thumbnail!.srcset.split(',').map((c) => c.trim().split(' ')[0]!)];
    expect(media.every((u) => u.startsWith('/media/'))).toBe(true);
    for (const url of [...new Set(media)]) {
      const shown = await get(`${url}?preview=${token}`);
      expect(shown.statusCode, url).toBe(200);
      expect(shown.headers['cache-control']).toBe('private, no-store');
      expect(shown.headers['content-type']).toMatch(/^image\//);
      // Another resource's link, a tampered one, none: as for any visitor.
      expect((await get(`${url}?preview=${other}`)).statusCode).toBe(404);
      expect((await get(`${url}?preview=${tampered(token)}`)).statusCode).toBe(404);
      expect((await get(url)).statusCode).toBe(404);
      // A signed-in admin (the admin area's own thumbnails of drafts).
      const asAdmin = await get(url, { cookie: t.admin.cookie });
      expect(asAdmin.statusCode).toBe(200);
      expect(asAdmin.headers['cache-control']).toBe('private, no-store');
    }
    const generated = `/thumbnails/${ids.draft}.svg`;
    const svg = await get(`${generated}?preview=${token}`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['cache-control']).toBe('private, no-store');
    expect(svg.body).toContain('<svg');
    expect((await get(`${generated}?preview=${other}`)).statusCode).toBe(404);
    expect((await get(generated, { cookie: t.admin.cookie })).headers['cache-control']).toBe('private, no-store');
    // Published media keep their public, immutable answers.
    expect((await get(`${admin.published.thumbnail!.src}?preview=${token}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`/thumbnails/${ids.published}.svg`)).headers['cache-control']).toBe('public, max-age=86400');
    // The download is not part of a preview: 404 with the link's page as referrer, and for an admin.
    const post = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: API.download(ids.draft), headers });
    expect((await post({ ...BROWSER, referer: `${t.base}${admin.draft.url}?preview=${token}` })).statusCode).toBe(404);
    expect((await post({ ...BROWSER, cookie: t.admin.cookie })).statusCode).toBe(404);
    expect((await get(`${API.download(ids.draft)}?preview=${token}`, BROWSER)).statusCode).toBe(404);
  });
});
