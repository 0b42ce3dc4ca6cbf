import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { sessionsQueryOptions } from './get-sessions';

/** Ends one of one's own sessions (ending the current one signs out). */
export const endSession = (id: string) => api<{ ok: true }>(API.authSession(id), { method: 'DELETE' });

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
