import { API } from '@contract/api-paths';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, SettingsPatch } from '@contract/settings';
import { api } from '@/lib/api';
import { siteQueryOptions } from '@/lib/site-api';
import { SAVE_WITH_UPLOAD_TIMEOUT_MS } from './create-resource';
import { settingsQueryOptions } from './get-settings';
import { settingsVersionsQueryOptions } from './get-settings-versions';

const UPLOAD_FIELDS = ['logo_upload_id', 'favicon_upload_id', 'promo_video_upload_id'] as const;

/** One section (or several) replaced whole; `base_version` makes a save over someone else's answer 409. */
export const updateSettings = (patch: SettingsPatch) =>
  api<AdminSettings>(API.adminSettings, {
    method: 'PATCH',
    body: patch,
    // Media are processed while the save waits (images re-encoded, favicon sizes made).
    timeoutMs: UPLOAD_FIELDS.some((f) => typeof patch[f] === 'string') ? SAVE_WITH_UPLOAD_TIMEOUT_MS : undefined,
  });

/** After a save or a restore: the admin's copy is the answer, and every public page reads the new settings. */
export async function settingsSaved(client: QueryClient, saved: AdminSettings) {
  client.setQueryData(settingsQueryOptions().queryKey, saved);
  await client.invalidateQueries({ refetchType: 'none' });
  await Promise.all([
    client.invalidateQueries({ queryKey: siteQueryOptions().queryKey }),
    client.invalidateQueries({ queryKey: settingsVersionsQueryOptions().queryKey }),
  ]);
}

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateSettings, onSuccess: (saved) => settingsSaved(client, saved) });
}
