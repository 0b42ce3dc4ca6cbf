import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { Resource, ResourceInput, ResourcePatch } from '@contract/resources';
import { api } from '@/lib/api';
import { invalidateResourceViews } from './invalidate';

/**
 * Saving with an upload waits for the server to verify it (size, SHA-256 of every byte, an image
 * re-encoded; preview media are checked the same way, or the download read again for from_download):
 * far longer than a plain write for a big file.
 */
export const SAVE_WITH_UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export const hasUpload = (body: Pick<ResourcePatch, 'download_upload_id' | 'thumbnail_upload_id' | 'preview_source'>) =>
  body.download_upload_id !== undefined || body.thumbnail_upload_id !== undefined || body.preview_source !== undefined;

export const createResource = (body: ResourceInput) =>
  api<Resource>(API.adminResources, { method: 'POST', body, timeoutMs: hasUpload(body) ? SAVE_WITH_UPLOAD_TIMEOUT_MS : undefined });

export function useCreateResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createResource,
    onSuccess: (created) => invalidateResourceViews(client, created.category),
  });
}
