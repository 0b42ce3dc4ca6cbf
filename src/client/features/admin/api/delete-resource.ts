import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { CategoryValue } from '@contract/categories';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';

export const deleteResource = ({ id }: { id: number; category: CategoryValue }) =>
  api<{ ok: true }>(API.adminResource(id), { method: 'DELETE' });

export function useDeleteResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteResource,
    onSuccess: (_data, { category }) => invalidateResourceViews(client, category),
  });
}
