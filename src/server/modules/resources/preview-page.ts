import type { PublicResource } from '../../../contract/resources';
import type { AppContext } from '../../context';
import { loadFiles } from '../files/stored';
import { fileIds, toPublicResource } from './mappers';
import { previewTokenResource, withPreviewToken } from './preview-links';
import { getResourceForPreview } from './queries';

/**
 * The resource as its page shows it, when `token` is a valid preview link to `id`; undefined
 * otherwise. Its thumbnail and preview media carry the token, so the page shows them as the
 * published page will (media/routes.ts and thumbnails/routes.ts serve them to it, never cached).
 */
export async function resourceForPreview(ctx: AppContext, id: number, token: string): Promise<PublicResource | undefined> {
  if ((await previewTokenResource(ctx, token)) !== id) return undefined;
  const row = await getResourceForPreview(ctx.database.db, id);
  if (!row) return undefined;
  const resource = toPublicResource(row, await loadFiles(ctx.database.db, fileIds([row])));
  return {
    ...resource,
    thumbnail_url: withPreviewToken(resource.thumbnail_url, token),
    thumbnail: withPreviewToken(resource.thumbnail, token),
    preview: withPreviewToken(resource.preview, token),
  };
}
