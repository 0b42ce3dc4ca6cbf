import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { trashQueryOptions } from './get-trash';

/** Super admins: deletes a resource in the trash for good. */
export const purgeResource = (id: number) => api<{ ok: true }>(API.adminTrashItem(id), { method: 'DELETE' });

export function usePurgeResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: purgeResource,
    onSuccess: () => client.invalidateQueries({ queryKey: trashQueryOptions().queryKey }),
  });
}
