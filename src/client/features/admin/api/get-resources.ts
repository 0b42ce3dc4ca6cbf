import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { CategoryValue } from '@contract/categories';
import type { AdminResourceList } from '@contract/resources';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** One category's resources, newest first, with download URLs (admins only). */
export const getResources = (category: CategoryValue, signal?: AbortSignal) =>
  api<AdminResourceList>(`${API.adminResources}?${new URLSearchParams({ category })}`, { signal });

export const resourcesQueryOptions = (category: CategoryValue) =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'resources', category], queryFn: ({ signal }) => getResources(category, signal) });

export const useResources = (category: CategoryValue, enabled = true) =>
  useQuery({ ...resourcesQueryOptions(category), enabled });
