/**
 * Server rendering (bundled for Node by the plugin in vite.config.ts into `<client dir>/ssr/render.js`,
 * never shipped to the browser; src/server/modules/spa loads it). A public page is rendered at
 * request time from the same routes and components as the app, with the data its first render
 * needs (fetched by the server from its own API, see `initialQueries`), so the HTML already shows
 * the page as the app will: header, hero, category counts, the first page of a category's list.
 * The browser hydrates that markup with the same data (app/boot.tsx).
 */
import { type QueryKey } from '@tanstack/react-query';
import { getCategory, slugToCategory } from '@contract/categories';
import { API } from '@contract/api-paths';
import { DOWNLOAD_EXPIRED_PATH, SEARCH_PATH, sitemapPaths } from '@contract/pages';
import { parseResourcePath } from '@contract/resource-page';
import type { LegalPageKey } from '@contract/settings';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { resourceListUrl, resourcesQueryOptions } from '@/features/categories/api/get-resources';
import { filtersFromParams, searchFiltersFromParams } from '@/features/categories/use-category-filters';
import { previewPageQueryOptions, relatedQueryOptions, resourceIdParam, resourceQueryOptions } from '@/features/resources/api/get-resource';
import { activeAnnouncementsQueryOptions } from '@/features/layout/use-announcements';
import { legalPageQueryOptions } from '@/features/pages/api/get-legal-page';
import { type InitialQuery, setRenderClock, seedQueries } from '@/lib/hydration';
import { paths } from '@/lib/paths';
import { categoriesQueryOptions, siteQueryOptions } from '@/lib/site-api';
import { AppProviders, makeQueryClient } from './providers';
import { routes } from './routes';

/** The pages rendered on the server: the public, indexable ones (sitemap.xml), the download-expired page, and every resource's page (see spa). */
export const RENDER_PATHS: readonly string[] = [...sitemapPaths(), DOWNLOAD_EXPIRED_PATH, SEARCH_PATH];

/** An API read the first render needs: the server GETs `url` and passes the JSON body back as `data`. */
export interface DataRequest {
  key: QueryKey;
  url: string;
  /** An infinite query (a list's first page): its cache entry is `{ pages: [body], pageParams: [null] }`. */
  infinite: boolean;
}

/** What the first render of `url` (path + query) reads: the layout's and the page's queries. */
export function initialQueries(url: string): DataRequest[] {
  const { pathname, searchParams } = new URL(url, 'http://render.invalid');
  const requests: DataRequest[] = [
    { key: siteQueryOptions().queryKey, url: API.site, infinite: false },
    { key: categoriesQueryOptions().queryKey, url: API.categories, infinite: false },
    { key: activeAnnouncementsQueryOptions().queryKey, url: API.activeAnnouncements, infinite: false },
  ];
  const slug = /^\/categories\/([^/]+)$/.exec(pathname)?.[1];
  const value = slug ? slugToCategory(safeDecode(slug)) : undefined;
  const category = value ? getCategory(value) : undefined;
  if (category?.isPublic) {
    const filters = { category: category.value, ...filtersFromParams(searchParams, category) };
    requests.push({ key: resourcesQueryOptions(filters).queryKey, url: resourceListUrl(filters, null), infinite: true });
  }
  if (pathname === SEARCH_PATH) {
    const filters = searchFiltersFromParams(searchParams);
    requests.push({ key: resourcesQueryOptions(filters).queryKey, url: resourceListUrl(filters, null), infinite: true });
  }
  // The resource an expired download link was for: its id is in the data's URL, so in the render cache's key.
  const expiredFor = pathname === DOWNLOAD_EXPIRED_PATH ? resourceIdParam(searchParams) : undefined;
  if (expiredFor !== undefined) requests.push({ key: resourceQueryOptions(expiredFor).queryKey, url: API.resource(expiredFor), infinite: false });
  const legal = LEGAL_PATHS[pathname];
  if (legal) requests.push({ key: legalPageQueryOptions(legal).queryKey, url: API.page(legal), infinite: false });
  const id = parseResourcePath(pathname);
  if (id !== undefined) {
    requests.push(
      { key: resourceQueryOptions(id).queryKey, url: API.resource(id), infinite: false },
      { key: relatedQueryOptions(id).queryKey, url: API.related(id), infinite: false },
    );
  }
  return requests;
}

/** The legal pages' addresses and what they show. */
const LEGAL_PATHS: Record<string, LegalPageKey | undefined> = { [paths.privacy]: 'privacy', [paths.terms]: 'terms' };

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** What tells a resource's page that it is shown through a preview link (the server adds it for a valid one). */
export function previewQuery(id: number): InitialQuery {
  return { key: previewPageQueryOptions(id).queryKey, data: true };
}

/** The cache entry a request's answer becomes. */
export function toInitialQuery(request: DataRequest, body: unknown): InitialQuery {
  return { key: request.key, data: request.infinite ? { pages: [body], pageParams: [null] } : body };
}

/** The app's routes, flattened and ranked once (stateless between requests). */
let handler: ReturnType<typeof createStaticHandler> | undefined;

/** The markup of `url`'s first frame with `queries` in the cache (queries never run on the server). */
export async function render(url: string, queries: readonly InitialQuery[], now: number): Promise<string> {
  handler ??= createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://render.invalid')));
  if (context instanceof Response) throw new Error(`render ${url}: the route answered a redirect/response`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const client = makeQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, enabled: false, retry: false } });
  seedQueries(client, queries);
  // Synchronous from here to the end of renderToString: no other request can change the clock meanwhile.
  setRenderClock(now);
  try {
    return renderToString(
      <AppProviders client={client}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>,
    );
  } finally {
    setRenderClock(undefined);
    client.clear();
  }
}
