import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DOWNLOAD_LINK_TTL_SECONDS, FILES_PATH } from '../../../contract/files';
import type { AppContext, Module } from '../../context';
import { notFound } from '../../errors';
import { sendStoredFile } from '../../storage/send';
import { linkUrl } from './links';
import { downloadFileById, hostedDownloadOf } from './queries';
import { fileServices } from './services';
import { SWEEP_EVERY_MS, sweepFiles } from './sweep';
import { registerUploadRoutes } from './uploads';

/** The first sweep after start: late enough not to slow the start, early enough to matter after a crash. */
const FIRST_SWEEP_MS = 60_000;

/**
 * Hosted files: tus uploads (uploads.ts), signed download links for hosted downloads, and the
 * sweep of what no row needs (sweep.ts), every hour on every instance.
 */
export const filesModule: Module = async (app, ctx) => {
  const { uploads, signer } = fileServices(ctx);
  await registerUploadRoutes(app, ctx, uploads);

  app.get(
    `${FILES_PATH}/:token`,
    {
      compress: false,
      schema: {
        tags: ['resources'],
        summary: 'A hosted download through a signed link from POST /api/resources/:id/download; byte ranges supported',
        params: z.object({ token: z.string().max(100) }),
      },
    },
    async function getHostedFileHandler(request, reply) {
      const fileId = (await signer()).verify(request.params.token);
      const row = await downloadFileById(ctx.database.db, fileId);
      if (!row) throw notFound('File not found');
      return sendStoredFile(request, reply, ctx.files, row.key, { contentType: row.content_type, cacheControl: 'private, no-store', attachmentName: row.name });
    },
  );

  const sweep = () =>
    sweepFiles(ctx, uploads)
      .then((r) => app.log.info(r, 'swept hosted files'))
      .catch((err: unknown) => app.log.warn({ err }, 'could not sweep hosted files'));
  const first = setTimeout(sweep, FIRST_SWEEP_MS);
  const every = setInterval(sweep, SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  app.addHook('onClose', (_app, done) => {
    clearTimeout(first);
    clearInterval(every);
    done();
  });
};

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
