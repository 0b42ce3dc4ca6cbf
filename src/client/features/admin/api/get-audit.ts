import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AuditList } from '@contract/audit';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** The Activity page's filters (contract/audit.ts auditFilterSchema), as the API takes them. */
export interface AuditFilters {
  actor?: number;
  action?: string;
  target_type?: string;
  target_id?: string;
  /** ISO instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
}

/** The query string of `filters` (empty values left out). */
export function auditSearch(filters: AuditFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') params.set(k, String(v));
  if (cursor) params.set('cursor', cursor);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** One page of audit entries, newest first (super admins see all, an admin their own). */
export const getAudit = (filters: AuditFilters, cursor: string | null, signal?: AbortSignal) => api<AuditList>(`${API.adminAudit}${auditSearch(filters, cursor)}`, { signal });

/** The CSV of the same filters: a plain link, the browser downloads it with the session cookie. */
export const auditCsvHref = (filters: AuditFilters) => `${API.adminAuditCsv}${auditSearch(filters)}`;

export const auditQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'audit', filters],
    queryFn: ({ pageParam, signal }) => getAudit(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Every write adds entries: a page opened again reads them afresh.
    staleTime: 0,
  });

export const useAudit = (filters: AuditFilters, enabled = true) => useInfiniteQuery({ ...auditQueryOptions(filters), enabled });
