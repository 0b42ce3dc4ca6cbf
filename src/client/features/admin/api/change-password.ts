import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { EndedSessions, PasswordChange } from '@contract/auth';
import { api } from '@/lib/api';
import { sessionsQueryOptions } from './get-sessions';

/** Changes one's own password; the server ends the other sessions and says how many. */
export const changePassword = (body: PasswordChange) => api<EndedSessions>(API.authPassword, { method: 'POST', body });

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
