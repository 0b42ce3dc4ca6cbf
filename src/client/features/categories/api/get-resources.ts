import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { CategoryValue } from '@contract/categories';
import { PAGE_SIZE } from '@contract/constants';
import type { ResourceList, Sort } from '@contract/resources';
import { api } from '@/lib/api';

export interface ResourceFilters {
  category: CategoryValue;
  q: string;
  tags: string[];
  sort: Sort;
}

/** Every resource list query starts with this key, so a download can patch all of them. */
export const resourceListsKey = ['resources', 'list'] as const;

export function resourceListUrl(filters: ResourceFilters, cursor: string | null): string {
  const params = new URLSearchParams({ category: filters.category });
  if (filters.q) params.set('q', filters.q);
  if (filters.tags.length > 0) params.set('tags', filters.tags.join(','));
  params.set('sort', filters.sort);
  params.set('limit', String(PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
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
 * While a new search or sort loads, the previous results of the same category stay on screen
 * (dimmed) instead of flashing skeletons on every keystroke; another category starts clean.
 */
export function useResources(filters: ResourceFilters) {
  return useInfiniteQuery({
    ...resourcesQueryOptions(filters),
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as ResourceFilters | undefined)?.category === filters.category
        ? keepPreviousData(previous)
        : undefined,
  });
}
