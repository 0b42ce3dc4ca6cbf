import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Preview } from '@contract/previews';
import type { CategoryValue } from '@contract/categories';
import { SEARCH_MAX } from '@contract/constants';
import { ADMIN_PAGE_SIZE, type AdminResourceList, type ResourceStatus } from '@contract/resources';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Whether a preview is still being made (queued or processing). */
const isPreviewPending = (p: Preview | null) => p?.status === 'queued' || p?.status === 'processing';

/** While a preview on the page is being made, the page checks back this often to show when it is done. */
const PREVIEW_POLL_MS = 3000;

/** Every admin query about one category's resources starts with this key (pages and single items). */
export const resourcesKey = (category: CategoryValue) => [...ADMIN_QUERY_SCOPE, 'resources', category] as const;

export interface ResourcePageParams {
  category: CategoryValue;
  /** The search box text; the server trims it. */
  q: string;
  /** From a previous page's nextCursor / prevCursor; null for the first page. */
  cursor: string | null;
  /** Only drafts, scheduled or published ones; undefined: all. */
  status?: ResourceStatus;
  /** Only resources with a broken external link (the link check's). */
  brokenLinks?: boolean;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001F\u007F]/g;

/** What the server accepts of a search text typed or pasted into the URL: no control characters, at most SEARCH_MAX. */
export const searchText = (q: string) => q.replace(CONTROL_CHARS, ' ').trim().slice(0, SEARCH_MAX).trim();

export function resourcePageUrl({ category, q, cursor, status, brokenLinks }: ResourcePageParams): string {
  const params = new URLSearchParams({ category });
  const text = searchText(q);
  if (text) params.set('q', text);
  if (status) params.set('status', status);
  if (brokenLinks) params.set('links', 'broken');
  params.set('limit', String(ADMIN_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `${API.adminResources}?${params}`;
}

/** One page of a category's resources, newest first, with download URLs (admins only). */
export const resourcePageQueryOptions = (p: ResourcePageParams) =>
  queryOptions({
    queryKey: [...resourcesKey(p.category), 'page', { q: searchText(p.q), cursor: p.cursor, status: p.status ?? null, brokenLinks: p.brokenLinks ?? false }],
    queryFn: ({ signal }) => api<AdminResourceList>(resourcePageUrl(p), { signal }),
  });

/**
 * While the next page or a new search loads, the previous page of the same category stays on
 * screen instead of flashing skeletons; another category starts clean.
 */
export const useResourcePage = (p: ResourcePageParams, enabled = true) =>
  useQuery({
    ...resourcePageQueryOptions(p),
    enabled,
    refetchInterval: (query) => (query.state.data?.items.some((r) => isPreviewPending(r.preview)) ? PREVIEW_POLL_MS : false),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === p.category ? keepPreviousData(previous) : undefined,
  });

/** The edit screen: the category's list narrowed to one id (empty when it is in another category). */
export const resourceQueryOptions = (category: CategoryValue, id: number) =>
  queryOptions({
    queryKey: [...resourcesKey(category), 'id', id],
    queryFn: ({ signal }) =>
      api<AdminResourceList>(`${API.adminResources}?${new URLSearchParams({ category, id: String(id) })}`, { signal }),
  });

/** While its preview is being made, the edit screen checks back like the list (the form's fields stay as typed). */
export const useResource = (category: CategoryValue, id: number, enabled = true) =>
  useQuery({
    ...resourceQueryOptions(category, id),
    enabled,
    refetchInterval: (query) => (query.state.data?.items.some((r) => isPreviewPending(r.preview)) ? PREVIEW_POLL_MS : false),
  });
