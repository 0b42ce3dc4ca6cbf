import type { FastifyRequest } from 'fastify';
import { DOWNLOAD_LINK_TTL_SECONDS } from '../../../contract/files';
import type { AppContext } from '../../context';
import { linkUrl } from './links';
import { hostedDownloadOf } from './queries';
import { fileServices } from './services';

/**
 * The URL a visitor downloads resource `resourceId`'s hosted file from: the store's own presigned
 * URL (S3) or a signed link to this server; undefined when the resource has no hosted download.
 */
export async function hostedDownloadUrl(ctx: AppContext, request: FastifyRequest, resourceId: number): Promise<string | undefined> {
  const row = await hostedDownloadOf(ctx.database.db, resourceId);
  if (!row) return undefined;
  const direct = await ctx.files.downloadUrl(row.key, { fileName: row.name, contentType: row.content_type, expiresInSeconds: DOWNLOAD_LINK_TTL_SECONDS });
  return direct ?? linkUrl(request, ctx.config.publicUrl, (await fileServices(ctx).signer()).sign(Number(row.id)));
}
