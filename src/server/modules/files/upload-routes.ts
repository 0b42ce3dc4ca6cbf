import type { FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_ID_PATTERN, UPLOADS_PATH } from '../../../contract/files';
import type { App, AppContext } from '../../context';
import { notFound } from '../../errors';
import { streamBodies } from '../../request-limits';
import { StorageFullError } from '../../storage/file-store';
import { nowIso } from '../../time';
import { signedInAdmin } from '../auth/guard';
import { checkChunk, checkCreation, checkTusHeaders, TUS_CONTENT_TYPE } from './upload-headers';
import { handOver, type Uploads } from './uploads';

/** Kept free on the local disk beyond an upload's length: the database and logs need room too. */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;

/**
 * The upload routes at UPLOADS_PATH: creation (POST, and tus's OPTIONS), and HEAD/PATCH/DELETE on
 * one upload to resume, continue and cancel it. Each checks the request, then hands it to tus
 * (uploads.ts).
 */
export function registerUploadRoutes(app: App, ctx: AppContext, uploads: Uploads) {
  const { database, config } = ctx;
  const routeConfig = { access: 'admin' as const, requestTimeoutMs: config.timeouts.uploadRequestMs };

  /** 507 before any byte is sent when the store cannot hold `bytes` (and a reserve). */
  async function checkRoom(bytes: number) {
    const free = await ctx.files.freeBytes();
    if (free !== undefined && free < bytes + DISK_RESERVE_BYTES) throw new StorageFullError();
  }

  async function createUpload(request: FastifyRequest, reply: FastifyReply) {
    if (request.method === 'POST') {
      checkTusHeaders(request);
      const c = checkCreation(request, config.uploadMaxBytes);
      checkChunk(request);
      await checkRoom(c.size);
      await database.db
        .insertInto('uploads')
        .values({ id: c.id, purpose: c.purpose, name: c.name, type_hint: c.typeHint, size: c.size, sha256: null, admin_id: signedInAdmin(request).id, created_at: nowIso(), finished_at: null })
        .execute();
      uploads.creating.set(request.raw, c.id);
    }
    await handOver(uploads, request, reply);
  }

  async function continueUpload(request: FastifyRequest, reply: FastifyReply) {
    const { id } = request.params as { id: string };
    checkTusHeaders(request);
    const row = UPLOAD_ID_PATTERN.test(id) ? await database.db.selectFrom('uploads').select(['id']).where('id', '=', id).executeTakeFirst() : undefined;
    if (!row) throw notFound('No such upload (finished and attached, cancelled or expired)');
    if (request.method === 'PATCH') checkChunk(request);
    // A cancelled upload's row goes before the client hears 204 (its bytes are gone by then).
    await handOver(uploads, request, reply, async (status) => {
      if (request.method === 'DELETE' && status === 204) await database.db.deleteFrom('uploads').where('id', '=', id).execute();
    });
  }

  return app.register(async (scope) => {
    // Bodies go to tus as streams, never buffered by Fastify.
    streamBodies(scope as App, [TUS_CONTENT_TYPE]);
    scope.route({ method: ['POST', 'OPTIONS'], url: UPLOADS_PATH, config: routeConfig, schema: { hide: true }, handler: createUpload });
    scope.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${UPLOADS_PATH}/:id`, config: routeConfig, schema: { hide: true }, handler: continueUpload });
  });
}
