import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import sharp, { type Sharp, type SharpOptions } from 'sharp';

/**
 * The thumbnail pipeline: an uploaded image, checked by its bytes, decoded once with a pixel limit
 * and a time limit, and re-encoded from its pixels alone into WebP (and AVIF where it pays) at a few
 * widths, with a tiny placeholder. Nothing of the uploaded file but its pixels reaches the output:
 * no metadata (EXIF, GPS, XMP, ICC), no trailing or embedded data. See
 * docs/decisions/101-media-thumbnail-pipeline.md.
 */

/** Larger than any photo a phone or camera exports as JPEG, PNG, WebP or AVIF. */
export const THUMBNAIL_MAX_INPUT_BYTES = 30 * 1024 * 1024;
/** Refused before decoding: the header's width × height (50 MP covers 48 MP phone photos). */
export const THUMBNAIL_MAX_PIXELS = 50_000_000;
/** Per sharp pipeline; a thumbnail runs a bounded number of them. */
export const THUMBNAIL_TIMEOUT_SECONDS = 20;
/**
 * Variant widths: a card (about 400 CSS px) and the dialog (768) at 1× and 2×, and a phone's full
 * width at 3×. Never upscaled; an image narrower than the largest gets its own width as the largest.
 */
export const THUMBNAIL_WIDTHS = [400, 800, 1200, 1600] as const;
/** An AVIF variant is kept only when it is at most this share of the WebP one's bytes. */
export const AVIF_MAX_SHARE_OF_WEBP = 0.9;
export const WEBP_QUALITY = 80;
export const AVIF_QUALITY = 50;
/** libaom's effort: higher ones cost several times the time for a few per cent fewer bytes. */
export const AVIF_EFFORT = 2;
const PLACEHOLDER_MAX_SIDE = 16;
const PLACEHOLDER_QUALITY = 40;
/** 128 bits of the SHA-256, in hex: the name of a content-addressed file. */
const HASH_HEX_CHARS = 32;

const ACCEPTED = {
  jpg: { sharpFormat: 'jpeg', label: 'JPEG' },
  png: { sharpFormat: 'png', label: 'PNG' },
  webp: { sharpFormat: 'webp', label: 'WebP' },
  avif: { sharpFormat: 'heif', label: 'AVIF' },
  gif: { sharpFormat: 'gif', label: 'GIF' },
} as const;
type AcceptedExt = keyof typeof ACCEPTED;
const ACCEPTED_LIST = 'a JPEG, PNG, WebP, AVIF or GIF image';

export type ImageRejection =
  | 'empty'
  | 'too_large'
  | 'not_an_image'
  | 'unsupported_type'
  | 'markup'
  | 'polyglot'
  | 'too_many_pixels'
  | 'unreadable'
  | 'timeout';

/** A refused image: `message` is for the person who uploaded it. */
export class ImageRejectedError extends Error {
  constructor(
    public readonly reason: ImageRejection,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejectedError';
  }
}

export interface ImageVariant {
  format: 'webp' | 'avif';
  contentType: 'image/webp' | 'image/avif';
  width: number;
  height: number;
  data: Buffer;
  /** Hex SHA-256 prefix of `data`. */
  hash: string;
  /** `<hash>.<format>`: store it under any prefix and serve it as immutable. */
  fileName: string;
}

export interface ProcessedImage {
  /** The upload as shown (EXIF orientation applied). */
  source: { format: AcceptedExt; width: number; height: number; bytes: number };
  /** By width, WebP first; every width has a WebP, some an AVIF too. */
  variants: ImageVariant[];
  placeholder: {
    /** Dominant colour, `#rrggbb`. */
    color: string;
    /** A WebP a few pixels wide as a data URI, to show blurred until the image arrives. */
    dataUri: string;
  };
}

/**
 * Processes an uploaded thumbnail from a file path or a stream (a stream is spooled to a temporary
 * file, up to THUMBNAIL_MAX_INPUT_BYTES). Throws ImageRejectedError for anything it refuses.
 */
export async function processThumbnail(input: string | Readable): Promise<ProcessedImage> {
  if (typeof input === 'string') return processFile(input);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-thumbnail-'));
  try {
    const file = path.join(dir, 'upload');
    await spool(input, file);
    return await processFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function spool(input: Readable, file: string): Promise<void> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > THUMBNAIL_MAX_INPUT_BYTES ? tooLarge() : null, chunk);
    },
  });
  await pipeline(input, limit, createWriteStream(file));
}

const tooLarge = () =>
  new ImageRejectedError('too_large', `The image is larger than ${THUMBNAIL_MAX_INPUT_BYTES / (1024 * 1024)} MB. Upload a smaller image.`);

async function processFile(file: string): Promise<ProcessedImage> {
  const { size } = await fs.stat(file);
  if (size === 0) throw new ImageRejectedError('empty', `The file is empty. Upload ${ACCEPTED_LIST}.`);
  if (size > THUMBNAIL_MAX_INPUT_BYTES) throw tooLarge();

  const ext = await sniff(file);
  await refuseHiddenContent(file, size);

  const options: SharpOptions = {
    limitInputPixels: THUMBNAIL_MAX_PIXELS,
    // Refuses truncated and corrupt pixel data; decoder warnings that real cameras produce pass.
    failOn: 'error',
    autoOrient: true,
    pages: 1,
  };
  // The header alone, so the refusal can name the size; decoding below enforces the limit again.
  const meta = await sharp(file, { ...options, limitInputPixels: false })
    .metadata()
    .catch((err: unknown) => {
      throw decodeError(err);
    });
  if (meta.format !== ACCEPTED[ext].sharpFormat) {
    throw new ImageRejectedError('unreadable', `The file looks like ${ACCEPTED[ext].label} but could not be read as one.`);
  }
  if (meta.width * meta.height > THUMBNAIL_MAX_PIXELS) {
    throw new ImageRejectedError(
      'too_many_pixels',
      `The image is ${meta.width} × ${meta.height} pixels; a thumbnail can have at most ${THUMBNAIL_MAX_PIXELS / 1_000_000} million. Upload a smaller image.`,
    );
  }

  // Decoded once, oriented and brought down to the largest variant; the variants come from these
  // pixels, which carry nothing else of the file.
  const largest = THUMBNAIL_WIDTHS[THUMBNAIL_WIDTHS.length - 1];
  const pixels = await run(
    sharp(file, options)
      .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' }),
  );
  const raw = { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels as 1 | 2 | 3 | 4 };
  const fromPixels = () => sharp(pixels.data, { raw });

  const widths = [...THUMBNAIL_WIDTHS.filter((w) => w < raw.width), raw.width];
  const variants: ImageVariant[] = [];
  for (const width of widths) {
    const resized = () => fromPixels().resize({ width });
    const webp = await encode(resized().webp({ quality: WEBP_QUALITY }), 'webp');
    variants.push(webp);
    const avif = await encode(resized().avif({ quality: AVIF_QUALITY, effort: AVIF_EFFORT }), 'avif');
    if (avif.data.length <= webp.data.length * AVIF_MAX_SHARE_OF_WEBP) variants.push(avif);
  }

  const [{ dominant }, tiny] = await Promise.all([
    fromPixels().stats(),
    run(
      fromPixels()
        .resize({ width: PLACEHOLDER_MAX_SIDE, height: PLACEHOLDER_MAX_SIDE, fit: 'inside' })
        .webp({ quality: PLACEHOLDER_QUALITY }),
    ),
  ]);
  const hex = (n: number) => n.toString(16).padStart(2, '0');

  return {
    source: { format: ext, width: meta.autoOrient.width, height: meta.autoOrient.height, bytes: size },
    variants,
    placeholder: {
      color: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`,
      dataUri: `data:image/webp;base64,${tiny.data.toString('base64')}`,
    },
  };
}

/** The type by the file's bytes; its name and the type a browser claimed are not consulted. */
async function sniff(file: string): Promise<AcceptedExt> {
  const type = await fileTypeFromFile(file);
  if (type && type.ext in ACCEPTED) return type.ext as AcceptedExt;
  if (type && type.ext !== 'xml') {
    throw new ImageRejectedError('unsupported_type', `${type.ext.toUpperCase()} files are not accepted as a thumbnail. Upload ${ACCEPTED_LIST}.`);
  }
  const handle = await fs.open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    const start = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart();
    if (start.startsWith('<')) {
      throw new ImageRejectedError('markup', `SVG, HTML and other markup files are not accepted as a thumbnail. Upload ${ACCEPTED_LIST}.`);
    }
  } finally {
    await handle.close();
  }
  throw new ImageRejectedError('not_an_image', `This file is not an image. Upload ${ACCEPTED_LIST}.`);
}

/**
 * Markup a browser or PHP would run: a tag's name ends at a space, `/` or `>` (HTML's tokenizer), so
 * `<svgx` is no SVG. Without that end `<svg` alone, four bytes, turned up by chance in the compressed
 * data of ~2 % of 10 MB photos (once in a test image of noise; decision 101).
 */
const MARKUP = /<(?:script|html|svg|iframe|object|embed)[\t\n\f\r />]|<\?php/;
/** The longest match less one: what a chunk's end must carry into the next. */
const MARKER_OVERLAP = '<iframe>'.length - 1;
const PDF_HEADER = Buffer.from('%PDF-');
const PDF_HEADER_WINDOW = 1024;
const ZIP_EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const ZIP_EOCD_BYTES = 22;
const ZIP_MAX_COMMENT = 0xffff;

/**
 * Refuses an image that another program would open as something else: a ZIP archive (found the
 * way ZIP readers find one, by its end record), a PDF (readers accept its header anywhere in the
 * first KiB) or a web page or script (markup anywhere, say in an EXIF comment). The output never
 * holds these bytes anyway; refusing says plainly that the upload was not a plain image.
 */
async function refuseHiddenContent(file: string, size: number): Promise<void> {
  const polyglot = (what: string) =>
    new ImageRejectedError('polyglot', `This image also contains ${what}, so it was refused. Export it again from an image editor and upload that.`);

  let carry = '';
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    const text = carry + chunk.toString('latin1').toLowerCase();
    if (MARKUP.test(text)) throw polyglot('web page code');
    carry = text.slice(-MARKER_OVERLAP);
  }

  const handle = await fs.open(file);
  try {
    const headBytes = Math.min(size, PDF_HEADER_WINDOW + PDF_HEADER.length);
    const { buffer: head } = await handle.read(Buffer.alloc(headBytes), 0, headBytes, 0);
    if (head.includes(PDF_HEADER)) throw polyglot('a PDF document');

    const tailBytes = Math.min(size, ZIP_EOCD_BYTES + ZIP_MAX_COMMENT);
    const { buffer: tail } = await handle.read(Buffer.alloc(tailBytes), 0, tailBytes, size - tailBytes);
    for (let at = tail.indexOf(ZIP_EOCD); at >= 0; at = tail.indexOf(ZIP_EOCD, at + 1)) {
      if (at + ZIP_EOCD_BYTES <= tail.length && at + ZIP_EOCD_BYTES + tail.readUInt16LE(at + 20) === tail.length) {
        throw polyglot('a ZIP archive');
      }
    }
  } finally {
    await handle.close();
  }
}

async function run(pipeline: Sharp) {
  try {
    return await pipeline.timeout({ seconds: THUMBNAIL_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw decodeError(err);
  }
}

async function encode(pipeline: Sharp, format: 'webp' | 'avif'): Promise<ImageVariant> {
  const { data, info } = await run(pipeline);
  const hash = createHash('sha256').update(data).digest('hex').slice(0, HASH_HEX_CHARS);
  return { format, contentType: `image/${format}`, width: info.width, height: info.height, data, hash, fileName: `${hash}.${format}` };
}

function decodeError(err: unknown): ImageRejectedError {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) {
    return new ImageRejectedError(
      'too_many_pixels',
      `The image has more than ${THUMBNAIL_MAX_PIXELS / 1_000_000} million pixels. Upload a smaller image.`,
    );
  }
  if (message.startsWith('timeout')) {
    return new ImageRejectedError('timeout', 'The image took too long to process. Upload a smaller or simpler image.');
  }
  return new ImageRejectedError('unreadable', 'The image could not be read: it may be damaged or incomplete. Export it again and upload that.');
}
