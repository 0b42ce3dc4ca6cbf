import { API } from '@contract/api-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LegalPage, LegalPageKey } from '@contract/settings';
import { api } from '@/lib/api';

/** The owner's Markdown for a legal page, rendered and sanitised by the server. */
export const legalPageQueryOptions = (page: LegalPageKey) =>
  queryOptions({
    queryKey: ['pages', page],
    queryFn: ({ signal }) => api<LegalPage>(API.page(page), { signal }),
    staleTime: 5 * 60_000,
  });

export const useLegalPage = (page: LegalPageKey) => useQuery(legalPageQueryOptions(page));
