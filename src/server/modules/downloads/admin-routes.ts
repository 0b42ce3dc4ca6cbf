import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { CATEGORY_VALUES, type CategoryValue } from '../../../contract/categories';
import { idParamsSchema } from '../../../contract/common';
import { downloadRangeQuerySchema, downloadStatsSchema, resourceDownloadStatsSchema } from '../../../contract/downloads';
import { errorBodySchema } from '../../../contract/errors';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { attachmentDisposition } from '../../storage/send';
import { dashboardDays } from '../dashboard/queries';
import { downloadsByCategory, downloadsPerDay, resourceDownloads } from './queries';

const errors = { 400: errorBodySchema, 404: errorBodySchema };
const admin = { config: { access: 'admin' as const } };

/** The admin's download statistics: all downloads by day and category, and one resource's (also as CSV). */
export const downloadStatsModule: Module = (app, { config, database }) => {
  const { db } = database;

  app.get(
    API.adminDownloads,
    {
      ...admin,
      schema: {
        tags: ['dashboard'],
        summary: 'Downloads per day and by category over 7, 30, 90 or 365 days',
        security: [{ session: [] }],
        querystring: downloadRangeQuerySchema,
        response: { 200: downloadStatsSchema, ...errors },
      },
    },
    async function downloadStatsHandler(request) {
      const days = dashboardDays(new Date(), request.query.days);
      const [perDay, byCategory] = await Promise.all([downloadsPerDay(db, days), downloadsByCategory(db, days)]);
      return {
        days: perDay,
        total: perDay.reduce((s, d) => s + d.count, 0),
        categories: CATEGORY_VALUES.map((category) => ({ category, count: byCategory.get(category) ?? 0 })),
      };
    },
  );

  const statsOf = async (id: number, range: number) => {
    const stats = await resourceDownloads(db, id, dashboardDays(new Date(), range));
    if (!stats) throw notFound('Resource not found');
    return stats;
  };

  app.get(
    API.adminResourceDownloads(':id'),
    {
      ...admin,
      schema: {
        tags: ['resources'],
        summary: "One resource's downloads: per day over a range, all-time total, rank in its category",
        security: [{ session: [] }],
        params: idParamsSchema,
        querystring: downloadRangeQuerySchema,
        response: { 200: resourceDownloadStatsSchema, ...errors },
      },
    },
    async function resourceDownloadStatsHandler(request) {
      const { categorySize, ...s } = await statsOf(request.params.id, request.query.days);
      return {
        ...s,
        category: s.category as CategoryValue,
        category_size: categorySize,
        range_total: s.days.reduce((sum, d) => sum + d.count, 0),
        counting: config.downloads.counting,
      };
    },
  );

  app.get(
    API.adminResourceDownloadsCsv(':id'),
    {
      ...admin,
      schema: {
        tags: ['resources'],
        summary: "One resource's downloads per day over a range, as CSV (day,downloads)",
        security: [{ session: [] }],
        params: idParamsSchema,
        querystring: downloadRangeQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('day,downloads lines (CRLF), oldest first'), ...errors },
      },
    },
    async function resourceDownloadsCsvHandler(request, reply) {
      const s = await statsOf(request.params.id, request.query.days);
      const first = s.days[0].day;
      const last = s.days[s.days.length - 1].day;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`resource-${s.id}-downloads-${first}-to-${last}.csv`))
        .send(`day,downloads\r\n${s.days.map((d) => `${d.day},${d.count}\r\n`).join('')}`);
    },
  );
};
