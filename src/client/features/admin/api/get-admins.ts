import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminList } from '@contract/auth';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Super users only (403 otherwise). */
export const getAdmins = (signal?: AbortSignal) => api<AdminList>(API.adminAdmins, { signal });

export const adminsQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'admins'], queryFn: ({ signal }) => getAdmins(signal) });

export const useAdmins = (enabled = true) => useQuery({ ...adminsQueryOptions(), enabled });
