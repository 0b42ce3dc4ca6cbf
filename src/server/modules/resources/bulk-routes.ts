import { API } from '../../../contract/api-paths';
import { adminResourceIdsQuerySchema, adminResourceIdsSchema, BULK_MAX, bulkRequestSchema, bulkResponseSchema } from '../../../contract/bulk';
import { errorBodySchema } from '../../../contract/errors';
import type { Module } from '../../context';
import { auditActor } from '../audit/record';
import { applyBulkAction } from './bulk';
import { matchingIdsForAdmin } from './bulk-queries';

const docs = { tags: ['admin resources'], security: [{ session: [] }] };

/** Bulk actions on the admin list and the ids behind its "Select all N matching" (decision 401). */
export const adminBulkModule: Module = (app, { database }) => {
  app.post(
    API.adminResourcesBulk,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: `One action on up to ${BULK_MAX} resources: publish, unpublish (to draft), trash, move (category), add_tags / remove_tags (tags), premium, not_premium. Each id is done or left unchanged on its own; the answer has a result per id`,
        body: bulkRequestSchema,
        response: { 200: bulkResponseSchema, 400: errorBodySchema },
      },
    },
    async function bulkActionHandler(request) {
      const results = await applyBulkAction(database, request.body, request.log, auditActor(request));
      const succeeded = results.filter((r) => r.ok).length;
      return { results, succeeded, failed: results.length - succeeded };
    },
  );

  app.get(
    API.adminResourceIds,
    {
      config: { access: 'admin' },
      schema: {
        ...docs,
        summary: `The ids of the resources the admin list's filters match (category, q, status), newest first, at most ${BULK_MAX}, with how many match`,
        querystring: adminResourceIdsQuerySchema,
        response: { 200: adminResourceIdsSchema, 400: errorBodySchema },
      },
    },
    async function matchingIdsHandler(request, reply) {
      reply.header('cache-control', 'no-store');
      return matchingIdsForAdmin(database, request.query, BULK_MAX);
    },
  );
};
