import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import {
  adminResourceListQuerySchema,
  adminResourceListSchema,
  resourceInputSchema,
  previewLinkSchema,
  resourcePatchSchema,
  resourceSchema,
} from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { retryResourcePreview } from '../media/resource-previews';
import { ERROR_CODES, errorBodySchema } from '../../../contract/errors';
import { fileServices } from '../files/services';
import { signedInAdmin } from '../auth/guard';
import { auditActor } from '../audit/record';
import { getResourceForAdmin, listResourcesForAdmin } from './admin-queries';
import { decodeAdminCursor } from './cursor';
import { deleteResource, saveResource } from './save';
import { createPreviewLink } from './preview-links';
import { startPublisher } from './publisher';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };
const one = `${API.adminResources}/:id`;

export const adminResourcesModule: Module = (app, ctx) => {
  const { database } = ctx;
  const { uploads } = fileServices(ctx);
  startPublisher(app, ctx);
  app.get(
    API.adminResources,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'One page of resources (any status), newest first, with download URLs: filter by category, status, text (q) or id; keyset-paginated',
        querystring: adminResourceListQuerySchema,
        response: { 200: adminResourceListSchema, 400: errorBodySchema },
      },
    },
    async function listResourcesHandler(request) {
      const { category, q, id, status, links, limit, cursor } = request.query;
      return listResourcesForAdmin(database, {
        category,
        q,
        id,
        status,
        brokenLinks: links === 'broken',
        limit,
        cursor: cursor ? decodeAdminCursor(cursor) : undefined,
        dataVersion: await database.dataVersion({ fresh: true }), // an admin sees every write at once
      });
    },
  );

  app.post(
    API.adminResources,
    { config: { access: 'admin' }, schema: { ...docs, body: resourceInputSchema, response: { 201: resourceSchema } } },
    async function createResourceHandler(request, reply) {
      const created = await saveResource(ctx, uploads, { adminId: signedInAdmin(request).id, actor: auditActor(request), body: request.body });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    one,
    {
      config: { access: 'admin' },
      schema: { ...docs, params: idParamsSchema, body: resourcePatchSchema, response: { 200: resourceSchema } },
    },
    async function updateResourceHandler(request) {
      return saveResource(ctx, uploads, { id: request.params.id, adminId: signedInAdmin(request).id, actor: auditActor(request), body: request.body });
    },
  );

  app.post(
    API.adminResourcePreviewRetry(':id'),
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'Queue a failed preview again (fresh attempts); answers the resource with its preview queued',
        params: idParamsSchema,
        response: { 200: resourceSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async function retryPreviewHandler(request) {
      const { id } = request.params;
      // One in the trash is not retried (its page and media wait for a restore).
      if (!(await getResourceForAdmin(database, id))) throw notFound('Resource not found');
      const outcome = await retryResourcePreview(database, id, auditActor(request));
      if (outcome === 'no_resource') throw notFound('Resource not found');
      if (outcome === 'no_preview') throw notFound('This resource has no preview to retry');
      if (outcome === 'not_failed') throw new HttpError(409, ERROR_CODES.conflict, 'Only a failed preview can be retried');
      const resource = await getResourceForAdmin(database, id);
      if (!resource) throw notFound('Resource not found');
      return resource;
    },
  );

  app.post(
    API.adminResourcePreviewLink(':id'),
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: "A signed, short-lived link to the resource's page whatever its status (a draft's preview); the page is sent noindex",
        params: idParamsSchema,
        response: { 200: previewLinkSchema, 404: errorBodySchema },
      },
    },
    async function createPreviewLinkHandler(request, reply) {
      const resource = await getResourceForAdmin(database, request.params.id);
      if (!resource) throw notFound('Resource not found');
      reply.header('cache-control', 'no-store');
      return createPreviewLink(ctx, resource);
    },
  );

  app.delete(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async function deleteResourceHandler(request) {
      if (!(await deleteResource(database, request.params.id, auditActor(request)))) throw notFound('Resource not found');
      return { ok: true as const };
    },
  );
};
