import { z } from 'zod';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { MEDIA_PATH } from '../../../contract/files';
import { mediaKey } from '../../storage/keys';
import { sendStoredFile } from '../../storage/send';
import { PREVIEW_PARAM, previewTokenQuerySchema } from '../../../contract/resources';
import { previewTokenResource } from '../resources/preview-links';
import { isMediaOwned, isMediaOwnedBy } from './owners';

/** The types the derivations write, by extension: nothing else is served from the media prefix. */
const MEDIA_TYPES: Record<string, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  woff2: 'font/woff2',
  bin: 'application/octet-stream',
  json: 'application/json',
};
const MEDIA_NAME = new RegExp(`^[0-9a-f]{32}\\.(${Object.keys(MEDIA_TYPES).join('|')})$`);
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A file of a resource the public cannot see, sent to its preview or an admin: kept by no cache. */
const NOT_PUBLIC = 'private, no-store';

/**
 * Derived files (storage/keys.ts: MEDIA_KEY_PREFIX, by their content's name) at MEDIA_PATH: a name
 * never changes meaning, so browsers and CDNs keep it for a year. A file is served only while a
 * resource owns it (owners.ts): a deleted resource's files answer 404 at once.
 */
export const mediaModule: Module = (app, ctx) => {
  const { database, files } = ctx;
  app.get(
    `${MEDIA_PATH}:name`,
    {
      compress: false,
      schema: {
        tags: ['media'],
        summary: 'A file derived from an upload (thumbnail, preview, poster…), by its content hash; byte ranges supported',
        params: z.object({ name: z.string() }),
        querystring: previewTokenQuerySchema,
      },
    },
    async function getMediaHandler(request, reply) {
      const { name } = request.params;
      const type = MEDIA_NAME.test(name) ? MEDIA_TYPES[name.slice(name.lastIndexOf('.') + 1)] : undefined;
      if (!type) throw notFound('File not found');
      const key = mediaKey(name);
      if (await isMediaOwned(database.db, key)) return sendStoredFile(request, reply, files, key, { contentType: type, cacheControl: IMMUTABLE });
      // A draft's or scheduled resource's file: to its preview link's page, or to a signed-in admin (docs/decisions/396-preview-pages-show-their-media.md).
      const previewOf = await previewTokenResource(ctx, request.query[PREVIEW_PARAM]);
      const allowed =
        (previewOf !== undefined && (await isMediaOwnedBy(database.db, key, previewOf))) ||
        ((await app.currentAdmin(request, reply)) !== null && (await isMediaOwnedBy(database.db, key)));
      if (!allowed) throw notFound('File not found');
      return sendStoredFile(request, reply, files, key, { contentType: type, cacheControl: NOT_PUBLIC });
    },
  );
};
