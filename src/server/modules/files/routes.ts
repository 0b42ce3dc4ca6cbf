import { z } from 'zod';
import { FILES_PATH } from '../../../contract/files';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { sendStoredFile } from '../../storage/send';
import { LinkRefused, prefersHtml, refusedLinkPage } from './links';
import { downloadFileById } from './queries';
import { fileServices } from './services';
import { SWEEP_EVERY_MS, sweepFiles } from './sweep';
import { registerUploadRoutes } from './upload-routes';

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
      let fileId: number;
      try {
        fileId = (await signer()).verify(request.params.token);
      } catch (err) {
        // A person who opened the link gets the site's page saying so; an API client the JSON error.
        if (err instanceof LinkRefused && prefersHtml(request.headers.accept)) return reply.header('cache-control', 'no-store').redirect(await refusedLinkPage(ctx.database.db, err), 303);
        throw err;
      }
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
