import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { isSitePath } from '../../../contract/common';
import type { PublicResource } from '../../../contract/resources';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { THUMBNAIL_MAX_INPUT_BYTES, THUMBNAIL_MAX_PIXELS } from '../../media/images';
import { sendStoredFile } from '../../storage/send';
import { mediaKey } from '../../storage/keys';
import { cardSource, OG_IMAGE_HEIGHT, OG_IMAGE_WIDTH } from './resource-head';

/** Changes every stored card when the way cards are made changes. */
const OG_RECIPE = 'og-1200x630-cover-jpeg-q82';
const OG_QUALITY = 82;
/** The card's address does not name its content (the page links it by resource): refetched daily. */
const CACHE_CONTROL = 'public, max-age=86400';
const OG_PATH = '/og/';
const FILE = /^([1-9]\d{0,9})\.jpg$/;

/**
 * GET /og/resources/{id}.jpg — the resource's social card (og:image, twitter:image): the image its
 * cards show (cardSource: its thumbnail, or the poster of its ready video preview), cropped to
 * 1200 × 630 JPEG by sharp. The card is stored once per source image content, as a derived file
 * under media/ named by the hash of that image's bytes (so it is also at /media/<name>), and later requests only hash the image. Images
 * on this site (posters and other /media/ variants, generated SVGs) are read through the server's
 * own routes; a thumbnail on another host is not fetched (no requests to addresses an admin
 * typed): its card is made from the resource's generated one.
 */
export const ogImageModule: Module = (app, { files }) => {
  app.get(
    `${OG_PATH}resources/:file`,
    { compress: false, schema: { tags: ['media'], summary: "A resource's social card image (1200 × 630 JPEG)", params: z.object({ file: z.string() }) } },
    async function socialCardHandler(request, reply) {
      const m = FILE.exec(request.params.file);
      const id = m ? Number(m[1]) : NaN;
      if (!(id <= 2_147_483_647)) throw notFound('Image not found');
      const answer = await app.inject({ method: 'GET', url: API.resource(id) });
      if (answer.statusCode !== 200) throw notFound('Image not found');
      const resource = answer.json<PublicResource>();
      // The image its card shows, or its own thumbnail when this site serves it (never a card: a thumbnail set to one would loop), else the generated one.
      const local = (url: string) => url.startsWith('/') && isSitePath(url) && !url.startsWith(OG_PATH);
      const sources = [...new Set([cardSource(resource), resource.thumbnail_url])].filter(local).concat(`/thumbnails/${id}.svg`);
      let key: string | undefined;
      for (const source of sources) {
        key = await storedCard(source, request.log);
        if (key) break;
      }
      if (!key) throw notFound('Image not found');
      return sendStoredFile(request, reply, files, key, { contentType: 'image/jpeg', cacheControl: CACHE_CONTROL });
    },
  );

  /** The stored card made from `source` (made now if needed), or undefined when `source` is not a readable image. */
  async function storedCard(source: string, log: { warn(o: object, m: string): void }): Promise<string | undefined> {
    const bytes = await readLocal(source);
    if (!bytes) return undefined;
    const key = mediaKey(`${createHash('sha256').update(OG_RECIPE).update(bytes).digest('hex').slice(0, 32)}.jpg`);
    if (await files.stat(key)) return key;
    let card: Buffer;
    try {
      card = await sharp(bytes, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
        .resize(OG_IMAGE_WIDTH, OG_IMAGE_HEIGHT, { fit: 'cover', position: 'attention' })
        .flatten({ background: '#0b0b12' })
        .jpeg({ quality: OG_QUALITY, mozjpeg: true })
        .toBuffer();
    } catch (err) {
      log.warn({ err, source }, 'social card: the thumbnail could not be read as an image');
      return undefined;
    }
    await files.put(key, Readable.from([card]), { maxBytes: THUMBNAIL_MAX_INPUT_BYTES, contentType: 'image/jpeg' });
    return key;
  }

  /** The bytes this server answers for one of its own image paths, or undefined. */
  async function readLocal(url: string): Promise<Buffer | undefined> {
    const res = await app.inject({ method: 'GET', url });
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode !== 200 || !type.startsWith('image/') || res.rawPayload.length > THUMBNAIL_MAX_INPUT_BYTES) return undefined;
    return res.rawPayload;
  }
};
