import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { CategoryValue } from '@contract/categories';
import { PAGE_SIZE } from '@contract/constants';
import type { ResourceList, Sort } from '@contract/resources';
import { api } from '@/lib/api';
import { FACT_KEYS, type FactFilters } from '../fact-filters';

export interface ResourceFilters extends FactFilters {
  /** Absent: every category (the search page). */
  category?: CategoryValue;
  q: string;
  tags: string[];
  sort: Sort;
}

/** Every resource list query starts with this key, so a download can patch all of them. */
export const resourceListsKey = ['resources', 'list'] as const;

/** The first page also asks for the facets (each filter value's count): later pages only add cards. */
export function resourceListUrl(filters: ResourceFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.category) params.set('category', filters.category);
  if (filters.q) params.set('q', filters.q);
  if (filters.tags.length > 0) params.set('tags', filters.tags.join(','));
  for (const key of FACT_KEYS) if (filters[key] !== undefined) params.set(key, String(filters[key]));
  params.set('sort', filters.sort);
  params.set('limit', String(PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  else params.set('facets', 'true');
  return `${API.resources}?${params}`;
}

export const resourcesQueryOptions = (filters: ResourceFilters) =>
  infiniteQueryOptions({
    queryKey: [...resourceListsKey, filters],
    queryFn: ({ pageParam, signal }) => api<ResourceList>(resourceListUrl(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 30_000,
  });

/**
 * While a new search, filter or sort loads, the previous results stay on screen (dimmed) instead of
 * flashing skeletons on every keystroke: of the same category on a category page; on the search
 * page (`acrossCategories`) whatever it showed, a category chosen from its counts included.
 */
export function useResources(filters: ResourceFilters, { acrossCategories = false } = {}) {
  return useInfiniteQuery({
    ...resourcesQueryOptions(filters),
    placeholderData: (previous, previousQuery) =>
      acrossCategories || (previousQuery?.queryKey[2] as ResourceFilters | undefined)?.category === filters.category
        ? keepPreviousData(previous)
        : undefined,
  });
}
