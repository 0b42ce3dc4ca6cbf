import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LegalPage, LegalPageKey } from '@contract/settings';
import { api } from '@/lib/api';

/** The client's copy of the path until the lead moves it into contract/api-paths.ts. */
export const legalPagePath = (page: LegalPageKey) => `/api/pages/${page}`;

/** The owner's Markdown for a legal page, rendered and sanitised by the server. */
export const legalPageQueryOptions = (page: LegalPageKey) =>
  queryOptions({
    queryKey: ['pages', page],
    queryFn: ({ signal }) => api<LegalPage>(legalPagePath(page), { signal }),
    staleTime: 5 * 60_000,
  });

export const useLegalPage = (page: LegalPageKey) => useQuery(legalPageQueryOptions(page));
