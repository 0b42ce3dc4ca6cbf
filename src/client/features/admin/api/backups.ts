import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { BackupList } from '@contract/backups';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** While a backup is queued or being written, the list is read again this often. */
const RUNNING_POLL_MS = 2000;

export const backupsKey = [...ADMIN_QUERY_SCOPE, 'backups'] as const;

export const getBackups = (signal?: AbortSignal) => api<BackupList>(API.adminBackups, { signal });

/** The backups in the file store (super admins), each with a signed download link valid for minutes: read again every minute. */
export const useBackups = () =>
  useQuery({
    queryKey: backupsKey,
    queryFn: ({ signal }) => getBackups(signal),
    refetchInterval: (query) => (query.state.data?.running ? RUNNING_POLL_MS : 60_000),
  });

/** "Back up now": queues a backup (or answers the one already queued or running). */
export function useBackUpNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ job_id: number }>(API.adminBackups, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ADMIN_QUERY_SCOPE }),
  });
}
