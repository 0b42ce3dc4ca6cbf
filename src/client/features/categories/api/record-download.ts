import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { DOWNLOAD_TIMEOUT_MS } from '@contract/constants';
import type { DownloadResponse, PublicResource, ResourceList } from '@contract/resources';
import { api } from '@/lib/api';
import { resourceListsKey } from './get-resources';

export function recordDownload(id: number): Promise<DownloadResponse> {
  return api<DownloadResponse>(API.download(id), { method: 'POST', timeoutMs: DOWNLOAD_TIMEOUT_MS });
}

/**
 * Records one download. The server's count is the truth: it is written into every cached list
 * in place, rather than refetching the lists, so the grid does not reshuffle under the visitor.
 */
export function useRecordDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordDownload,
    onSuccess: (result, id) => {
      const patch = (r: PublicResource) => (r.id === id ? { ...r, download_count: result.download_count } : r);
      queryClient.setQueriesData<InfiniteData<ResourceList>>({ queryKey: resourceListsKey }, (data) =>
        data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(patch) })) } : data,
      );
      // Other views of this resource (home carousel, admin) read fresh counts next time.
      void queryClient.invalidateQueries({ queryKey: ['resources'], refetchType: 'none' });
    },
  });
}
