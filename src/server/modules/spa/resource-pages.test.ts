import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { parseResourcePath, resourcePath, slugify, unicodeSlug } from '../../../contract/resource-page';
import { adminResourceListSchema, publicResourceSchema, relatedListSchema, resourceListSchema, resourceSchema } from '../../../contract/resources';
import type { Database } from '../../db/connection';
import { openFileStore } from '../../storage/open';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { previewMediaKeys, setMediaOwners } from '../media/owners';
import type { StoredPreview } from '../media/preview-answers';
import { mediaKey } from '../../storage/keys';
import { insertResource } from '../../testing/resource-fixtures';

/** Stored previews as a finished job leaves them (src/server/modules/media/preview-answers.ts), made by hand. */
const file = (fileName: string, contentType: string, bytes = 1000) => ({ fileName, key: mediaKey(fileName), contentType, bytes });
const placeholder = { color: '#c03030', dataUri: 'data:image/webp;base64,AAAA' };
const POSTER = 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0.webp';
const STORED: Record<'video' | 'audio' | 'font' | 'lut', StoredPreview> = {
  video: {
    kind: 'video',
    width: 1920,
    height: 1080,
    duration: 65.2,
    preview: { ...file('b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1.mp4', 'video/mp4'), width: 1280, height: 720, duration: 8 },
    poster: {
      at: 6.5,
      variants: [
        { ...file('c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2.webp', 'image/webp'), width: 320, height: 180, format: 'webp' },
        { ...file(POSTER, 'image/webp'), width: 960, height: 540, format: 'webp' },
        { ...file('d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3.avif', 'image/avif'), width: 960, height: 540, format: 'avif' },
      ],
      placeholder,
    },
    storyboard: { ...file('e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4.webp', 'image/webp'), columns: 10, rows: 1, frames: 10, frameWidth: 160, frameHeight: 90, interval: 0.8 },
  },
  audio: {
    kind: 'audio',
    duration: 12.4,
    sampleRate: 48000,
    channels: 2,
    preview: { ...file('f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5.m4a', 'audio/mp4'), duration: 12.4 },
    peaks: [0.1, 0.5, 1],
    loudness: { measuredLufs: -20, truePeakDb: -1, gainDb: 4 },
  },
  font: {
    kind: 'font',
    sourceFormat: 'ttf',
    familyName: 'Test Sans',
    subfamilyName: 'Regular',
    fullName: 'Test Sans Regular',
    glyphCount: 200,
    characterCount: 190,
    weight: 400,
    italic: false,
    file: file('a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6.woff2', 'font/woff2'),
    coversBasicLatin: true,
    metrics: { unitsPerEm: 1000, ascent: 800, descent: -200, lineGap: 0, capHeight: 700, xHeight: 500 },
    axes: {},
  },
  lut: {
    kind: 'lut',
    title: 'Teal',
    source: { type: '3D', size: 17 },
    table: { ...file('b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7.bin', 'application/octet-stream'), format: 'rgb8', size: 17 },
    samples: [{ key: mediaKey('c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8.webp'), fileName: 'c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8.webp', width: 640, height: 427, alt: 'A street' }],
  },
};

/** Gives a resource a ready preview, as the preview job does when it finishes (its files become the resource's). */
async function setPreview(database: Database, id: number, preview: StoredPreview): Promise<void> {
  await database.db.updateTable('resources').set({ preview: JSON.stringify(preview) }).where('id', '=', id).execute();
  await setMediaOwners(database.db, [id], 'preview', previewMediaKeys(preview));
}

describe('resource addresses', () => {
  it('slugs are lower-case ASCII words joined by single hyphens', () => {
    expect(slugify('Bold Film Burns')).toBe('bold-film-burns');
    expect(slugify('  Café  Überraschung 🎬 Pack!! ')).toBe('cafe-uberraschung-pack');
    expect(slugify('Straße & Co.')).toBe('strasse-and-co');
    expect(slugify('日本')).toBe('');
    expect(slugify('</script><script>alert(1)</script>')).toBe('script-script-alert-1-script');
    const long = slugify('word '.repeat(60));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('the slug of an ASCII title (no decomposition) is the one the general rules give', () => {
    // Printable ASCII, weighted towards what the rules treat apart: letters, digits, `&`, spaces, hyphens, punctuation.
    const pool = 'aZ9&- .!_/"\'<>~`^{}|\\'.split('').concat([...Array(95)].map((_, i) => String.fromCharCode(32 + i)));
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 5000; n++) {
      const title = Array.from({ length: Math.floor(random() * 21) }, () => pool[Math.floor(random() * pool.length)]).join('');
      expect(slugify(title), JSON.stringify(title)).toBe(unicodeSlug(title));
    }
  });

  it('a path names its id whatever its slug; anything else is not a resource path', () => {
    expect(resourcePath({ id: 12, title: 'Neon Glow' })).toBe('/resources/12-neon-glow');
    expect(resourcePath({ id: 12, title: '日本' })).toBe('/resources/12');
    expect(parseResourcePath('/resources/12-neon-glow')).toBe(12);
    expect(parseResourcePath('/resources/12-old-name')).toBe(12);
    expect(parseResourcePath('/resources/12')).toBe(12);
    expect(parseResourcePath('/resources/12/')).toBe(12);
    for (const p of ['/resources/', '/resources/0-x', '/resources/012-x', '/resources/abc', '/resources/99999999999', '/resources/3000000000', '/resources/1-a/b']) {
      expect(parseResourcePath(p), p).toBeUndefined();
    }
  });
});

/** The head's `<meta>` content by name or property. */
function metaContent(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)"`).exec(html);
  return m?.[1];
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
}

describe.each(TEST_DATABASES)('resource pages on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  let clientDir: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // The HTML template of the client without a build (no server-render bundle): the head is the server's either way.
    clientDir = mkdtempSync(path.join(tmpdir(), 'rv-pages-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await createTestApp(kind, { clientDir, siteName: 'Test Vault', publicUrl: 'https://vault.example' });
    admin = await createAndSignIn(t.app, t.database, 'pages_admin');
    const d = t.database;
    ids.main = await insertResource(d, { title: 'Neon Glow Pack', description: 'First paragraph.\n\nSecond paragraph.', tags: ['Effects', 'Neon', 'Glow'], download_count: 42 });
    ids.twoShared = await insertResource(d, { title: 'Glow Neon Two', tags: ['Neon', 'Glow'], popularity: 1 });
    ids.oneShared = await insertResource(d, { title: 'Only Neon', tags: ['Neon'], popularity: 90 });
    ids.noneShared = await insertResource(d, { title: 'Unrelated but popular', tags: ['Other'], popularity: 99 });
    ids.otherCategory = await insertResource(d, { title: 'Neon Photo', category: 'photo_editing', tags: ['Neon', 'Glow', 'Effects'] });
    ids.sound = await insertResource(d, { title: 'Whoosh', category: 'sound_effects', tags: [] });
    // Premium resources by the kind of their ready preview; one in a video category previewed as a LUT.
    for (const kind of ['video', 'audio', 'font'] as const) {
      ids[`premium_${kind}`] = await insertResource(d, { title: `Premium ${kind}`, category: 'premium_resources', is_premium: true });
      await setPreview(d, ids[`premium_${kind}`], STORED[kind]);
    }
    ids.premiumBare = await insertResource(d, { title: 'Premium bare', category: 'premium_resources', is_premium: true });
    ids.videoLut = await insertResource(d, { title: 'Graded look', category: 'video_editing' });
    await setPreview(d, ids.videoLut, STORED.lut);
    // The video's poster, in the file store as the job leaves it: the social card is made from it.
    const poster = await sharp({ create: { width: 960, height: 540, channels: 3, background: '#c03030' } }).webp().toBuffer();
    const store = openFileStore(t.config);
    await store.files.put(mediaKey(POSTER), Readable.from([poster]), { maxBytes: 1 << 20, contentType: 'image/webp' });
    store.close();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const adminCall = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });
  const newResource = (extra: object = {}) => ({
    title: 'Created Pack',
    description: 'Made by the admin.',
    category: 'video_editing',
    thumbnail_url: '/thumbnails/1.svg',
    download_url: 'https://files.example.com/created.zip',
    ...extra,
  });

  it('every public and admin answer carries the page path as url', async () => {
    const one = publicResourceSchema.parse((await get(`/api/resources/${ids.main}`)).json());
    expect(one.url).toBe(`/resources/${ids.main}-neon-glow-pack`);
    const list = resourceListSchema.parse((await get('/api/resources?category=video_editing')).json());
    for (const r of list.items) expect(r.url).toBe(resourcePath(r));
    const adminList = adminResourceListSchema.parse((await adminCall('GET', '/api/admin/resources?category=video_editing')).json());
    for (const r of adminList.items) expect(r.url).toBe(resourcePath(r));
  });

  it('licences: free for commercial use unless chosen; attribution keeps its credit line; custom its text; each kind checked', async () => {
    expect(publicResourceSchema.parse((await get(`/api/resources/${ids.main}`)).json()).licence).toEqual({ kind: 'free-commercial' });
    const created = await adminCall('POST', '/api/admin/resources', newResource({ licence: { kind: 'attribution', credit: 'Pack by Jane Doe' } }));
    expect(created.statusCode, created.body).toBe(201);
    const r = resourceSchema.parse(created.json());
    expect(r.licence).toEqual({ kind: 'attribution', credit: 'Pack by Jane Doe' });
    expect(publicResourceSchema.parse((await get(`/api/resources/${r.id}`)).json()).licence).toEqual({ kind: 'attribution', credit: 'Pack by Jane Doe' });

    const patched = await adminCall('PATCH', `/api/admin/resources/${r.id}`, { licence: { kind: 'custom', text: 'Use it for anything but resale.' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(resourceSchema.parse(patched.json()).licence).toEqual({ kind: 'custom', text: 'Use it for anything but resale.' });
    const personal = await adminCall('PATCH', `/api/admin/resources/${r.id}`, { licence: { kind: 'personal' } });
    expect(resourceSchema.parse(personal.json()).licence).toEqual({ kind: 'personal' });
    const row = await t.database.db.selectFrom('resources').select(['licence_kind', 'licence_text']).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ licence_kind: 'personal', licence_text: null });

    const before = await t.database.db.selectFrom('resources').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    for (const licence of [{ kind: 'attribution' }, { kind: 'attribution', credit: '   ' }, { kind: 'custom' }, { kind: 'public-domain' }, { kind: 'personal', text: 'x' }, 'free']) {
      const bad = await adminCall('PATCH', `/api/admin/resources/${r.id}`, { licence });
      expect(bad.statusCode, JSON.stringify(licence)).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(bad.json().error.fields ?? {}).some((f) => f.startsWith('licence')), bad.body).toBe(true);
    }
    const tooLong = await adminCall('POST', '/api/admin/resources', newResource({ licence: { kind: 'attribution', credit: 'x'.repeat(2001) } }));
    expect(tooLong.statusCode).toBe(400);
    expect(await t.database.db.selectFrom('resources').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('related: same category, most shared tags first, then popularity; never itself; 404 for an unknown id', async () => {
    const res = await get(`/api/resources/${ids.main}/related`);
    expect(res.statusCode).toBe(200);
    const items = relatedListSchema.parse(res.json()).items;
    expect(items.length).toBeLessThanOrEqual(6);
    expect(items.slice(0, 3).map((r) => r.id)).toEqual([ids.twoShared, ids.oneShared, ids.noneShared]);
    expect(items.every((r) => r.category === 'video_editing' && r.id !== ids.main)).toBe(true);
    // No tags and nothing else in its category: none.
    expect(relatedListSchema.parse((await get(`/api/resources/${ids.sound}/related`)).json()).items).toEqual([]);
    expect((await get('/api/resources/999999/related')).statusCode).toBe(404);
  });

  it('related: exactly 6 when more than 6 are related, those sharing tags first', async () => {
    const own = await insertResource(t.database, { title: 'Motion Six', category: 'motion_graphics', tags: ['Six'] });
    const sharing = [];
    for (let i = 0; i < 3; i++) sharing.push(await insertResource(t.database, { title: `Motion sharing ${i}`, category: 'motion_graphics', tags: ['Six'] }));
    for (let i = 0; i < 5; i++) await insertResource(t.database, { title: `Motion other ${i}`, category: 'motion_graphics', popularity: 50 + i });
    const items = relatedListSchema.parse((await get(`/api/resources/${own}/related`)).json()).items;
    expect(items).toHaveLength(6);
    expect(new Set(items.slice(0, 3).map((r) => r.id))).toEqual(new Set(sharing));
    expect(items.every((r) => r.category === 'motion_graphics' && r.id !== own)).toBe(true);
  });

  it('a page answers at its canonical path; any other slug, none, or a trailing slash: 301 there (query kept)', async () => {
    const canonical = `/resources/${ids.main}-neon-glow-pack`;
    const page = await get(canonical);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    for (const from of [`/resources/${ids.main}`, `/resources/${ids.main}-old-name`, `${canonical}/`, `/resources/${ids.main}-Neon-Glow-Pack`]) {
      const moved = await get(from);
      expect(moved.statusCode, from).toBe(301);
      expect(moved.headers.location).toBe(canonical);
    }
    expect((await get(`/resources/${ids.main}-old?utm_source=x`)).headers.location).toBe(`${canonical}?utm_source=x`);
  });

  it('after a rename the old address answers 301 to the new one', async () => {
    const id = await insertResource(t.database, { title: 'Before Rename' });
    expect((await get(`/resources/${id}-before-rename`)).statusCode).toBe(200);
    const renamed = await adminCall('PATCH', `/api/admin/resources/${id}`, { title: 'After Rename' });
    expect(resourceSchema.parse(renamed.json()).url).toBe(`/resources/${id}-after-rename`);
    const old = await get(`/resources/${id}-before-rename`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/resources/${id}-after-rename`);
  });

  it('unknown and deleted resources: the not-found page, status 404, noindex', async () => {
    const id = await insertResource(t.database, { title: 'Soon Gone' });
    expect((await adminCall('DELETE', `/api/admin/resources/${id}`)).statusCode).toBe(200);
    for (const url of [`/resources/${id}-soon-gone`, '/resources/987654-nothing', '/resources/2147483647']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
      expect(res.body).toContain('<title>Page Not Found - Test Vault</title>');
      expect(res.body).not.toContain('rel="canonical"');
    }
  });

  it('the head: title, description, canonical, Open Graph, Twitter card', async () => {
    const html = (await get(`/resources/${ids.main}-neon-glow-pack`)).body;
    const url = `https://vault.example/resources/${ids.main}-neon-glow-pack`;
    expect(html).toContain('<title>Neon Glow Pack - Test Vault</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(metaContent(html, 'description')).toBe('First paragraph. Second paragraph.');
    expect(html).toContain(`<link rel="canonical" href="${url}" />`);
    expect(html).not.toContain('name="robots"');
    expect(metaContent(html, 'og:title')).toBe('Neon Glow Pack');
    expect(metaContent(html, 'og:url')).toBe(url);
    expect(metaContent(html, 'og:site_name')).toBe('Test Vault');
    expect(metaContent(html, 'og:image')).toMatch(new RegExp(`^https://vault\\.example/og/resources/${ids.main}\\.jpg\\?v=[0-9a-f]+$`));
    expect(metaContent(html, 'og:image:width')).toBe('1200');
    expect(metaContent(html, 'og:image:height')).toBe('630');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:image')).toBe(metaContent(html, 'og:image'));
    // No preview: no og:video, no og:audio.
    expect(html).not.toMatch(/og:(video|audio)/);

    // A ready video preview: og:video (absolute, with its type and size); an audio one: og:audio.
    const video = (await get(resourcePath({ id: ids.premium_video, title: 'Premium video' }))).body;
    expect(metaContent(video, 'og:video')).toBe('https://vault.example/media/b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1.mp4');
    expect(metaContent(video, 'og:video:type')).toBe('video/mp4');
    expect([metaContent(video, 'og:video:width'), metaContent(video, 'og:video:height')]).toEqual(['1280', '720']);
    expect(video).not.toContain('og:audio');
    const audio = (await get(resourcePath({ id: ids.premium_audio, title: 'Premium audio' }))).body;
    expect(metaContent(audio, 'og:audio')).toBe('https://vault.example/media/f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5.m4a');
    expect(metaContent(audio, 'og:audio:type')).toBe('audio/mp4');
    expect(audio).not.toContain('og:video');
    for (const kind of ['font', 'bare'] as const) {
      const other = (await get(resourcePath({ id: kind === 'bare' ? ids.premiumBare : ids.premium_font, title: `Premium ${kind}` }))).body;
      expect(other, kind).not.toMatch(/og:(video|audio)/);
    }
  });

  it('JSON-LD: valid JSON, the schema.org type of the kind with its required fields, and a breadcrumb', async () => {
    const html = (await get(`/resources/${ids.main}-neon-glow-pack`)).body;
    const [item, crumbs] = jsonLd(html);
    const url = `https://vault.example/resources/${ids.main}-neon-glow-pack`;
    expect(item).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: 'Neon Glow Pack',
      description: 'First paragraph.\n\nSecond paragraph.',
      url,
      uploadDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      license: `${url}#licence`,
      acquireLicensePage: `${url}#licence`,
      interactionStatistic: { '@type': 'InteractionCounter', interactionType: { '@type': 'DownloadAction' }, userInteractionCount: 42 },
    });
    expect(item.thumbnailUrl).toBe(metaContent(html, 'og:image'));
    expect(crumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: 'Home', item: 'https://vault.example/' },
        { position: 2, name: 'Video Editing', item: 'https://vault.example/categories/video-editing' },
        { position: 3, name: 'Neon Glow Pack', item: url },
      ],
    });
    const types = async (id: number) => jsonLd((await get(resourcePath({ id, title: publicResourceSchema.parse((await get(`/api/resources/${id}`)).json()).title }))).body)[0]['@type'];
    expect(await types(ids.sound)).toBe('AudioObject');
    expect(await types(ids.otherCategory)).toBe('ImageObject');
    // A ready preview decides the type (premium resources have no kind of their own); none: the category's.
    expect(await types(ids.premium_video)).toBe('VideoObject');
    expect(await types(ids.premium_audio)).toBe('AudioObject');
    expect(await types(ids.premium_font)).toBe('CreativeWork');
    expect(await types(ids.premiumBare)).toBe('CreativeWork');
    expect(await types(ids.videoLut)).toBe('ImageObject');
    const [video] = jsonLd((await get(resourcePath({ id: ids.premium_video, title: 'Premium video' }))).body);
    expect(video).toMatchObject({ contentUrl: 'https://vault.example/media/b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1.mp4', encodingFormat: 'video/mp4', duration: 'PT1M5S' });
    // The source's size, in pixels (the facts where known, else the preview's record of the source).
    expect(video).toMatchObject({ width: { '@type': 'QuantitativeValue', value: 1920, unitCode: 'E37' }, height: { '@type': 'QuantitativeValue', value: 1080, unitCode: 'E37' } });
  });

  it('JSON-LD: an attribution licence names its credit line as creditText; other licences have none', async () => {
    const id = await insertResource(t.database, { title: 'Credited Pack' });
    const page = resourcePath({ id, title: 'Credited Pack' });
    expect(jsonLd((await get(page)).body)[0]).not.toHaveProperty('creditText');
    const patched = await adminCall('PATCH', `/api/admin/resources/${id}`, { licence: { kind: 'attribution', credit: 'Pack by Jane Doe' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(jsonLd((await get(page)).body)[0]).toMatchObject({ usageInfo: 'Free with attribution', creditText: 'Pack by Jane Doe' });
  });

  it('user text stays text: a title and description with </script> and quotes are inert in the head', async () => {
    const title = `</script><script>alert("x")</script> "Quoted" & <b>bold</b>`;
    const description = `Ends </script><!-- and "quotes" ' and \u2028 line`;
    const id = await insertResource(t.database, { title, description });
    const res = await get(resourcePath({ id, title }));
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<!-- and');
    // Scripts: the JSON-LD pair, the theme and the app (a build's template), nothing from the text.
    const scripts = html.match(/<script\b/g)?.length ?? 0;
    expect(html.match(/<\/script>/g)?.length).toBe(scripts);
    const [item, crumbs] = jsonLd(html);
    expect(item.name).toBe(title);
    expect(item.description).toBe(description);
    expect((crumbs.itemListElement as { name: string }[])[2].name).toBe(title);
    expect(html).toContain(`<title>&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &quot;Quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; - Test Vault</title>`);
    expect(metaContent(html, 'og:title')).toBe('&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &quot;Quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;');
  });

  it('the social card is a 1200 × 630 JPEG made from the thumbnail (a ready video preview: its poster, when the admin chose it), stored once by content hash', async () => {
    const first = await get(`/og/resources/${ids.main}.jpg`);
    expect(first.statusCode, first.body.slice(0, 200)).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
    // Made once: the second answer is the stored file (same validator and time).
    const again = await get(`/og/resources/${ids.main}.jpg`);
    expect([again.headers.etag, again.headers['last-modified']]).toEqual([first.headers.etag, first.headers['last-modified']]);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    // A ready video preview with a thumbnail of its own: the card is the thumbnail until the admin
    // chooses the poster (docs/decisions/362); then it is the poster (red), and its address names it.
    const page = async () => (await get(resourcePath({ id: ids.premium_video, title: 'Premium video' }))).body;
    const bare = (await get(resourcePath({ id: ids.premiumBare, title: 'Premium bare' }))).body;
    const version = (page: string) => /\?v=([0-9a-f]+)$/.exec(metaContent(page, 'og:image') ?? '')?.[1];
    expect(version(await page()), 'same thumbnail, and the thumbnail stands for it').toBe(version(bare));
    expect((await adminCall('PATCH', API.adminResource(ids.premium_video), { thumbnail_choice: 'poster' })).statusCode).toBe(200);
    const html = await page();
    expect(version(html)).toMatch(/^[0-9a-f]+$/);
    expect(version(html), 'same thumbnail, but the card is the poster').not.toBe(version(bare));
    const card = await get(`/og/resources/${ids.premium_video}.jpg`);
    expect(card.statusCode, card.body.slice(0, 200)).toBe(200);
    const { data, info } = await sharp(card.rawPayload).resize(1, 1).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1, 1]);
    expect((await sharp(card.rawPayload).metadata()).width).toBe(1200);
    expect(data[0]).toBeGreaterThan(150);
    expect(data[1]).toBeLessThan(90);
    for (const url of ['/og/resources/999999.jpg', '/og/resources/abc.jpg', `/og/resources/${ids.main}.png`, '/og/resources/0.jpg']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });
});
