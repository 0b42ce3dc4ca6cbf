import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { siteQueryOptions } from '@/lib/site-api';
import { settingsQueryOptions } from './get-settings';
import { settingsVersionsQueryOptions } from './get-settings-versions';
import { SETTINGS_API } from './settings-paths';

/** Restoring saves the old version's sections as a new version (so a restore can be undone the same way). */
export const restoreSettingsVersion = (id: number) => api<unknown>(SETTINGS_API.restore(id), { method: 'POST' });

export function useRestoreSettingsVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: restoreSettingsVersion,
    onSuccess: async () => {
      await client.invalidateQueries({ refetchType: 'none' });
      await Promise.all([
        client.invalidateQueries({ queryKey: settingsQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: settingsVersionsQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: siteQueryOptions().queryKey }),
      ]);
    },
  });
}
