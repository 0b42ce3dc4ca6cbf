import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import { CONTENTS_PAGE_SIZE, contentsPageSchema, contentsQuerySchema } from '../../../contract/contents';
import { errorBodySchema } from '../../../contract/errors';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { isPublicSql } from '../resources/visibility';
import { contentsSummary, listingExtensions } from './answers';
import { listingJobs, queueUnlisted } from './listings';

/**
 * What is inside a public resource's hosted download (contract/contents.ts), a page at a time,
 * and the `files.list` job that reads it (listings.ts). A resource that is not public, or whose
 * download is a link or not read yet, is 404 here.
 */
export const listingsModule: Module = (app, { config, database, files, jobs }) => {
  const db = database.db;
  jobs.register(...listingJobs(database, files));
  // Downloads hosted before migration 035 (or whose job was lost) are listed after the start.
  if (config.mediaJobsConcurrency > 0) app.addHook('onReady', async () => queueUnlisted(database));

  app.get(
    API.resourceContents(':id'),
    {
      config: { publicCache: true },
      schema: {
        tags: ['resources'],
        summary: 'The files inside a resource’s ZIP download, in the archive’s order, a page at a time',
        params: idParamsSchema,
        querystring: contentsQuerySchema,
        response: { 200: contentsPageSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async function resourceContentsHandler(request) {
      const file = await db
        .selectFrom('resources')
        .innerJoin('files', 'files.id', 'resources.download_file_id')
        .selectAll('files')
        .where('resources.id', '=', request.params.id)
        .where(isPublicSql())
        .executeTakeFirst();
      const summary = contentsSummary(file);
      if (!file || !summary) throw notFound('Nothing is listed for this resource');
      const from = request.query.cursor === undefined ? 0 : Number(request.query.cursor);
      const rows = await db
        .selectFrom('file_entries')
        .select(['position', 'path', 'size'])
        .where('file_id', '=', Number(file.id))
        .where('position', '>=', from)
        .orderBy('position')
        .limit(CONTENTS_PAGE_SIZE + 1)
        .execute();
      const page = rows.slice(0, CONTENTS_PAGE_SIZE);
      return {
        ...summary,
        extensions: listingExtensions(file),
        entries: page.map((r) => ({ path: r.path, size: Number(r.size) })),
        nextCursor: rows.length > CONTENTS_PAGE_SIZE ? String(Number(rows[CONTENTS_PAGE_SIZE]!.position)) : null,
      };
    },
  );
};
