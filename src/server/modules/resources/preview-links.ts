import { PREVIEW_LINK_TTL_SECONDS, PREVIEW_PARAM, type PreviewLink, type PublicResource } from '../../../contract/resources';
import { resourcePath } from '../../../contract/resource-page';
import type { AppContext } from '../../context';
import { fileServices } from '../files/services';
import type { LinkKind } from '../files/links';
import { loadFiles } from '../files/stored';
import { fileIds, toPublicResource } from './mappers';
import { getResourceForPreview } from './queries';

/**
 * An admin's preview of a resource the public cannot see (docs/decisions/392-preview-links.md):
 * its page with `?preview=<id>.<expiry>.<HMAC>`, signed like hosted download links (files/links.ts)
 * with a key of its own, valid PREVIEW_LINK_TTL_SECONDS. Whoever holds the link sees the page
 * until it expires (to share a draft with a colleague); it is never indexed nor cached.
 */
const PREVIEW_LINKS: LinkKind = { purpose: 'resource-preview-links', ttlSeconds: PREVIEW_LINK_TTL_SECONDS };

export async function createPreviewLink(ctx: AppContext, resource: { id: number; title: string }, nowMs = Date.now()): Promise<PreviewLink> {
  const token = (await fileServices(ctx).signerFor(PREVIEW_LINKS)).sign(resource.id, nowMs);
  const expires = Math.floor(nowMs / 1000) + PREVIEW_LINK_TTL_SECONDS;
  return { url: `${resourcePath(resource)}?${PREVIEW_PARAM}=${token}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** The resource as its page shows it, when `token` is a valid preview link to `id`; undefined otherwise. */
export async function resourceForPreview(ctx: AppContext, id: number, token: string): Promise<PublicResource | undefined> {
  let signedId: number;
  try {
    signedId = (await fileServices(ctx).signerFor(PREVIEW_LINKS)).verify(token);
  } catch {
    return undefined;
  }
  if (signedId !== id) return undefined;
  const row = await getResourceForPreview(ctx.database.db, id);
  return row && toPublicResource(row, await loadFiles(ctx.database.db, fileIds([row])));
}
