import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminSettings } from '@contract/settings';
import { api } from '@/lib/api';
import { settingsSaved } from './update-settings';

/** Restoring saves the old version's sections as a new version (so a restore can be undone the same way). */
export const restoreSettingsVersion = (id: number) => api<AdminSettings>(API.adminSettingsRestore(id), { method: 'POST' });

export function useRestoreSettingsVersion() {
  const client = useQueryClient();
  return useMutation({ mutationFn: restoreSettingsVersion, onSuccess: (saved) => settingsSaved(client, saved) });
}
