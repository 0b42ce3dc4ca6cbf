import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { PreviewKind } from '../../../contract/previews';
import { AUDIO_MAX_INPUT_BYTES, deriveAudioPreview } from '../../media/audio';
import { type DerivedFile, MediaRejectedError, tooLarge } from '../../media/derived';
import type { MediaTools } from '../../media/ffmpeg';
import { deriveFontPreview, FONT_MAX_BYTES } from '../../media/font';
import { deriveImagePairPreview } from '../../media/image-pair';
import { ImageRejectedError, THUMBNAIL_MAX_INPUT_BYTES } from '../../media/images';
import { deriveLutPreview, LUT_MAX_BYTES } from '../../media/lut';
import { deriveVideoPreview, VIDEO_MAX_INPUT_BYTES } from '../../media/video';
import { FileNotFoundError, type FileStore } from '../../storage/file-store';
import { defineJob, type JobContext, type JobDefinition, JobFailure } from '../../jobs/queue';
import { lutSamples } from './lut-samples';
import { mediaKey } from '../../storage/keys';

/**
 * The preview jobs: each checks its source file(s) against the kind's size limit from the file
 * store's own record (a refusal fails the job at once, nothing copied), reads them in place where
 * the store keeps them on this machine's disk, or else copies them into a temporary directory
 * (decision 352), runs the derivation, stores every file it made under `media/<content hash>.<ext>`
 * (served at /media/<name>, routes.ts) and returns the preview's metadata with each file's key in
 * place of its temporary path. A refused file fails the job at once with the derivation's reason;
 * anything else (the store, the disk) is retried. A LUT's preview also names the sample photos it
 * grades (lut-samples.ts).
 */

/** Time limits of whole jobs (a video job runs several ffmpeg processes, each with its own limit). */
export const PREVIEW_TIME_LIMITS_MS = {
  video: 15 * 60_000,
  audio: 5 * 60_000,
  lut: 60_000,
  'image-pair': 2 * 60_000,
  font: 60_000,
} as const satisfies Record<PreviewKind, number>;

export interface PreviewJobOptions {
  files: FileStore;
  tools: MediaTools;
  /** Where jobs make their temporary directories (default: the OS's). */
  tmpDir?: string;
  /**
   * Called with a job's stored preview just before the job is recorded as ready (the resource
   * shows it). A job run again after its instance died calls it again with the same files.
   */
  onStored?: (jobId: number, preview: unknown) => Promise<void>;
  /** Lower source limits than PREVIEW_SOURCE_LIMITS (tests). */
  sourceMaxBytes?: Partial<Record<PreviewKind, number>>;
}

/**
 * The largest source of each kind and how a refusal names it (each derivation checks the same
 * limit on the file it reads).
 */
export const PREVIEW_SOURCE_LIMITS = {
  video: { maxBytes: VIDEO_MAX_INPUT_BYTES, what: 'a video' },
  audio: { maxBytes: AUDIO_MAX_INPUT_BYTES, what: 'a sound file' },
  lut: { maxBytes: LUT_MAX_BYTES, what: 'a .cube LUT' },
  font: { maxBytes: FONT_MAX_BYTES, what: 'a font' },
  'image-pair': { maxBytes: THUMBNAIL_MAX_INPUT_BYTES, what: 'an image' },
} as const satisfies Record<PreviewKind, { maxBytes: number; what: string }>;

/** A derived file as the job's result keeps it: where it is stored, not where it was made. */
export type StoredFile = Omit<DerivedFile, 'path'> & { key: string };

const key = z.string().min(1).max(1024);
const source = z.object({ source: key });
const pair = z.object({ before: key, after: key });

/** What enqueueing a preview job of each kind needs (its kind and payload); the runner takes previewJobs(). */
export const PREVIEW_JOB_SPECS = {
  video: { kind: 'preview.video', payload: source },
  audio: { kind: 'preview.audio', payload: source },
  lut: { kind: 'preview.lut', payload: source },
  font: { kind: 'preview.font', payload: source },
  'image-pair': { kind: 'preview.image-pair', payload: pair },
} as const satisfies Record<PreviewKind, { kind: string; payload: z.ZodType }>;

export function previewJobs(options: PreviewJobOptions): JobDefinition[] {
  const single = (kind: Exclude<PreviewKind, 'image-pair'>, derive: (input: string, out: string, signal: AbortSignal) => Promise<object>) =>
    defineJob({
      kind: PREVIEW_JOB_SPECS[kind].kind,
      payload: source,
      timeLimitMs: PREVIEW_TIME_LIMITS_MS[kind],
      run: (payload, context) =>
        inWorkDir(options, context, async (dir, out, signal) => derive(await sourcePath(options, kind, payload.source, path.join(dir, 'source'), signal), out, signal)),
    });
  return [
    single('video', (input, out, signal) => deriveVideoPreview(options.tools, input, out, { signal })),
    single('audio', (input, out, signal) => deriveAudioPreview(options.tools, input, out, { signal })),
    single('lut', async (input, out) => ({ ...(await deriveLutPreview(input, out)), samples: await lutSamples(options.files) })),
    single('font', (input, out, signal) => deriveFontPreview(input, out, { signal })),
    defineJob({
      kind: PREVIEW_JOB_SPECS['image-pair'].kind,
      payload: pair,
      timeLimitMs: PREVIEW_TIME_LIMITS_MS['image-pair'],
      run: (payload, context) =>
        inWorkDir(options, context, async (dir, out, signal) => {
          const before = await sourcePath(options, 'image-pair', payload.before, path.join(dir, 'before'), signal);
          const after = await sourcePath(options, 'image-pair', payload.after, path.join(dir, 'after'), signal);
          return deriveImagePairPreview(before, after, out);
        }),
    }),
  ];
}

/**
 * Refusals of a file that is not of the preview's kind at all (or is empty): no retry can make one
 * from it, so the admin is told to upload another (decision 371).
 */
const NOT_OF_THE_KIND: ReadonlySet<string> = new Set(['empty', 'not_video', 'not_audio', 'no_video_stream', 'no_audio_stream', 'not_lut', 'not_font', 'not_an_image', 'unsupported_type']);

async function inWorkDir(
  options: PreviewJobOptions,
  { signal, jobId }: JobContext,
  work: (dir: string, out: string, signal: AbortSignal) => Promise<object>,
): Promise<unknown> {
  const dir = await fs.mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), 'rv-preview-'));
  try {
    const out = path.join(dir, 'out');
    await fs.mkdir(out);
    const preview = await work(dir, out, signal).catch((error: unknown) => {
      if (error instanceof MediaRejectedError || error instanceof ImageRejectedError) throw new JobFailure(error.message, false, NOT_OF_THE_KIND.has(error.reason));
      throw error;
    });
    const stored = await storeFiles(preview, options.files, signal);
    signal.throwIfAborted();
    await options.onStored?.(jobId, stored);
    return stored;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Makes `copy` the file a derivation reads for `key`: refused from the store's size when over the
 * kind's limit; a symbolic link to the stored file where the store has it on this disk; else a
 * copy (stopped past the limit, should the file have grown since).
 */
async function sourcePath(options: PreviewJobOptions, kind: PreviewKind, key: string, copy: string, signal: AbortSignal): Promise<string> {
  const { what } = PREVIEW_SOURCE_LIMITS[kind];
  const maxBytes = options.sourceMaxBytes?.[kind] ?? PREVIEW_SOURCE_LIMITS[kind].maxBytes;
  const found = await options.files.stat(key);
  if (!found) throw new FileNotFoundError(key);
  if (found.size > maxBytes) throw tooLarge(what, maxBytes);
  const inPlace = options.files.localPath(key);
  if (inPlace) {
    // A link under the copy's name: the tools see the same name either way (ffmpeg guesses a format from a name's extension).
    await fs.symlink(inPlace, copy);
    return copy;
  }
  const { body } = await options.files.get(key, { signal });
  let bytes = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? tooLarge(what, maxBytes) : null, chunk);
    },
  });
  await pipeline(body, bounded, createWriteStream(copy), { signal });
  return copy;
}

const isDerivedFile = (v: unknown): v is DerivedFile =>
  typeof v === 'object' && v !== null && typeof (v as DerivedFile).path === 'string' && typeof (v as DerivedFile).fileName === 'string';

/** The preview with each derived file stored and its path replaced by its key. */
async function storeFiles(value: unknown, files: FileStore, signal: AbortSignal): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => storeFiles(v, files, signal)));
  if (typeof value !== 'object' || value === null) return value;
  const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await storeFiles(v, files, signal)] as const));
  const copy = Object.fromEntries(entries.filter(([k]) => !(isDerivedFile(value) && k === 'path')));
  if (isDerivedFile(value)) {
    const key = mediaKey(value.fileName);
    await files.put(key, createReadStream(value.path), { maxBytes: value.bytes, contentType: value.contentType, signal });
    copy.key = key;
  }
  return copy;
}
