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
import { HttpError } from '../../http-error';
import { attachPreviewSource, type PreparedPreviewSource, preparePreviewSource } from '../media/preview-sources';
import { retryResourcePreview } from '../media/resource-previews';
import type { CategoryValue } from '../../../contract/categories';
import { ERROR_CODES, errorBodySchema } from '../../../contract/errors';
import { afterAttach, attachPrepared, prepareUploads } from '../files/attach';
import { fileServices } from '../files/services';
import { signedInAdmin } from '../auth/guard';
import { createResource, deleteResource, getResourceForAdmin, listResourcesForAdmin, updateResource } from './admin-queries';
import { decodeAdminCursor } from './cursor';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };
const one = `${API.adminResources}/:id`;

export const adminResourcesModule: Module = (app, ctx) => {
  const { database } = ctx;
  const { uploads } = fileServices(ctx);
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
      const { thumbnail_url, download_url, thumbnail_upload_id, download_upload_id, preview_source, ...rest } = request.body;
      const prepared = await prepareUploads(ctx, uploads, { thumbnail_upload_id, download_upload_id }, signedInAdmin(request).id);
      const preview = await preparePreviewSource(ctx, uploads, preview_source, { category: rest.category, hasHostedDownload: download_upload_id !== undefined }, signedInAdmin(request).id);
      const input = { ...rest, thumbnail_url: thumbnail_url ?? '', download_url: download_url ?? '' };
      const created = await createResource(database, input, signedInAdmin(request).id, (trx) => attachPrepared(trx, prepared));
      await afterAttach(ctx, uploads, prepared);
      if (!preview) return reply.status(201).send(created);
      await attachPreviewSource(ctx, created.id, preview);
      return reply.status(201).send((await getResourceForAdmin(database, created.id)) ?? created);
    },
  );

  app.patch(
    one,
    {
      config: { access: 'admin' },
      schema: { ...docs, params: idParamsSchema, body: resourcePatchSchema, response: { 200: resourceSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      let preview: PreparedPreviewSource | undefined;
      if (body.preview_source) {
        const current = await database.db.selectFrom('resources').select(['category', 'download_file_id']).where('id', '=', id).executeTakeFirst();
        if (!current) throw notFound('Resource not found');
        const hasHostedDownload = body.download_upload_id !== undefined || (body.download_url === undefined && current.download_file_id !== null);
        preview = await preparePreviewSource(ctx, uploads, body.preview_source, { category: body.category ?? (current.category as CategoryValue), hasHostedDownload }, signedInAdmin(request).id);
      }
      const prepared = await prepareUploads(ctx, uploads, body, signedInAdmin(request).id);
      const updated = await updateResource(database, id, body, (trx) => attachPrepared(trx, prepared));
      if (!updated) throw notFound('Resource not found');
      await afterAttach(ctx, uploads, prepared);
      if (!preview) return updated;
      await attachPreviewSource(ctx, id, preview);
      return (await getResourceForAdmin(database, id)) ?? updated;
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
    async (request) => {
      const { id } = request.params;
      const outcome = await retryResourcePreview(database, id);
      if (outcome === 'no_resource') throw notFound('Resource not found');
      if (outcome === 'no_preview') throw notFound('This resource has no preview to retry');
      if (outcome === 'not_failed') throw new HttpError(409, ERROR_CODES.conflict, 'Only a failed preview can be retried');
      const resource = await getResourceForAdmin(database, id);
      if (!resource) throw notFound('Resource not found');
      return resource;
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
