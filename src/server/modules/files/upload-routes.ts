import type { FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_ID_PATTERN, UPLOADS_PATH } from '../../../contract/files';
import type { App, AppContext } from '../../context';
import { notFound } from '../../errors';
import { streamBodies } from '../../request-limits';
import { nowIso } from '../../time';
import { signedInAdmin } from '../auth/guard';
import { auditActor, recordAudit } from '../audit/record';
import { checkChunk, checkCreation, checkTusHeaders, TUS_CONTENT_TYPE } from './upload-headers';
import { checkUploadRoom } from './upload-room';
import { handOver, type Uploads } from './uploads';

/**
 * The upload routes at UPLOADS_PATH: creation (POST, and tus's OPTIONS), and HEAD/PATCH/DELETE on
 * one upload to resume, continue and cancel it. Each checks the request, then hands it to tus
 * (uploads.ts).
 */
export function registerUploadRoutes(app: App, ctx: AppContext, uploads: Uploads) {
  const { database, config } = ctx;
  const routeConfig = { access: 'admin' as const, requestTimeoutMs: config.timeouts.uploadRequestMs };

  async function createUpload(request: FastifyRequest, reply: FastifyReply) {
    if (request.method === 'POST') {
      checkTusHeaders(request);
      const c = checkCreation(request, config.uploadMaxBytes);
      checkChunk(request);
      const adminId = signedInAdmin(request).id;
      await database.db
        .insertInto('uploads')
        .values({ id: c.id, purpose: c.purpose, name: c.name, type_hint: c.typeHint, size: c.size, sha256: null, admin_id: adminId, created_at: nowIso(), finished_at: null })
        .execute();
      try {
        await checkUploadRoom(ctx, c.id, adminId);
      } catch (err) {
        // Refused before any byte: the row goes (if this fails too, the sweep removes it on expiry).
        await database.db.deleteFrom('uploads').where('id', '=', c.id).execute().catch(() => undefined);
        throw err;
      }
      // Recorded once the upload is accepted: the room check counts the row, so it is committed
      // before (decision 420). A file is its name and size.
      await database.db.transaction().execute((trx) =>
        recordAudit(trx, auditActor(request), { action: 'upload.create', target: { type: 'upload', id: c.id }, changes: { after: { name: c.name, size: c.size, purpose: c.purpose } } }),
      );
      uploads.creating.set(request.raw, c.id);
    }
    await handOver(uploads, request, reply);
  }

  async function continueUpload(request: FastifyRequest, reply: FastifyReply) {
    const { id } = request.params as { id: string };
    checkTusHeaders(request);
    // Another admin's upload is answered as one that does not exist (docs/decisions/321-an-upload-belongs-to-its-admin.md).
    const row = UPLOAD_ID_PATTERN.test(id)
      ? await database.db.selectFrom('uploads').select(['id', 'name', 'size']).where('id', '=', id).where('admin_id', '=', signedInAdmin(request).id).executeTakeFirst()
      : undefined;
    if (!row) throw notFound('No such upload (finished and attached, cancelled or expired)');
    if (request.method === 'PATCH') checkChunk(request);
    // A cancelled upload's row goes before the client hears 204 (its bytes are gone by then).
    await handOver(uploads, request, reply, async (status) => {
      if (request.method !== 'DELETE' || status !== 204) return;
      await database.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('uploads').where('id', '=', id).execute();
        await recordAudit(trx, auditActor(request), { action: 'upload.cancel', target: { type: 'upload', id }, changes: { before: { name: row.name, size: Number(row.size) } } });
      });
    });
  }

  return app.register(async (scope) => {
    // Bodies go to tus as streams, never buffered by Fastify.
    streamBodies(scope as App, [TUS_CONTENT_TYPE]);
    scope.route({ method: ['POST', 'OPTIONS'], url: UPLOADS_PATH, config: routeConfig, schema: { hide: true }, handler: createUpload });
    scope.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${UPLOADS_PATH}/:id`, config: routeConfig, schema: { hide: true }, handler: continueUpload });
  });
}
