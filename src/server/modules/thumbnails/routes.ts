import { z } from 'zod';
import { isCategoryValue } from '../../../contract/categories';
import { PREVIEW_PARAM, previewTokenQuerySchema } from '../../../contract/resources';
import { previewTokenResource } from '../resources/preview-links';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { getResourceCategory } from './queries';
import { renderThumbnail } from './svg';

/** Thumbnails barely change (only with the category), so browsers and proxies may keep them a day. */
const CACHE_CONTROL = 'public, max-age=86400';
/** The thumbnail of a resource the public cannot see, sent to its preview or an admin: kept by no cache. */
const NOT_PUBLIC = 'private, no-store';
const ID = /^[1-9]\d{0,9}$/;

export const thumbnailsModule: Module = (app, ctx) => {
  const { database } = ctx;
  app.get(
    '/thumbnails/:id.svg',
    {
      schema: {
        tags: ['thumbnails'],
        summary: 'Generated SVG thumbnail of a resource',
        params: z.object({ id: z.string() }),
        querystring: previewTokenQuerySchema,
      },
    },
    async function generatedThumbnailHandler(request, reply) {
      // Anything that is not a resource id is simply not a thumbnail: 404, like a missing file.
      const raw = request.params.id;
      const id = ID.test(raw) ? Number(raw) : NaN;
      if (!(id <= 2_147_483_647)) throw notFound('Thumbnail not found');
      const found = await getResourceCategory(database.db, id);
      if (!found || !isCategoryValue(found.category)) throw notFound('Thumbnail not found');
      // A draft's or scheduled resource's: to its preview link's page, or to a signed-in admin (docs/decisions/396-preview-pages-show-their-media.md).
      // One in the trash: to admins only (decision 398).
      const allowed =
        found.isPublic ||
        (!found.inTrash && (await previewTokenResource(ctx, request.query[PREVIEW_PARAM])) === id) ||
        (await app.currentAdmin(request, reply)) !== null;
      if (!allowed) throw notFound('Thumbnail not found');
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', found.isPublic ? CACHE_CONTROL : NOT_PUBLIC)
        .send(renderThumbnail(id, found.category));
    },
  );
};
