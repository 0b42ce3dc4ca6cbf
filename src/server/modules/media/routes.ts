import { z } from 'zod';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { MEDIA_PATH } from '../../../contract/files';
import { mediaKey } from '../../storage/keys';
import { sendStoredFile } from '../../storage/send';
import { isMediaOwned } from './owners';

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

/**
 * Derived files (storage/keys.ts: MEDIA_KEY_PREFIX, by their content's name) at MEDIA_PATH: a name
 * never changes meaning, so browsers and CDNs keep it for a year. A file is served only while a
 * resource owns it (owners.ts): a deleted resource's files answer 404 at once.
 */
export const mediaModule: Module = (app, { database, files }) => {
  app.get(
    `${MEDIA_PATH}:name`,
    {
      compress: false,
      schema: {
        tags: ['media'],
        summary: 'A file derived from an upload (thumbnail, preview, poster…), by its content hash; byte ranges supported',
        params: z.object({ name: z.string() }),
      },
    },
    async function getMediaHandler(request, reply) {
      const { name } = request.params;
      const type = MEDIA_NAME.test(name) ? MEDIA_TYPES[name.slice(name.lastIndexOf('.') + 1)] : undefined;
      if (!type || !(await isMediaOwned(database.db, mediaKey(name)))) throw notFound('File not found');
      return sendStoredFile(request, reply, files, mediaKey(name), { contentType: type, cacheControl: IMMUTABLE });
    },
  );
};
