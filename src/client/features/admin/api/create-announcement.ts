import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Announcement, AnnouncementCreate } from '@contract/announcements';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { invalidateAnnouncementViews } from './invalidate';

/** New announcements start active; the author is whoever is signed in (the server decides). */
export const createAnnouncement = (body: AnnouncementCreate) =>
  api<Announcement>(API.adminAnnouncements, { method: 'POST', body });

export function useCreateAnnouncement() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createAnnouncement, onSuccess: () => invalidateAnnouncementViews(client) });
}
