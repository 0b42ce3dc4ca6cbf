import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import {
  adminResourceListQuerySchema,
  adminResourceListSchema,
  resourceInputSchema,
  resourcePatchSchema,
  resourceSchema,
} from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { signedInAdmin } from '../auth/guard';
import { createResource, deleteResource, listResourcesForAdmin, updateResource } from './admin-queries';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };
const one = `${API.adminResources}/:id`;

export const adminResourcesModule: Module = (app, { database }) => {
  const { db } = database;

  app.get(
    API.adminResources,
    {
      config: { access: 'admin' },
      schema: { ...docs, querystring: adminResourceListQuerySchema, response: { 200: adminResourceListSchema } },
    },
    async (request) => ({ items: await listResourcesForAdmin(db, request.query.category) }),
  );

  app.post(
    API.adminResources,
    { config: { access: 'admin' }, schema: { ...docs, body: resourceInputSchema, response: { 201: resourceSchema } } },
    async (request, reply) => {
      const created = await createResource(db, request.body, signedInAdmin(request).id);
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
      const updated = await updateResource(db, request.params.id, request.body);
      if (!updated) throw notFound('Resource not found');
      return updated;
    },
  );

  app.delete(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      if (!(await deleteResource(db, request.params.id))) throw notFound('Resource not found');
      return { ok: true as const };
    },
  );
};
