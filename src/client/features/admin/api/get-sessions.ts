import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminSessionList } from '@contract/auth';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** The signed-in admin's own sessions, this one first. */
export const getSessions = (signal?: AbortSignal) => api<AdminSessionList>(API.authSessions, { signal });

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'sessions'], queryFn: ({ signal }) => getSessions(signal) });

export const useSessions = () => useQuery(sessionsQueryOptions());
