import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { parseResourcePath } from '@contract/resource-page';
import type { PublicResource, RelatedList } from '@contract/resources';
import { api } from '@/lib/api';

/** One resource, for its page. */
export const resourceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['resources', 'one', id],
    queryFn: ({ signal }) => api<PublicResource>(API.resource(id), { signal }),
    staleTime: 30_000,
  });

export const useResource = (id: number) => useQuery(resourceQueryOptions(id));

/** The `resource` parameter of the download-expired page (contract/files.ts downloadExpiredPath): an id, or undefined. */
export function resourceIdParam(params: URLSearchParams): number | undefined {
  return parseResourcePath(`/resources/${params.get('resource') ?? ''}`);
}

/** The resources shown under it: same category, shared tags. */
export const relatedQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['resources', 'related', id],
    queryFn: ({ signal }) => api<RelatedList>(API.related(id), { signal }),
    staleTime: 60_000,
  });

export const useRelated = (id: number) => useQuery(relatedQueryOptions(id));
