import { API } from '@contract/api-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '@contract/settings';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Super admins only (403 otherwise). */
export const getSettings = (signal?: AbortSignal) => api<AdminSettings>(API.adminSettings, { signal });

export const settingsQueryOptions = () => queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'settings'], queryFn: ({ signal }) => getSettings(signal) });

export const useSettings = (enabled = true) => useQuery({ ...settingsQueryOptions(), enabled });
