import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { LinkCheckQueued } from '@contract/links';
import { api } from '@/lib/api';
import { linkHealthKey } from './get-link-health';

/** "Check now": queues a check of every external link (or answers the one already queued). */
export const runLinkCheck = () => api<LinkCheckQueued>(API.adminLinkHealthRun, { method: 'POST' });

export function useRunLinkCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runLinkCheck,
    onSuccess: () => client.invalidateQueries({ queryKey: linkHealthKey }),
  });
}
