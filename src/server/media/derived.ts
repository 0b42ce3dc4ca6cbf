import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FfmpegError, formatBytes } from './ffmpeg';

/**
 * What the preview derivations share: the typed refusal, the files they write (named by their
 * content, to be stored and served as immutable), and the first checks every upload gets.
 */

export type MediaRejection =
  | 'empty'
  | 'too_large'
  | 'polyglot'
  | 'not_video'
  | 'not_audio'
  | 'no_video_stream'
  | 'no_audio_stream'
  | 'unsupported_codec'
  | 'too_many_pixels'
  | 'too_long'
  | 'implausible'
  | 'damaged'
  | 'silent'
  | 'not_lut'
  | 'invalid_lut'
  | 'not_font'
  | 'invalid_font'
  | 'mismatched_images'
  | 'image_refused'
  | 'ffmpeg_missing'
  | 'timeout'
  | 'too_complex';

/** A file a preview cannot be made from: `message` is for the admin who uploaded it. */
export class MediaRejectedError extends Error {
  constructor(
    public readonly reason: MediaRejection,
    message: string,
  ) {
    super(message);
    this.name = 'MediaRejectedError';
  }
}

export interface DerivedFile {
  /** `<hash>.<ext>`: store it under any prefix and serve it as immutable. */
  fileName: string;
  /** Where the derivation wrote it (inside the output directory it was given). */
  path: string;
  contentType: string;
  bytes: number;
}

/** 128 bits of the SHA-256, in hex, as thumbnails are named. */
const HASH_HEX_CHARS = 32;

/** Writes `data` into `dir` under its content's name. */
export async function writeDerived(dir: string, data: Buffer | Uint8Array, ext: string, contentType: string): Promise<DerivedFile> {
  const hash = createHash('sha256').update(data).digest('hex').slice(0, HASH_HEX_CHARS);
  const fileName = `${hash}.${ext}`;
  const file = path.join(dir, fileName);
  await fs.writeFile(file, data);
  return { fileName, path: file, contentType, bytes: data.byteLength };
}

/** Renames a file a tool wrote into `dir` to its content's name. */
export async function adoptDerived(file: string, dir: string, ext: string, contentType: string): Promise<DerivedFile> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const fileName = `${hash.digest('hex').slice(0, HASH_HEX_CHARS)}.${ext}`;
  const target = path.join(dir, fileName);
  await fs.rename(file, target);
  const { size } = await fs.stat(target);
  return { fileName, path: target, contentType, bytes: size };
}

const PDF_HEADER = Buffer.from('%PDF-');
/** PDF readers accept the header anywhere in the first KiB. */
const PDF_HEADER_WINDOW = 1024;
const ZIP_EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const ZIP_EOCD_BYTES = 22;
const ZIP_MAX_COMMENT = 0xffff;

/** The refusal of a file over `maxBytes` (the preview jobs check it from the store's size, before copying). */
export function tooLarge(what: string, maxBytes: number): MediaRejectedError {
  return new MediaRejectedError('too_large', `The file is larger than ${formatBytes(maxBytes)}; upload ${what} of at most that size.`);
}

/**
 * The first checks of every preview upload, by its bytes: not empty, not over `maxBytes`, and not
 * also a ZIP archive (an end record reaching the end of the file, as ZIP readers find it) or a PDF
 * (its header in the first KiB). Reads only the head and the tail, so it costs the same for a
 * multi-GB video. Returns the file's size.
 */
export async function checkUpload(file: string, what: string, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
  const { size } = await fs.stat(file);
  if (size === 0) throw new MediaRejectedError('empty', `The file is empty. Upload ${what}.`);
  if (size > maxBytes) throw tooLarge(what, maxBytes);
  const polyglot = (other: string) =>
    new MediaRejectedError('polyglot', `This file is also ${other}, so it was refused. Export it again and upload that.`);
  const handle = await fs.open(file);
  try {
    const headBytes = Math.min(size, PDF_HEADER_WINDOW + PDF_HEADER.length);
    const { buffer: head } = await handle.read(Buffer.alloc(headBytes), 0, headBytes, 0);
    if (head.includes(PDF_HEADER)) throw polyglot('a PDF document');
    if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
      throw new MediaRejectedError('polyglot', `This file is a ZIP archive, not ${what}.`);
    }
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
  return size;
}

/** Top-level boxes read before giving up (real files have a handful). */
const ISO_MAX_BOXES = 10_000;

/**
 * An MP4/MOV/M4A (a file that opens with an `ftyp` box) walked box by box at the top level:
 * every box must fit in the file and a `moov` (the index) must be there. ffmpeg tolerates a box
 * that claims more than the file holds and decodes what it finds, so a cut-off upload would pass
 * as a shorter video.
 */
export async function checkIsoBoxes(file: string, size: number, what: string): Promise<void> {
  const handle = await fs.open(file);
  try {
    const header = Buffer.alloc(16);
    let at = 0;
    let moov = false;
    for (let n = 0; at < size && n < ISO_MAX_BOXES; n++) {
      const { bytesRead } = await handle.read(header, 0, 16, at);
      if (bytesRead < 8) break;
      const type = header.toString('latin1', 4, 8);
      if (n === 0 && type !== 'ftyp') return;
      let length = header.readUInt32BE(0);
      let headerBytes = 8;
      if (length === 1 && bytesRead === 16) {
        length = Number(header.readBigUInt64BE(8));
        headerBytes = 16;
      } else if (length === 0) {
        length = size - at; // to the end of the file
      }
      if (!/^[\x20-\x7e]{4}$/.test(type) || length < headerBytes) {
        throw new MediaRejectedError('damaged', `The ${what} file is damaged: its structure cannot be read at byte ${at.toLocaleString('en-US')}.`);
      }
      if (at + length > size) {
        throw new MediaRejectedError(
          'damaged',
          type === 'mdat'
            ? `The ${what} file is incomplete: it ends before its media data does. Export it again and upload the whole file.`
            : `The ${what} file is damaged or incomplete: its “${type}” box claims ${length.toLocaleString('en-US')} bytes but only ${(size - at).toLocaleString('en-US')} remain.`,
        );
      }
      if (type === 'moov') moov = true;
      at += length;
    }
    if (!moov) {
      throw new MediaRejectedError('damaged', `The ${what} file is incomplete: its index (the moov box) is missing. Export it again and upload the whole file.`);
    }
  } finally {
    await handle.close();
  }
}

/**
 * An ffmpeg run's failure as a refusal of the media, except what is not the file's fault: a full
 * disk (worth retrying) and an abort (the job runner's own time limit or a shutdown) go through.
 */
export function rejectionFromFfmpeg(error: unknown, what: string): unknown {
  if (!(error instanceof FfmpegError)) return error;
  switch (error.failure) {
    case 'missing':
      return new MediaRejectedError('ffmpeg_missing', 'ffmpeg is not installed');
    case 'timeout':
      return new MediaRejectedError('timeout', `Processing the ${what} took too long (${error.message}). Upload a shorter or smaller ${what}.`);
    case 'memory':
      return new MediaRejectedError('too_complex', `Processing the ${what} needed too much memory (${error.message}). Upload a smaller ${what}.`);
    case 'output_too_large':
      return new MediaRejectedError('too_complex', `Processing the ${what} produced too much data (${error.message}).`);
    case 'failed':
      return new MediaRejectedError('damaged', `The ${what} could not be processed; it may be damaged (${error.message}).`);
    default:
      return error;
  }
}
