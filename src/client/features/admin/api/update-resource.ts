import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Resource, ResourcePatch } from '@contract/resources';
import { api } from '@/lib/api';
import { hasUpload, SAVE_WITH_UPLOAD_TIMEOUT_MS } from './create-resource';
import { invalidateResourceViews } from './invalidate';

/** The patch never carries download_count: the contract has no such field, so edits cannot reset it. */
export const updateResource = ({ id, patch }: { id: number; patch: ResourcePatch }) =>
  api<Resource>(API.adminResource(id), { method: 'PATCH', body: patch, timeoutMs: hasUpload(patch) ? SAVE_WITH_UPLOAD_TIMEOUT_MS : undefined });

export function useUpdateResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateResource,
    onSuccess: (updated) => invalidateResourceViews(client, updated.category),
  });
}
