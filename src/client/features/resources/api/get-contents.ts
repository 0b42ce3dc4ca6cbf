import { useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { ContentsEntry, ContentsPage } from '@contract/contents';
import { api } from '@/lib/api';

/** The first page of a pack's listing (what the page shows collapsed). */
export const useContentsFirstPage = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['resources', 'contents', id, 'first'],
    queryFn: ({ signal }) => api<ContentsPage>(API.resourceContents(id), { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });

/** Every page of a pack's listing (at most 10,000 files), once "Show all" asks for them. */
export const useContentsAll = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['resources', 'contents', id, 'all'],
    queryFn: async ({ signal }) => {
      const entries: ContentsEntry[] = [];
      let cursor: string | null = null;
      do {
        const page: ContentsPage = await api<ContentsPage>(`${API.resourceContents(id)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { signal });
        entries.push(...page.entries);
        cursor = page.nextCursor;
      } while (cursor);
      return entries;
    },
    enabled,
    staleTime: 5 * 60_000,
  });
