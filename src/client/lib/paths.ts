import { type CategoryValue, categoryToSlug, getCategory } from '@contract/categories';
import { SEARCH_PATH } from '@contract/pages';
import { foldForSearch } from '@contract/search-fold';

/** The Settings screens (admin), in the order the admin area lists them. */
export const SETTINGS_SCREENS = ['site', 'home', 'community', 'footer', 'figures', 'legal', 'history'] as const;
export type SettingsScreen = (typeof SETTINGS_SCREENS)[number];

/** Every client route in one place. */
export const paths = {
  home: '/',
  community: '/community',
  privacy: '/privacy',
  terms: '/terms',
  comingSoon: '/coming-soon',
  category: (value: CategoryValue) => `/categories/${categoryToSlug(value)}`,
  categoryPattern: '/categories/:slug',
  /**
   * The category page filtered by a tag: one of the category's own tags (its chips) as the tag
   * filter, any other tag as a search (the search text holds every tag). A tag is a chip when they
   * fold alike (the server's rule for tags, contract/search-fold.ts).
   */
  categoryTag: (value: CategoryValue, tag: string) => {
    const key = foldForSearch(tag);
    const chip = getCategory(value).tags.find((t) => foldForSearch(t) === key);
    return `/categories/${categoryToSlug(value)}?${new URLSearchParams(chip ? { tags: chip } : { q: tag })}`;
  },
  resourcePattern: '/resources/:idSlug',
  /** The search of every category, for `q` (none: the search page itself). */
  search: (q = '') => (q.trim() ? `${SEARCH_PATH}?${new URLSearchParams({ q: q.trim() })}` : SEARCH_PATH),
  admin: {
    login: '/admin/login',
    dashboard: '/admin/dashboard',
    resources: (category: CategoryValue) => `/admin/resources/${category}`,
    newResource: (category: CategoryValue) => `/admin/resources/${category}/new`,
    editResource: (category: CategoryValue, id: number) => `/admin/resources/${category}/${id}/edit`,
    resourceStats: (category: CategoryValue, id: number) => `/admin/resources/${category}/${id}/stats`,
    /** Export every resource, import a CSV (a dry run, then Apply). */
    catalogue: '/admin/catalogue',
    announcements: '/admin/announcements',
    /** Deleted resources, restorable until they are purged. */
    trash: '/admin/trash',
    /** Broken external links found by the link checks, and "Check now". */
    linkHealth: '/admin/link-health',
    /** Super admins only: the health of every part of the site. */
    system: '/admin/system',
    /** The audit log: changes and sign-ins (super admins: everyone's), filtered, exported as CSV. */
    activity: '/admin/activity',
    /** The signed-in admin's own account: second factors, passkeys, sessions, password. */
    security: '/admin/security',
    manageAdmins: '/admin/manage-admins',
    /** Super admins only: the owner's settings, one screen per section. */
    settings: (section: SettingsScreen = 'site') => `/admin/settings/${section}`,
  },
} as const;

/** Home page anchors (spec: hash targets smooth-scroll). */
export const homeSections = {
  hero: 'hero',
  categories: 'categories',
  premium: 'premium-resources',
  myWebsite: 'my-website',
} as const;
