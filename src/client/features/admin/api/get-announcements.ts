import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AnnouncementList } from '@contract/announcements';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** Every announcement, active or not, newest first. */
export const getAnnouncements = (signal?: AbortSignal) => api<AnnouncementList>(API.adminAnnouncements, { signal });

export const announcementsQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'announcements'], queryFn: ({ signal }) => getAnnouncements(signal) });

export const useAnnouncements = (enabled = true) => useQuery({ ...announcementsQueryOptions(), enabled });
