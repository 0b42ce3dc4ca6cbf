import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { TrashList } from '@contract/trash';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** One page of the trash, most recently deleted first; `cursor` from the previous page's nextCursor. */
export const getTrash = (cursor: string | null, signal?: AbortSignal) =>
  api<TrashList>(cursor ? `${API.adminTrash}?cursor=${encodeURIComponent(cursor)}` : API.adminTrash, { signal });

export const trashQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'trash'],
    queryFn: ({ pageParam, signal }) => getTrash(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useTrash = () => useInfiniteQuery(trashQueryOptions());
