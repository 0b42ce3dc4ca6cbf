import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { SystemStatus } from '@contract/system';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

export const getSystem = (signal?: AbortSignal) => api<SystemStatus>(API.adminSystem, { signal });

/** The System page's figures, read again every 15 s while it is open. */
export const systemQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'system'], queryFn: ({ signal }) => getSystem(signal), refetchInterval: 15_000 });

export const useSystem = () => useQuery(systemQueryOptions());
