import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import { errorBodySchema } from '../../../contract/errors';
import {
  downloadResponseSchema,
  premiumListSchema,
  publicResourceSchema,
  resourceListQuerySchema,
  resourceListSchema,
} from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { dayOf } from '../../time';
import { decodeCursor, encodeCursor } from './cursor';
import { fileIds, toPublicResource } from './mappers';
import { loadFiles } from '../files/stored';
import { hostedDownloadUrl } from '../files/routes';
import { createDownloadRecorder } from './downloads';
import { getPublicResource, listByCategoryNewest } from './queries';
import { resourceSearch } from './search';

/** The premium carousel shows a handful; this only bounds the response. */
export const PREMIUM_LIST_LIMIT = 50;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001F\u007F]/;

/** PostgreSQL refuses NUL in text (a 500 otherwise), and a search box never sends control characters. */
const listQuerySchema = resourceListQuerySchema.extend({
  q: resourceListQuerySchema.shape.q.refine((v) => v === undefined || !CONTROL_CHARS.test(v), {
    error: 'q contains control characters',
  }),
});

/** Clients POST without a body; `{}` is accepted too, anything else is a mistake worth reporting. */
const downloadBodySchema = z.strictObject({}, { error: 'This request takes no body' }).nullish();

const errors = { 400: errorBodySchema, 404: errorBodySchema };

export const resourcesModule: Module = async (app, ctx) => {
  const { database } = ctx;
  const db = database.db;
  const search = resourceSearch(database);
  const recordDownload = createDownloadRecorder(database, () => dayOf());

  app.get(
    API.resources,
    {
      config: { publicCache: true },
      schema: {
        tags: ['resources'],
        summary: 'List resources: filter by category, text and tags; keyset-paginated',
        querystring: listQuerySchema,
        response: { 200: resourceListSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const { category, q, tags, sort, limit, cursor } = request.query;
      const after = cursor ? decodeCursor(sort, cursor) : undefined;
      const { rows, hasMore, continueAfter, total, totalExact } = await search.list({
        filters: { category, q, tags },
        sort,
        limit,
        after,
        dataVersion: request.publicCacheVersion,
      });
      const files = await loadFiles(db, fileIds(rows));
      const items = rows.map((row) => toPublicResource(row, files));
      // A bounded search (1–2 character q) may stop before a page is full: it continues after the last row it read.
      const last = continueAfter ?? items.at(-1);
      return { items, total, totalExact, nextCursor: hasMore && last ? encodeCursor(sort, last) : null };
    },
  );

  app.get(
    API.premium,
    { config: { publicCache: true }, schema: { tags: ['resources'], summary: 'Premium resources, newest first', response: { 200: premiumListSchema } } },
    async () => {
      const rows = await listByCategoryNewest(db, 'premium_resources', PREMIUM_LIST_LIMIT);
      const files = await loadFiles(db, fileIds(rows));
      return { items: rows.map((row) => toPublicResource(row, files)) };
    },
  );

  app.get(
    API.resource(':id'),
    {
      config: { publicCache: true },
      schema: {
        tags: ['resources'],
        summary: 'One resource',
        params: idParamsSchema,
        response: { 200: publicResourceSchema, ...errors },
      },
    },
    async (request) => {
      const row = await getPublicResource(db, request.params.id);
      if (!row) throw notFound('Resource not found');
      return toPublicResource(row, await loadFiles(db, fileIds([row])));
    },
  );

  await app.register(async (scope: FastifyInstance) => {
    acceptEmptyJsonBody(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      API.download(':id'),
      {
        schema: {
          tags: ['resources'],
          summary: 'Record a download and get the download URL',
          params: idParamsSchema,
          body: downloadBodySchema,
          response: { 200: downloadResponseSchema, ...errors },
        },
      },
      async (request) => {
        const result = await recordDownload(request.params.id);
        if (!result) throw notFound('Resource not found');
        if (result.download_url !== '') return result;
        // A hosted file: a link valid for a few minutes.
        const url = await hostedDownloadUrl(ctx, request, request.params.id);
        if (!url) throw notFound('Resource not found');
        return { ...result, download_url: url };
      },
    );
  });
};

/**
 * Fastify refuses an empty body sent as application/json; browsers and fetch wrappers often
 * send exactly that for a bodiless POST. Only this scope reads it as "no body"; anything
 * else still goes through Fastify's own safe parser.
 */
function acceptEmptyJsonBody(scope: FastifyInstance) {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
