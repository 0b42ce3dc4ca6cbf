import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import { errorBodySchema } from '../../../contract/errors';
import { resourceSchema } from '../../../contract/resources';
import { trashListQuerySchema, trashListSchema } from '../../../contract/trash';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { auditActor } from '../audit/record';
import { getResourceForAdmin } from './admin-queries';
import { decodeTrashCursor } from './cursor';
import { startTrashPurger } from './purger';
import { purgeResource, restoreResource, trashPage } from './trash';

const docs = { tags: ['admin trash'], security: [{ session: [] }] };

/**
 * The trash (docs/decisions/398-the-trash-is-a-status.md): what admins deleted, restorable until it
 * is purged TRASH_DAYS later (every instance's purger, 399) or at once by a super admin.
 */
export const trashModule: Module = (app, ctx) => {
  const { database, config } = ctx;
  startTrashPurger(app, ctx);

  app.get(
    API.adminTrash,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Deleted resources, most recently deleted first, with when each is purged; keyset-paginated',
        querystring: trashListQuerySchema,
        response: { 200: trashListSchema, 400: errorBodySchema },
      },
    },
    async function listTrashHandler(request, reply) {
      const { limit, cursor } = request.query;
      reply.header('cache-control', 'no-store');
      return trashPage(database, { limit, after: cursor ? decodeTrashCursor(cursor) : undefined, trashDays: config.trashDays });
    },
  );

  app.post(
    API.adminTrashRestore(':id'),
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Bring a deleted resource back as it was (status, counts, files, preview, page address); answers the resource',
        params: idParamsSchema,
        response: { 200: resourceSchema, 404: errorBodySchema },
      },
    },
    async function restoreFromTrashHandler(request) {
      const { id } = request.params;
      if (!(await restoreResource(database, id, auditActor(request)))) throw notFound('Resource not found in the trash');
      const resource = await getResourceForAdmin(database, id);
      if (!resource) throw notFound('Resource not found'); // deleted again the moment after
      return resource;
    },
  );

  app.delete(
    API.adminTrashItem(':id'),
    {
      config: { access: 'super' },
      schema: {
        ...docs,
        summary: 'Delete a resource in the trash for good (super admins): its row, tags, media and files go',
        params: idParamsSchema,
        response: { 200: okSchema, 404: errorBodySchema },
      },
    },
    async function purgeFromTrashHandler(request) {
      if (!(await purgeResource(database, request.params.id, auditActor(request)))) throw notFound('Resource not found in the trash');
      return { ok: true as const };
    },
  );
};
