import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminProfile } from '@contract/auth';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Who the session cookie belongs to; 401 when there is no live session. */
export const getMe = (signal?: AbortSignal) => api<AdminProfile>(API.me, { signal });

export const meQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'me'], queryFn: ({ signal }) => getMe(signal), staleTime: Infinity, gcTime: 0 });

export const useMe = (enabled: boolean) => useQuery({ ...meQueryOptions(), enabled });
