import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { pageMeta, sitemapPaths } from '../../../contract/pages';
import type { Module } from '../../context';
import { notFound } from '../../errors';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Resource Vault</title></head>
<body><main><h1>Resource Vault</h1><p>The web client is not built yet. Run <code>npm run build</code> (npm start does it for you).</p></main></body></html>`;

/**
 * Serves the built client: hashed assets with immutable caching, other public files, and for
 * every other non-/api GET the SPA's index.html with that page's title and description in it.
 * Registered last: its catch-all must not shadow API routes.
 */
export const spaModule: Module = async (app, { config }) => {
  const indexFile = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexFile);
  const template = hasClient ? readFileSync(indexFile, 'utf8') : FALLBACK_HTML;

  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  const origin = (request: { protocol: string; host: string }) => config.publicUrl ?? `${request.protocol}://${request.host}`;

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    reply.type('text/plain').header('cache-control', 'public, max-age=3600');
    return `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${origin(request)}/sitemap.xml\n`;
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const base = origin(request);
    const urls = sitemapPaths()
      .map((p) => `  <url><loc>${escapeHtml(base + p)}</loc></url>`)
      .join('\n');
    reply.type('application/xml').header('cache-control', 'public, max-age=3600');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  });

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0];
    if (pathname === '/api' || pathname.startsWith('/api/')) throw notFound(`No route for GET ${pathname.slice(0, 200)}`);
    const meta = pageMeta(pathname, config.siteName);
    const isAdmin = pathname === '/admin' || pathname.startsWith('/admin/');
    const head =
      `<title>${escapeHtml(meta.title)}</title>\n    <meta name="description" content="${escapeHtml(meta.description)}" />` +
      (isAdmin || !meta.found ? '\n    <meta name="robots" content="noindex" />' : '');
    const html = template
      .replace(/<title>[\s\S]*?<\/title>/, '')
      .replace(/<meta name="description"[^>]*>/, '')
      .replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    ${head}`);
    reply.status(meta.found ? 200 : 404).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    return html;
  });
};
