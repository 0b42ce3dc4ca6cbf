import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { pageMeta } from '@contract/pages';
import type { CategoryList, SiteSettings } from '@contract/site';
import * as React from 'react';
import { api } from './api';

/** Site settings (name, stats, community links, footer year): read by several features. */
export const siteQueryOptions = () =>
  queryOptions({ queryKey: ['site'], queryFn: ({ signal }) => api<SiteSettings>(API.site, { signal }), staleTime: 5 * 60_000 });

export const useSite = () => useQuery(siteQueryOptions());

/** Categories with live counts. */
export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: ['categories'], queryFn: ({ signal }) => api<CategoryList>(API.categories, { signal }), staleTime: 60_000 });

export const useCategories = () => useQuery(categoriesQueryOptions());

/** The server's SITE_NAME reaches the client in the title the server rendered; the API confirms it. */
const FALLBACK_SITE_NAME = 'Resource Vault';

export function useSiteName(): string {
  return useSite().data?.name ?? FALLBACK_SITE_NAME;
}

/** Sets document.title and the meta description from the same table the server uses. */
export function usePageMeta(pathname: string, override?: { title?: string }) {
  const siteName = useSiteName();
  React.useEffect(() => {
    const meta = pageMeta(pathname, siteName);
    document.title = override?.title ? `${override.title} - ${siteName}` : meta.title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [pathname, siteName, override?.title]);
}

/**
 * The owner's favicon in the tab, once it changes after the page loaded (a save in the admin area,
 * a client navigation): the server writes the first page's icon links into its head.
 */
export function useFavicon(favicon: SiteSettings['favicon']) {
  const icons = favicon?.icons;
  React.useEffect(() => {
    if (!icons?.length) return;
    const added = icons.map(({ src, sizes, type }) => {
      const link = document.createElement('link');
      link.rel = 'icon';
      link.href = src;
      link.sizes.value = sizes;
      link.type = type;
      link.dataset.owner = 'settings';
      return link;
    });
    // The page's own icon links step aside while the owner's are in place.
    const own = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]:not([data-owner])')];
    own.forEach((l) => l.remove());
    document.head.append(...added);
    return () => {
      added.forEach((l) => l.remove());
      document.head.append(...own);
    };
  }, [icons]);
}
