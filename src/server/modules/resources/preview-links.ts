import { PREVIEW_LINK_TTL_SECONDS, PREVIEW_PARAM, type PreviewLink } from '../../../contract/resources';
import { resourcePath } from '../../../contract/resource-page';
import type { AppContext } from '../../context';
import { fileServices } from '../files/services';
import type { LinkKind } from '../files/links';

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

/** The id of the resource a valid preview token opens; undefined for a token that is tampered, expired or none. */
export async function previewTokenResource(ctx: AppContext, token: string | undefined): Promise<number | undefined> {
  if (!token) return undefined;
  try {
    return (await fileServices(ctx).signerFor(PREVIEW_LINKS)).verify(token);
  } catch {
    return undefined;
  }
}

/** This site's media a resource names: derived files (/media/<hash>.<ext>), its font's specimen and its generated thumbnail. */
const SITE_MEDIA = /\/(?:media\/[0-9a-f]{32}\.[a-z0-9]+|media\/specimens\/\d+\/[0-9a-f]{32}\.svg|thumbnails\/\d+\.svg)(?=$|[\s,])/g;

/** Every site media URL inside `value` (strings, srcsets, nested objects) carrying the preview token. */
export function withPreviewToken<T>(value: T, token: string): T {
  if (typeof value === 'string') return value.replace(SITE_MEDIA, (url) => `${url}?${PREVIEW_PARAM}=${token}`) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withPreviewToken(v, token)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPreviewToken(v, token)])) as T;
  }
  return value;
}
