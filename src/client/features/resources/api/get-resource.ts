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

/** Asked for only with an id: the download-expired page of a tampered link has none (it asked for /api/resources/0, a 400). */
export const useResource = (id: number | undefined) => useQuery({ ...resourceQueryOptions(id ?? 0), enabled: id !== undefined });

/**
 * Whether this page is an admin's preview of a resource the public cannot see (a preview link,
 * docs/decisions/392-preview-links.md). Never fetched: the server seeds it with the page it renders
 * for a valid link (app/render.tsx previewQuery), so the banner is in the first paint.
 */
export const previewPageQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['resources', 'preview-page', id],
    queryFn: () => false,
    enabled: false,
    staleTime: Infinity,
  });

export const useIsPreviewPage = (id: number) => useQuery(previewPageQueryOptions(id)).data === true;

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
