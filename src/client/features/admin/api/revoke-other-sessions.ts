import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { EndedSessions } from '@contract/auth';
import { api } from '@/lib/api';
import { sessionsQueryOptions } from './get-sessions';

/** Ends every session of one's own but this one. */
export const revokeOtherSessions = () => api<EndedSessions>(API.authSessionsRevokeOthers, { method: 'POST' });

export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
