import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Dashboard } from '@contract/dashboard';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

export const getDashboard = (signal?: AbortSignal) => api<Dashboard>(API.dashboard, { signal });

export const dashboardQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'dashboard'], queryFn: ({ signal }) => getDashboard(signal) });

export const useDashboard = () => useQuery(dashboardQueryOptions());
