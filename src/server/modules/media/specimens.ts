import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { ERROR_CODES } from '../../../contract/errors';
import type { Module } from '../../context';
import type { Database } from '../../db/connection';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { FONT_MAX_BYTES, renderFontSpecimen, SPECIMEN_MAX_BYTES } from '../../media/font';
import type { FileStore } from '../../storage/file-store';
import { MEDIA_PATH } from '../../../contract/files';
import { mediaKey } from '../../storage/keys';
import { setSpecimenOwner } from './owners';
import { PREVIEW_PARAM, previewTokenQuerySchema, TRASHED_STATUS } from '../../../contract/resources';
import { previewTokenResource } from '../resources/preview-links';
import { isPublicRow } from '../resources/visibility';

/**
 * A font resource's card shows its title set in its font (issue 15) without fetching the font:
 * the title as an SVG of the font's outlines (src/server/media/font.ts), made the first time a
 * browser asks and kept in the file store under `media/<hash>.svg`. The hash is of the font file
 * and the title, so a renamed resource gets a new URL and a URL never changes meaning. Only the
 * resource's current title is made: a URL naming anything else is a 404, so a visitor cannot
 * have the server draw text of their choosing. See docs/decisions/262-font-title-specimens.md.
 */

/** Changes when the drawing does (layout, size, colour), so earlier specimens are not reused. */
const SPECIMEN_VERSION = 1;
const SPECIMENS_PATH = `${MEDIA_PATH}specimens/`;
/** Specimens drawn at once per instance (each is a worker thread with its own heap). */
const RENDER_CONCURRENCY = 1;
/** Requests that may wait for a drawing; more are answered 503 with Retry-After. */
const RENDER_QUEUE_MAX = 64;
/** Specimens known not to be makeable (a character the font lacks), kept so they are not tried on every request. */
const UNAVAILABLE_MAX = 10_000;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A specimen of a resource the public cannot see, drawn for its preview or an admin: kept by no cache. */
const NOT_PUBLIC = 'private, no-store';
/** resources.id is a 32-bit integer (as idParamsSchema and parseResourcePath bound it). */
const RESOURCE_ID_MAX = 2_147_483_647;

/** The store key's hash of a specimen: the font file (its store key names its content) and the text. */
export function specimenHash(fontKey: string, title: string): string {
  return createHash('sha256').update(`${SPECIMEN_VERSION}\n${fontKey}\n${title}`).digest('hex').slice(0, 32);
}

/** The URL of the resource's title set in its font (the preview's WOFF2 stored under `fontKey`). */
export function specimenUrl(resourceId: number, fontKey: string, title: string): string {
  return `${SPECIMENS_PATH}${resourceId}/${specimenHash(fontKey, title)}.svg`;
}

type Outcome = 'stored' | 'unavailable';

/** Draws specimens one at a time, each once however many ask at the same moment. */
class SpecimenMaker {
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly unavailable = new Set<string>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly files: FileStore,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  isKnownUnavailable(hash: string): boolean {
    return this.unavailable.has(hash);
  }

  /** Undefined when too many are waiting already. */
  make(hash: string, fontKey: string, title: string): Promise<Outcome> | undefined {
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    if (this.waiting.length >= RENDER_QUEUE_MAX) return undefined;
    const made = this.inTurn(() => this.draw(hash, fontKey, title)).finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, made);
    return made;
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= RENDER_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async draw(hash: string, fontKey: string, title: string): Promise<Outcome> {
    const font = await readWhole(this.files, fontKey, FONT_MAX_BYTES);
    const made = font ? await renderFontSpecimen(font, title) : { svg: null, reason: `the font has more than ${FONT_MAX_BYTES} bytes` };
    if (made.svg === null) {
      this.log.warn({ fontKey, reason: made.reason }, 'font specimen not made; the card loads the font instead');
      if (this.unavailable.size >= UNAVAILABLE_MAX) this.unavailable.clear();
      this.unavailable.add(hash);
      return 'unavailable';
    }
    await this.files.put(mediaKey(`${hash}.svg`), Readable.from([Buffer.from(made.svg)]), { maxBytes: SPECIMEN_MAX_BYTES, contentType: 'image/svg+xml' });
    return 'stored';
  }
}

/** The stored file whole; undefined when it has more than `maxBytes`. */
async function readWhole(files: FileStore, key: string, maxBytes: number): Promise<Buffer | undefined> {
  const { body, size } = await files.get(key);
  if (size > maxBytes) {
    body.destroy();
    return undefined;
  }
  return buffer(body);
}

/**
 * The font file's key and the title of a resource whose ready preview is a font, with its status;
 * undefined otherwise.
 */
async function fontOf(database: Database, resourceId: number): Promise<{ fontKey: string; title: string; status: string } | undefined> {
  const row = await database.db.selectFrom('resources').select(['title', 'preview', 'status']).where('id', '=', resourceId).executeTakeFirst();
  if (!row?.preview) return undefined;
  try {
    const preview = JSON.parse(row.preview) as { kind?: unknown; file?: { key?: unknown } };
    return preview.kind === 'font' && typeof preview.file?.key === 'string' ? { fontKey: preview.file.key, title: row.title, status: row.status } : undefined;
  } catch {
    return undefined;
  }
}

export const specimensModule: Module = (app, ctx) => {
  const { database, files } = ctx;
  const maker = new SpecimenMaker(files, app.log);
  app.get(
    `${SPECIMENS_PATH}:id/:name`,
    {
      schema: {
        tags: ['media'],
        summary: "A font resource's title set in its font, as SVG outlines (the URL is in the resource's preview)",
        params: z.object({ id: z.string(), name: z.string() }),
        querystring: previewTokenQuerySchema,
      },
    },
    async function getSpecimenHandler(request, reply) {
      const { id, name } = request.params;
      const hash = /^([0-9a-f]{32})\.svg$/.exec(name)?.[1];
      // Canonical digits within the ids' integer column (a larger number is an error on PostgreSQL, not a miss).
      const resourceId = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= RESOURCE_ID_MAX ? Number(id) : undefined;
      const missing = () => notFound('This specimen does not exist');
      if (!hash || resourceId === undefined || maker.isKnownUnavailable(hash)) throw missing();
      const font = await fontOf(database, resourceId);
      if (!font || specimenHash(font.fontKey, font.title) !== hash) throw missing();
      // A draft's or scheduled resource's: to its preview link's page, or to a signed-in admin, never
      // cached (docs/decisions/396-preview-pages-show-their-media.md); one in the trash to an admin only.
      const isPublic = isPublicRow(font);
      if (!isPublic) {
        const allowed =
          (font.status !== TRASHED_STATUS && (await previewTokenResource(ctx, request.query[PREVIEW_PARAM])) === resourceId) ||
          (await app.currentAdmin(request, reply)) !== null;
        if (!allowed) throw missing();
      }
      const key = mediaKey(`${hash}.svg`);
      if (!(await files.stat(key))) {
        const made = maker.make(hash, font.fontKey, font.title);
        if (!made) {
          throw new HttpError(503, ERROR_CODES.unavailable, 'The server is drawing many specimens; try again in a moment', undefined, { 'retry-after': '2' });
        }
        if ((await made) === 'unavailable') throw missing();
        // Owned by the resource, so the sweep keeps it while the resource shows it (owners.ts); best effort: it can be drawn again.
        await setSpecimenOwner(database.db, resourceId, key).catch((err: unknown) => request.log.warn({ err, key }, 'font specimen: recording its owner failed'));
      }
      // Whole, not streamed: a specimen is small, and outlines compress to about a third.
      const svg = await readWhole(files, key, SPECIMEN_MAX_BYTES);
      if (!svg) throw missing();
      return reply
        .type('image/svg+xml')
        .header('cache-control', isPublic ? IMMUTABLE : NOT_PUBLIC)
        .header('x-content-type-options', 'nosniff')
        .send(svg);
    },
  );
};
