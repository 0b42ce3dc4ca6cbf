import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import { errorBodySchema } from '../../../contract/errors';
import {
  adminResourceListQuerySchema,
  adminResourceListSchema,
  resourceInputSchema,
  resourcePatchSchema,
  resourceSchema,
} from '../../../contract/resources';
import type { Module } from '../../context';
import { badRequest, notFound } from '../../errors';
import { signedInAdmin } from '../auth/guard';
import { createResource, deleteResource, listResourcesForAdmin, updateResource } from './admin-queries';
import { decodeAdminCursor } from './cursor';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };
const one = `${API.adminResources}/:id`;

export const adminResourcesModule: Module = (app, { database }) => {
  app.get(
    API.adminResources,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: 'One page of resources, newest first, with download URLs: filter by category, text (q) or id; keyset-paginated',
        querystring: adminResourceListQuerySchema,
        response: { 200: adminResourceListSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const { category, q, id, limit, cursor } = request.query;
      return listResourcesForAdmin(database, {
        category,
        q,
        id,
        limit,
        cursor: cursor ? decodeAdminCursor(cursor) : undefined,
        dataVersion: await database.dataVersion({ fresh: true }), // an admin sees every write at once
      });
    },
  );

  app.post(
    API.adminResources,
    { config: { access: 'admin' }, schema: { ...docs, body: resourceInputSchema, response: { 201: resourceSchema } } },
    async (request, reply) => {
      const { thumbnail_url, download_url, ...rest } = request.body;
      // Hosted files are attached in a following step (issue #14); until then a link is required.
      if (thumbnail_url === undefined || download_url === undefined) throw badRequest('Uploads cannot be attached yet');
      const created = await createResource(database, { ...rest, thumbnail_url, download_url }, signedInAdmin(request).id);
      return reply.status(201).send(created);
    },
  );

  app.patch(
    one,
    {
      config: { access: 'admin' },
      schema: { ...docs, params: idParamsSchema, body: resourcePatchSchema, response: { 200: resourceSchema } },
    },
    async (request) => {
      const updated = await updateResource(database, request.params.id, request.body);
      if (!updated) throw notFound('Resource not found');
      return updated;
    },
  );

  app.delete(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      if (!(await deleteResource(database, request.params.id))) throw notFound('Resource not found');
      return { ok: true as const };
    },
  );
};
