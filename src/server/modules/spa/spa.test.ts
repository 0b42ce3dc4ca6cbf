import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-utils';
import { insertResource } from '../../testing/resource-fixtures';
import { scriptJson } from './routes';

// Serving the client does not depend on the database; SQLite is enough here.
describe('SPA and SEO files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { siteName: 'Vault <Test>' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('puts each page title and description in the HTML, escaped', async () => {
    const res = await t.app.inject({ url: '/categories/video-editing?sort=newest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<title>Video Editing - Vault &lt;Test&gt;</title>');
    expect(res.body).toMatch(/<meta name="description" content="[^"]+"/);
    expect(res.body.match(/<title>/g)).toHaveLength(1);
  });

  it('answers a page rendered again with the same data from its render cache, byte for byte, any script included', async () => {
    const id = await insertResource(t.database, { title: 'Café Glühen 光 🎞️ Pack', description: 'Ümlauts, 漢字 and 🎬 in one place.' });
    const url = (await t.app.inject({ url: `/api/resources/${id}` })).json<{ url: string }>().url;
    const first = await t.app.inject({ url });
    expect(first.statusCode).toBe(200);
    const markup = first.body.slice(first.body.indexOf('<div id="root">'), first.body.indexOf('id="rv-initial-data"'));
    expect(markup).toContain('Café Glühen 光 🎞️ Pack');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await t.app.inject({ url });
    // Rendered once: the page's render time ("now" in its data) is the first one's.
    const renderedAt = (body: string) => /"now":(\d+)/.exec(body)?.[1];
    expect(renderedAt(second.body)).toBe(renderedAt(first.body));
    expect(second.body).toBe(first.body);
  });

  it('renders /search with the results of every category for its words, titled by them and never indexed', async () => {
    await insertResource(t.database, { title: 'Zephyrine Glitch Transitions', category: 'video_editing' });
    await insertResource(t.database, { title: 'Zephyrine Whoosh Sounds', category: 'sound_effects' });
    await insertResource(t.database, { title: 'Unrelated Film LUTs', category: 'color_grading' });
    const res = await t.app.inject({ url: '/search?q=zephyrine' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Search: zephyrine - Vault &lt;Test&gt;</title>');
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
    // The server's markup already lists both matches, each with its category.
    const root = res.body.slice(res.body.indexOf('<div id="root">'));
    expect(root).toContain('Zephyrine Glitch Transitions');
    expect(root).toContain('Zephyrine Whoosh Sounds');
    expect(root).not.toContain('Unrelated Film LUTs');
    expect(root).toContain('>Sound Effects</a>');
    // Narrowed to one category by the URL, the first render is narrowed too.
    const narrowed = (await t.app.inject({ url: '/search?q=zephyrine&category=sound-effects' })).body;
    expect(narrowed.slice(narrowed.indexOf('<div id="root">'))).not.toContain('Zephyrine Glitch Transitions');
    const bare = await t.app.inject({ url: '/search' });
    expect(bare.statusCode).toBe(200);
    expect(bare.body).toContain('<title>Search - Vault &lt;Test&gt;</title>');
  });

  it('answers unknown pages with 404 and noindex, and unknown /api paths with JSON', async () => {
    const page = await t.app.inject({ url: '/no/such/page' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Page Not Found - Vault &lt;Test&gt;');
    expect(page.body).toContain('noindex');
    const api = await t.app.inject({ url: '/api/no-such' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });

  it('serves robots.txt disallowing admin, and a sitemap of public pages', async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Disallow: /admin');
    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('/categories/anime-edits</loc>');
    expect(sitemap.body).not.toContain('/admin');
  });

  // A shared cache (CDN, proxy) keys on the URL it was asked for, not on the Host or X-Forwarded-Host
  // the origin saw: a publicly cacheable answer must not carry a host the client chose.
  it('puts no client-chosen host in any answer a shared cache may keep', async () => {
    const id = await insertResource(t.database, { title: 'Host Check Pack' });
    const page = `/resources/${id}-host-check-pack`;
    const paths = [
      ...['/robots.txt', '/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/resources-1.xml', '/', '/categories/anime-edits', '/community'],
      ...['/api/site', '/api/categories', '/api/resources', `/api/resources/${id}`, `/api/resources/${id}/related`, '/no/such/page'],
      // A resource's page (its head has absolute URLs), the 301 from a wrong slug, its social card.
      ...[page, `/resources/${id}-old-name`, `/resources/${id}`, `/og/resources/${id}.jpg`],
    ];
    const named: string[] = [];
    for (const url of paths) {
      const res = await t.app.inject({ url, headers: { host: 'evil.example' } });
      expect(res.statusCode, url).toBe(url === '/no/such/page' ? 404 : url.startsWith('/resources/') && url !== page ? 301 : 200);
      const cacheControl = String(res.headers['cache-control'] ?? '');
      const sharedCacheMayKeep = !/no-store|private/.test(cacheControl);
      const answer = `${JSON.stringify(res.headers)}\n${res.body}`;
      if (sharedCacheMayKeep) expect(answer, `${url} (${cacheControl || 'no cache-control'})`).not.toContain('evil.example');
      else if (answer.includes('evil.example')) named.push(url);
    }
    // The check saw answers that do name the host (kept private): the pages and SEO files with absolute URLs.
    expect(named).toEqual(expect.arrayContaining(['/robots.txt', '/sitemaps/resources-1.xml', page]));
  });

  it('without PUBLIC_URL, robots.txt and sitemap.xml name the requested host but are not stored by shared caches', async () => {
    for (const url of ['/robots.txt', '/sitemap.xml']) {
      const res = await t.app.inject({ url, headers: { host: 'evil.example' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('http://evil.example/');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('serves hashed assets with immutable caching when the client is built', async () => {
    const assets = path.join(t.config.clientDir, 'assets');
    if (!existsSync(assets)) throw new Error('build the client first (npm run build)');
    const js = readdirSync(assets).find((f) => f.endsWith('.js'))!;
    const res = await t.app.inject({ url: `/assets/${js}`, headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('never serves the server-render bundle', async () => {
    const res = await t.app.inject({ url: '/ssr/render.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('renderToString');
  });
});

describe('initial data in the HTML', () => {
  it('is JSON no text can break out of, and parses back to the same value', () => {
    const value = { title: '</script><script>alert(1)</script><!--', sep: 'a\u2028b\u2029c', amp: '&<>' };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<\u2028\u2029]/);
    expect(text.toLowerCase()).not.toContain('</script');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('SEO files with PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { publicUrl: 'https://vault.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('use the configured origin whatever the Host, and may be cached publicly', async () => {
    for (const url of ['/robots.txt', '/sitemap.xml']) {
      const res = await t.app.inject({ url, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
      expect(res.body).toContain('https://vault.example/');
      expect(res.body).not.toContain('evil.example');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
    }
  });
});
