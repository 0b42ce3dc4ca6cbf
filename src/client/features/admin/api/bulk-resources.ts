import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminResourceIds, BulkRequest, BulkResponse } from '@contract/bulk';
import type { CategoryValue } from '@contract/categories';
import type { ResourceStatus } from '@contract/resources';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';
import { searchText } from './get-resources';

/**
 * A bulk action does up to BULK_MAX resources one after the other on the server (a trash of a
 * thousand takes seconds): far longer than a page's fetch may.
 */
const BULK_TIMEOUT_MS = 2 * 60 * 1000;

/** One action on the selected resources: a result per id (contract/bulk.ts). */
export const bulkResources = (body: BulkRequest) => api<BulkResponse>(API.adminResourcesBulk, { method: 'POST', body, timeoutMs: BULK_TIMEOUT_MS });

/** The list's views follow: its category's, and the one a move sends resources to. */
export function useBulkResources(category: CategoryValue) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: bulkResources,
    onSettled: async (_data, _error, body) => {
      await invalidateResourceViews(client, category);
      if (body.action === 'move' && body.category && body.category !== category) await invalidateResourceViews(client, body.category);
    },
  });
}

/** Every id the list's filters match (at most BULK_MAX, newest first), for "Select all N matching". */
export function getMatchingIds(filters: { category: CategoryValue; q: string; status?: ResourceStatus; brokenLinks?: boolean }, signal?: AbortSignal) {
  const params = new URLSearchParams({ category: filters.category });
  const text = searchText(filters.q);
  if (text) params.set('q', text);
  if (filters.status) params.set('status', filters.status);
  if (filters.brokenLinks) params.set('links', 'broken');
  return api<AdminResourceIds>(`${API.adminResourceIds}?${params}`, { signal });
}
