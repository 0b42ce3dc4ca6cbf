import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Announcement, AnnouncementList, AnnouncementPatch } from '@contract/announcements';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { announcementsQueryOptions } from './get-announcements';
import { invalidateAnnouncementViews } from './invalidate';

export const updateAnnouncement = ({ id, patch }: { id: number; patch: AnnouncementPatch }) =>
  api<Announcement>(API.adminAnnouncement(id), { method: 'PATCH', body: patch });

export function useUpdateAnnouncement() {
  const client = useQueryClient();
  const key = announcementsQueryOptions().queryKey;
  return useMutation({
    mutationFn: updateAnnouncement,
    // The switch flips at once; a failure puts the list back as it was.
    onMutate: async ({ id, patch }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<AnnouncementList>(key);
      if (previous) {
        client.setQueryData<AnnouncementList>(key, {
          items: previous.items.map((a) => (a.id === id ? { ...a, ...patch } : a)),
        });
      }
      return { previous };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.previous) client.setQueryData(key, ctx.previous);
    },
    onSettled: () => invalidateAnnouncementViews(client),
  });
}
