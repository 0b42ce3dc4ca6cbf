import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Resource, ResourceInput } from '@contract/resources';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';

export const createResource = (body: ResourceInput) => api<Resource>(API.adminResources, { method: 'POST', body });

export function useCreateResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createResource,
    onSuccess: (created) => invalidateResourceViews(client, created.category),
  });
}
