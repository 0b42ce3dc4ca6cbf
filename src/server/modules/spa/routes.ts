import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API } from '../../../contract/api-paths';
import { pageMeta, SEARCH_PATH, searchTitle } from '../../../contract/pages';
import { parseResourcePath } from '../../../contract/resource-page';
import { PREVIEW_PARAM, publicResourceSchema } from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { escapeHtml, scriptJson } from './html';
import { resourceHead } from './resource-head';
import { resourceForPreview } from '../resources/preview-page';
import { getSiteIdentity, type SiteIdentity } from '../site/queries';
import { SITEMAPS_DIR, sitemapPage, sitemapRoot } from './sitemap';

export { scriptJson };

const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Resource Vault</title></head>
<body><main><h1>Resource Vault</h1><p>The web client is not built yet. Run <code>npm run build</code> (npm start does it for you).</p></main></body></html>`;

/** Written by the client build (vite.config.ts): the server-render bundle of app/render.tsx. Never served. */
const SSR_DIR = 'ssr';
const RENDER_FILE = path.join(SSR_DIR, 'render.js');

/** What app/render.tsx exports (kept in step by hand: the bundle is built from the client sources). */
interface DataRequest {
  key: unknown[];
  url: string;
  infinite: boolean;
}
interface InitialQuery {
  key: unknown[];
  data: unknown;
}
interface Renderer {
  RENDER_PATHS: readonly string[];
  initialQueries(url: string): DataRequest[];
  toInitialQuery(request: DataRequest, body: unknown): InitialQuery;
  render(url: string, queries: readonly InitialQuery[], now: number): Promise<string>;
  /** The query that marks a resource's page as a preview link's (its banner). */
  previewQuery(id: number): InitialQuery;
}

/** The path and the query (with its `?`, or ''). */
function splitUrl(url: string): [string, string] {
  const q = url.indexOf('?');
  return q === -1 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}

/** Must equal INITIAL_DATA_ID in src/client/lib/hydration.ts. */
const INITIAL_DATA_ID = 'rv-initial-data';


/** The favicon size linked as the apple-touch-icon (settings/media.ts makes it). */
const APPLE_TOUCH_SIZES = '180x180';

/** Rendered pages by path, data read and its versions (ETags); a category page is ~150 KB of markup. */
const RENDER_CACHE_MAX = 200;
/** "Added … ago" in a cached page is at most this old (the browser corrects it after hydration). */
const RENDER_CACHE_TTL_MS = 60_000;

/** An answer of app.inject. */
type Answer = Awaited<ReturnType<FastifyInstance['inject']>>;

interface RenderedPage {
  at: number;
  markup: string;
  data: string;
}

/**
 * Serves the built client: hashed assets with immutable caching, other public files, and for
 * every other non-/api GET the SPA's index.html with that page's title and description in it.
 * Registered last: its catch-all must not shadow API routes.
 */
export const spaModule: Module = async (app, ctx) => {
  const { config, database } = ctx;
  const indexFile = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexFile);
  const template = hasClient ? readFileSync(indexFile, 'utf8') : FALLBACK_HTML;
  const renderFile = path.join(config.clientDir, RENDER_FILE);
  let renderer: Renderer | undefined;
  if (hasClient && existsSync(renderFile)) {
    try {
      renderer = (await import(pathToFileURL(renderFile).href)) as Renderer;
    } catch (err) {
      // The site still works without it: pages start empty and the browser renders them.
      app.log.error({ err }, 'could not load the server-render bundle; public pages are sent without their markup');
    }
  }
  const renderPaths = new Set(renderer?.RENDER_PATHS ?? []);
  /**
   * Kept as UTF-8 bytes, outside V8's heap: as strings (~150 KB a page) every page rendered since the last
   * young-generation collection was copied by it twice, once to survive and once to be promoted (the
   * figures: bebcbf1's message; what else a page leaves to its collections: docs/performance.md, "Resource
   * pages and the sitemap at 1,000,000").
   */
  const cache = new Map<string, { at: number; markup: Buffer; data: Buffer }>();

  /**
   * A public page's markup and its initial data: the data the first render reads comes from this
   * server's own API (app.inject: the same validation, answers and response cache a browser gets),
   * and the page is rendered with it, or taken from the cache when every answer has the same ETag
   * (data version) as when it was rendered. Undefined (the page starts empty) if rendering fails.
   */
  async function renderPage(
    url: string,
    log: { warn(o: object, m: string): void },
    known?: { url: string; answer: Answer },
    /** Queries of this render alone: the page is then never kept. */
    extra: readonly InitialQuery[] = [],
  ): Promise<RenderedPage | undefined> {
    if (!renderer) return undefined;
    try {
      const requests = renderer.initialQueries(url);
      // An answer the caller already has (a resource page's resource) is not asked for again.
      const answers = await Promise.all(requests.map((r) => (known?.url === r.url ? known.answer : app.inject({ method: 'GET', url: r.url }))));
      const etags = answers.map((a) => (a.statusCode === 200 ? a.headers.etag : undefined));
      // Keyed by what the render depends on (the path and the data read, whose URLs carry the page's
      // normalized filters), not the raw URL: unrelated or reordered query parameters hit the cache.
      const pathname = url.split('?')[0];
      const key = etags.every(Boolean) && extra.length === 0 ? [pathname, ...requests.map((r, i) => `${r.url} ${etags[i]}`)].join('\n') : undefined;
      const now = Date.now();
      const hit = key ? cache.get(key) : undefined;
      if (hit && now - hit.at < RENDER_CACHE_TTL_MS) return { at: hit.at, markup: hit.markup.toString(), data: hit.data.toString() };
      // A failed read renders as the browser's first frame would (loading); the browser then asks itself.
      const queries = [...requests.flatMap((r, i) => (answers[i].statusCode === 200 ? [renderer.toInitialQuery(r, answers[i].json())] : [])), ...extra];
      const page = { at: now, markup: await renderer.render(url, queries, now), data: scriptJson({ now, queries }) };
      if (key) {
        cache.delete(key);
        cache.set(key, { at: page.at, markup: Buffer.from(page.markup), data: Buffer.from(page.data) });
        if (cache.size > RENDER_CACHE_MAX) cache.delete(cache.keys().next().value!);
      }
      return page;
    } catch (err) {
      log.warn({ err, url }, 'server render failed; the page starts empty');
      return undefined;
    }
  }

  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      index: false,
      // The server-render bundle is for this process only.
      allowedPath: (pathName) => !pathName.startsWith(`/${SSR_DIR}/`),
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  /**
   * robots.txt and sitemap.xml need absolute URLs. With PUBLIC_URL (or, without it, the public URL
   * the owner set in Settings) they are the same for every request and may be cached anywhere.
   * Without either the origin comes from the request's Host (or X-Forwarded-Host behind a trusted
   * proxy), which the client chooses: a shared cache keyed on the URL alone would keep a poisoned
   * copy for everyone, so those answers are not stored.
   */
  const seoAnswer = (request: { protocol: string; host: string }, reply: { header(name: string, value: string): unknown }, identity: SiteIdentity) => {
    const fixed = config.publicUrl ?? identity.publicUrl;
    reply.header('cache-control', fixed ? 'public, max-age=3600' : 'private, no-store');
    return fixed ?? `${request.protocol}://${request.host}`;
  };
  const identityNow = () => getSiteIdentity(database, config.siteName);

  app.get('/robots.txt', { schema: { hide: true } }, async function robotsHandler(request, reply) {
    const base = seoAnswer(request, reply, await identityNow());
    reply.type('text/plain');
    return `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`;
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async function sitemapHandler(request, reply) {
    const identity = await identityNow();
    const base = seoAnswer(request, reply, identity);
    reply.type('application/xml');
    return sitemapRoot(database.db, base, identity.legalUpdatedAt);
  });

  app.get(`${SITEMAPS_DIR}:file`, { schema: { hide: true } }, async function sitemapPageHandler(request, reply) {
    const { file } = request.params as { file: string };
    const identity = await identityNow();
    const body = await sitemapPage(database.db, seoAnswer(request, reply, identity), file, identity.legalUpdatedAt);
    if (!body) throw notFound('Sitemap not found');
    reply.type('application/xml');
    return body;
  });

  /** The owner's favicon (settings), in place of the built-in one. */
  const iconLinks = (favicon: SiteIdentity['favicon']) =>
    (favicon?.icons ?? [])
      .map((i) =>
        i.sizes === APPLE_TOUCH_SIZES
          ? `\n    <link rel="apple-touch-icon" sizes="${escapeHtml(i.sizes)}" href="${escapeHtml(i.src)}" />`
          : `\n    <link rel="icon" type="${escapeHtml(i.type)}" sizes="${escapeHtml(i.sizes)}" href="${escapeHtml(i.src)}" />`,
      )
      .join('');

  /** The page of the HTML template with `head` in its head and, if rendered, `page` in #root. */
  function pageHtml(head: string, page: RenderedPage | undefined, identity: SiteIdentity): string {
    const icons = iconLinks(identity.favicon);
    let html = template
      .replace(/<title>[\s\S]*?<\/title>/, '')
      .replace(/<meta name="description"[^>]*>/, '')
      .replace(/<link rel="icon"[^>]*>/, (builtIn) => (icons ? '' : builtIn))
      .replace('<meta charset="UTF-8" />', () => `<meta charset="UTF-8" />\n    ${head}${icons}`);
    if (page) {
      html = html.replace(
        '<div id="root"></div>',
        () => `<div id="root">${page.markup}</div>\n    <script type="application/json" id="${INITIAL_DATA_ID}">${page.data}</script>`,
      );
    }
    return html;
  }

  const basicHead = (meta: { title: string; description: string }, noindex: boolean) =>
    `<title>${escapeHtml(meta.title)}</title>\n    <meta name="description" content="${escapeHtml(meta.description)}" />` +
    (noindex ? '\n    <meta name="robots" content="noindex" />' : '');

  app.get('/*', { schema: { hide: true } }, async function pageHandler(request, reply) {
    const [pathname, query] = splitUrl(request.url);
    if (pathname === '/api' || pathname.startsWith('/api/')) throw notFound(`No route for GET ${pathname.slice(0, 200)}`);
    const identity = await identityNow();
    const resourceId = parseResourcePath(pathname);
    if (resourceId !== undefined) {
      // A resource's page: its data decides the answer (found, moved to its canonical path, or gone).
      const resourceUrl = API.resource(resourceId);
      const answer = await app.inject({ method: 'GET', url: resourceUrl });
      if (answer.statusCode === 200) {
        const resource = publicResourceSchema.parse(answer.json());
        // Renamed (or typed without its slug): one address per resource, the old ones point at it.
        if (pathname !== resource.url) return reply.redirect(resource.url + query, 301);
        const fixed = config.publicUrl ?? identity.publicUrl;
        const base = fixed ?? `${request.protocol}://${request.host}`;
        const page = await renderPage(request.url, request.log, { url: resourceUrl, answer });
        // Without PUBLIC_URL the canonical and card URLs come from the request's Host: never a shared copy.
        reply.type('text/html; charset=utf-8').header('cache-control', fixed ? 'no-cache' : 'private, no-cache');
        return pageHtml(resourceHead(resource, base, identity.name), page, identity);
      }
      const token = answer.statusCode === 404 ? new URLSearchParams(query).get(PREVIEW_PARAM) : null;
      const preview = token ? await resourceForPreview(ctx, resourceId, token) : undefined;
      if (preview) {
        // An admin's preview link to a resource the public cannot see: its page, never indexed nor kept by any cache.
        const base = config.publicUrl ?? identity.publicUrl ?? `${request.protocol}://${request.host}`;
        const known = { statusCode: 200, headers: {}, json: () => preview } as unknown as Answer;
        const page = await renderPage(request.url, request.log, { url: resourceUrl, answer: known }, renderer ? [renderer.previewQuery(resourceId)] : []);
        reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
        return pageHtml(`${resourceHead(preview, base, identity.name)}\n    <meta name="robots" content="noindex" />`, page, identity);
      }
      if (answer.statusCode !== 404) request.log.warn({ statusCode: answer.statusCode, url: request.url }, 'resource page: the resource could not be read');
      const meta = pageMeta('/404', identity.name);
      reply.status(answer.statusCode === 404 ? 404 : 503).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      return pageHtml(basicHead(meta, true), undefined, identity);
    }
    const meta = pageMeta(pathname, identity.name, identity.description);
    // The search page's title names its words.
    if (pathname === SEARCH_PATH) meta.title = searchTitle(new URLSearchParams(query).get('q') ?? '', identity.name);
    const isAdmin = pathname === '/admin' || pathname.startsWith('/admin/');
    // Public pages come rendered with their data, so they paint before the JavaScript runs.
    const page = renderPaths.has(pathname) ? await renderPage(request.url, request.log) : undefined;
    reply.status(meta.found ? 200 : 404).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    return pageHtml(basicHead(meta, isAdmin || !meta.found || meta.noindex === true), page, identity);
  });
};
