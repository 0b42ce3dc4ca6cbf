import { useMutation } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';

export const logout = () => api<{ ok: true }>(API.logout, { method: 'POST' });

export const useLogout = () => useMutation({ mutationFn: logout });
