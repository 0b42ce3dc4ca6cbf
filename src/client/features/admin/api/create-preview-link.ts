import { useMutation } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { PreviewLink, Resource } from '@contract/resources';
import { api } from '@/lib/api';

/** A signed, short-lived link to a draft's or scheduled resource's page (docs/decisions/392-preview-links.md). */
export const createPreviewLink = ({ id }: Pick<Resource, 'id'>) => api<PreviewLink>(API.adminResourcePreviewLink(id), { method: 'POST' });

export function useCreatePreviewLink() {
  return useMutation({ mutationFn: createPreviewLink });
}
