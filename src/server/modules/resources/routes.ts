import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import { errorBodySchema } from '../../../contract/errors';
import {
  premiumListSchema,
  publicResourceSchema,
  relatedListSchema,
  resourceListQuerySchema,
  resourceListSchema,
} from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { decodeCursor, encodeCursor } from './cursor';
import { loadFiles } from '../files/stored';
import { fileIds, tagKeys, toPublicResource } from './mappers';
import { getPublicResource, listByCategoryNewest, listRelated } from './queries';
import { resourceSearch } from './search';

/** Related resources on a resource's page. */
export const RELATED_LIMIT = 6;

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

const errors = { 400: errorBodySchema, 404: errorBodySchema };

export const resourcesModule: Module = async (app, ctx) => {
  const { database } = ctx;
  const db = database.db;
  const search = resourceSearch(database);

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
    async function listResourcesHandler(request) {
      const { category, q, tags, sort, limit, cursor, app, format, orientation, min_height, duration_min, duration_max } = request.query;
      const after = cursor ? decodeCursor(sort, cursor) : undefined;
      const filters = { category, q, tags, facts: { app, format, orientation, minHeight: min_height, durationMin: duration_min, durationMax: duration_max } };
      const dataVersion = request.publicCacheVersion;
      const options = { filters, sort, limit, after, dataVersion };
      const { rows, hasMore, continueAfter, total, totalExact, facets } = request.query.facets ? await search.listWithFacets(options) : { ...(await search.list(options)), facets: undefined };
      const files = await loadFiles(db, fileIds(rows));
      const items = rows.map((row) => toPublicResource(row, files));
      // A bounded search (1–2 character q, common fact filters) may stop before a page is full: it continues after the last row it read.
      const last = continueAfter ?? items.at(-1);
      return { items, total, totalExact, nextCursor: hasMore && last ? encodeCursor(sort, last) : null, ...(facets ? { facets } : {}) };
    },
  );

  app.get(
    API.premium,
    { config: { publicCache: true }, schema: { tags: ['resources'], summary: 'Premium resources, newest first', response: { 200: premiumListSchema } } },
    async function listPremiumHandler() {
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
    async function getResourceHandler(request) {
      const row = await getPublicResource(db, request.params.id);
      if (!row) throw notFound('Resource not found');
      return toPublicResource(row, await loadFiles(db, fileIds([row])));
    },
  );

  app.get(
    API.related(':id'),
    {
      config: { publicCache: true },
      schema: {
        tags: ['resources'],
        summary: 'Resources related to one: same category, most shared tags first',
        params: idParamsSchema,
        response: { 200: relatedListSchema, ...errors },
      },
    },
    async function listRelatedHandler(request) {
      const row = await getPublicResource(db, request.params.id);
      if (!row) throw notFound('Resource not found');
      const resource = toPublicResource(row);
      const rows = await listRelated(database, { id: resource.id, category: resource.category, tagKeys: tagKeys(resource.tags) }, RELATED_LIMIT);
      const files = await loadFiles(db, fileIds(rows));
      return { items: rows.map((r) => toPublicResource(r, files)) };
    },
  );
};
