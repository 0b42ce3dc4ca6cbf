import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { CategoryValue } from '@contract/categories';
import type { Resource } from '@contract/resources';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';

/** Brings a deleted resource back from the trash as it was (the toast's Undo, the Trash page's Restore). */
export const restoreResource = ({ id }: { id: number; category: CategoryValue }) => api<Resource>(API.adminTrashRestore(id), { method: 'POST' });

export function useRestoreResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: restoreResource,
    onSuccess: (_data, { category }) => invalidateResourceViews(client, category),
  });
}
