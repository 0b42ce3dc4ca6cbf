import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { SignedInAdmin } from '@contract/auth';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Who the session cookie belongs to (and whether they must change the password first); 401 when there is no live session. */
export const getMe = (signal?: AbortSignal) => api<SignedInAdmin>(API.me, { signal });

export const meQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'me'], queryFn: ({ signal }) => getMe(signal), staleTime: Infinity, gcTime: 0 });

export const useMe = (enabled: boolean) => useQuery({ ...meQueryOptions(), enabled });
