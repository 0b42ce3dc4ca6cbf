import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import { api } from '@/lib/api';
import { invalidateAnnouncementViews } from './invalidate';

export const deleteAnnouncement = (id: number) => api<{ ok: true }>(API.adminAnnouncement(id), { method: 'DELETE' });

export function useDeleteAnnouncement() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteAnnouncement, onSuccess: () => invalidateAnnouncementViews(client) });
}
