import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { LinkHealth } from '@contract/links';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** While a check is queued or running, the page checks back this often to show what it found. */
const RUNNING_POLL_MS = 3000;

export const linkHealthKey = [...ADMIN_QUERY_SCOPE, 'link-health'] as const;

/** One page of broken links (1-based), in resource order. */
export const getLinkHealth = (page: number, signal?: AbortSignal) => api<LinkHealth>(`${API.adminLinkHealth}?page=${page}`, { signal });

export const linkHealthQueryOptions = (page = 1) =>
  queryOptions({ queryKey: [...linkHealthKey, page], queryFn: ({ signal }) => getLinkHealth(page, signal) });

export const useLinkHealth = (page = 1) =>
  useQuery({
    ...linkHealthQueryOptions(page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.running ? RUNNING_POLL_MS : false),
  });
