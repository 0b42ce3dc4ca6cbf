import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { DownloadRange, DownloadStats, ResourceDownloadStats } from '@contract/downloads';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Every download per day and by category over a range (the dashboard's chart). */
export const downloadStatsQueryOptions = (days: DownloadRange) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'downloads', days],
    queryFn: ({ signal }) => api<DownloadStats>(`${API.adminDownloads}?days=${days}`, { signal }),
    // Switching the range keeps the chart on screen until the new numbers arrive.
    placeholderData: keepPreviousData,
  });

export const useDownloadStats = (days: DownloadRange) => useQuery(downloadStatsQueryOptions(days));

/** One resource's downloads over a range, its total and rank. */
export const resourceDownloadsQueryOptions = (id: number, days: DownloadRange) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'downloads', 'resource', id, days],
    queryFn: ({ signal }) => api<ResourceDownloadStats>(`${API.adminResourceDownloads(id)}?days=${days}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const useResourceDownloads = (id: number, days: DownloadRange) => useQuery(resourceDownloadsQueryOptions(id, days));

/** Where the per-day counts of a resource are downloaded as CSV. */
export const resourceDownloadsCsvUrl = (id: number, days: DownloadRange) => `${API.adminResourceDownloadsCsv(id)}?days=${days}`;
