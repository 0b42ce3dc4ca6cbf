import { API } from '@contract/api-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SettingsSections, SettingsVersion } from '@contract/settings';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** The last saved versions of the settings, newest first. */
export const settingsVersionsQueryOptions = () =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'settings', 'versions'],
    queryFn: ({ signal }) => api<{ items: SettingsVersion[] }>(API.adminSettingsVersions, { signal }),
  });

export const useSettingsVersions = () => useQuery(settingsVersionsQueryOptions());

export type SettingsVersionDetail = SettingsVersion & { sections: SettingsSections };

/** One version with its sections as they were after that save (to look at before restoring). */
export const settingsVersionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...settingsVersionsQueryOptions().queryKey, id],
    queryFn: ({ signal }) => api<SettingsVersionDetail>(API.adminSettingsVersion(id), { signal }),
    // A saved version never changes.
    staleTime: Infinity,
  });

export const useSettingsVersion = (id: number | null) => useQuery({ ...settingsVersionQueryOptions(id ?? 0), enabled: id !== null });
