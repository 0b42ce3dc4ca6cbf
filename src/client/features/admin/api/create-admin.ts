import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminCreate, AdminProfile } from '@contract/auth';
import { api } from '@/lib/api';
import { dashboardQueryOptions } from './get-dashboard';
import { adminsQueryOptions } from './get-admins';

export const createAdmin = (body: AdminCreate) => api<AdminProfile>(API.adminAdmins, { method: 'POST', body });

export function useCreateAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAdmin,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: adminsQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
      ]),
  });
}
