import { useMutation } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { EndedSessions } from '@contract/auth';
import { api } from '@/lib/api';

/** Signs another admin out everywhere (super admins). */
export const endAdminSessions = (id: number) => api<EndedSessions>(API.adminAdminSessions(id), { method: 'DELETE' });

export const useEndAdminSessions = () => useMutation({ mutationFn: endAdminSessions });
