import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { dashboardQueryOptions } from './get-dashboard';
import { adminsQueryOptions } from './get-admins';

export const deleteAdmin = (id: number) => api<{ ok: true }>(API.adminAdmin(id), { method: 'DELETE' });

export function useDeleteAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAdmin,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: adminsQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
      ]),
  });
}
