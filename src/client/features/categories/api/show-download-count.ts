import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import type { DownloadResponse, PublicResource, ResourceList } from '@contract/resources';
import { resourceListsKey } from './get-resources';

/**
 * After a download is recorded: the server's count is the truth. It is written into every cached
 * list in place, rather than refetching the lists, so the grid does not reshuffle under the visitor.
 */
export function useShowDownloadCount() {
  const queryClient = useQueryClient();
  return (id: number, result: DownloadResponse) => {
    const patch = (r: PublicResource) => (r.id === id ? { ...r, download_count: result.download_count } : r);
    queryClient.setQueriesData<InfiniteData<ResourceList>>({ queryKey: resourceListsKey }, (data) =>
      data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(patch) })) } : data,
    );
    // Other views of this resource (home carousel, admin) read fresh counts next time.
    void queryClient.invalidateQueries({ queryKey: ['resources'], refetchType: 'none' });
  };
}
