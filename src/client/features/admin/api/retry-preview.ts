import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Resource } from '@contract/resources';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';

/** Queues a failed preview again; the answer is the resource with its preview queued. */
export const retryPreview = ({ id }: Pick<Resource, 'id' | 'category'>) => api<Resource>(API.adminResourcePreviewRetry(id), { method: 'POST' });

export function useRetryPreview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: retryPreview,
    onSuccess: (_data, { category }) => invalidateResourceViews(client, category),
  });
}
