import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '@contract/settings';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';
import { SETTINGS_API } from './settings-paths';

/** Super admins only (403 otherwise). */
export const getSettings = (signal?: AbortSignal) => api<AdminSettings>(SETTINGS_API.settings, { signal });

export const settingsQueryOptions = () => queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'settings'], queryFn: ({ signal }) => getSettings(signal) });

export const useSettings = (enabled = true) => useQuery({ ...settingsQueryOptions(), enabled });
