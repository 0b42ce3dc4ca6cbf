import { z } from 'zod';
import { isCategoryValue } from '../../../contract/categories';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { getResourceCategory } from './queries';
import { renderThumbnail } from './svg';

/** Thumbnails barely change (only with the category), so browsers and proxies may keep them a day. */
const CACHE_CONTROL = 'public, max-age=86400';
const ID = /^[1-9]\d{0,9}$/;

export const thumbnailsModule: Module = (app, { database }) => {
  app.get(
    '/thumbnails/:id.svg',
    {
      schema: {
        tags: ['thumbnails'],
        summary: 'Generated SVG thumbnail of a resource',
        params: z.object({ id: z.string() }),
      },
    },
    async function generatedThumbnailHandler(request, reply) {
      // Anything that is not a resource id is simply not a thumbnail: 404, like a missing file.
      const raw = request.params.id;
      const id = ID.test(raw) ? Number(raw) : NaN;
      if (!(id <= 2_147_483_647)) throw notFound('Thumbnail not found');
      const category = await getResourceCategory(database.db, id);
      if (!category || !isCategoryValue(category)) throw notFound('Thumbnail not found');
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', CACHE_CONTROL)
        .send(renderThumbnail(id, category));
    },
  );
};
