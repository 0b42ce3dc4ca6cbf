import { PUBLIC_CATEGORIES } from './categories';

/**
 * Title and meta description of every public page: the server puts them into the HTML it
 * sends (and sitemap.xml), the client sets document.title from the same function.
 */
export interface PageMeta {
  title: string;
  description: string;
  /** false → the server answers 404 (the SPA shows its not-found page). */
  found: boolean;
  /** A page for people, never for search engines (robots noindex). */
  noindex?: boolean;
}

/** The page a browser is sent to when it opens an expired or tampered download link (with the resource's id when known). */
export const DOWNLOAD_EXPIRED_PATH = '/download-expired';
export const downloadExpiredPath = (resourceId?: number) => (resourceId === undefined ? DOWNLOAD_EXPIRED_PATH : `${DOWNLOAD_EXPIRED_PATH}?resource=${resourceId}`);

/** The search of every category (`?q=`): a page for people, never indexed (its results are the category pages'). */
export const SEARCH_PATH = '/search';

/** The search page's title: "Search: {words} - {site}" (pageMeta's pattern). */
export function searchTitle(q: string, siteName: string): string {
  return q.trim() ? `Search: ${q.trim()} - ${siteName}` : `Search - ${siteName}`;
}

const DEFAULT_DESCRIPTION =
  'Premium video editing packs, photo presets, sound effects, LUTs, fonts, motion graphics and anime edits for creators. Browse, preview and download.';

/** `siteDescription`: the owner's one-line description (settings), the home page's meta description. */
export function pageMeta(pathname: string, siteName: string, siteDescription: string = DEFAULT_DESCRIPTION): PageMeta {
  const path = pathname.replace(/\/+$/, '') || '/';
  const t = (page: string) => `${page} - ${siteName}`;
  if (path === '/') return { title: t('Premium Resources for Creators'), description: siteDescription, found: true };
  if (path === '/community')
    return {
      title: t('Community'),
      description: `Join the ${siteName} community on WhatsApp, Telegram, Discord, Instagram, YouTube and more.`,
      found: true,
    };
  if (path === '/privacy') return { title: t('Privacy Policy'), description: `How ${siteName} handles your data.`, found: true };
  if (path === '/terms') return { title: t('Terms of Service'), description: `The terms for using ${siteName}.`, found: true };
  if (path === DOWNLOAD_EXPIRED_PATH)
    return { title: t('Download Link Expired'), description: 'This download link has expired: download the file again from its page.', found: true, noindex: true };
  if (path === SEARCH_PATH)
    return { title: t('Search'), description: `Search every resource on ${siteName}.`, found: true, noindex: true };
  if (path === '/coming-soon') return { title: t('Coming Soon'), description: 'Get ready for something amazing.', found: true };
  const m = /^\/categories\/([a-z-]+)$/.exec(path);
  if (m) {
    const c = PUBLIC_CATEGORIES.find((x) => x.slug === m[1]);
    if (c) return { title: t(c.title), description: c.description, found: true };
  }
  if (path === '/admin' || path.startsWith('/admin/')) return { title: t('Admin'), description: `${siteName} admin area.`, found: true };
  return { title: t('Page Not Found'), description: 'The page you are looking for does not exist.', found: false };
}

/** Public, indexable paths for sitemap.xml. */
export function sitemapPaths(): string[] {
  return ['/', '/community', ...PUBLIC_CATEGORIES.map((c) => `/categories/${c.slug}`), '/privacy', '/terms'];
}
