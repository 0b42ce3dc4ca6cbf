import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { PreviewKind } from '../../../contract/previews';
import { deriveAudioPreview } from '../../media/audio';
import { type DerivedFile, MediaRejectedError } from '../../media/derived';
import type { MediaTools } from '../../media/ffmpeg';
import { deriveFontPreview } from '../../media/font';
import { deriveImagePairPreview } from '../../media/image-pair';
import { ImageRejectedError } from '../../media/images';
import { deriveLutPreview } from '../../media/lut';
import { deriveVideoPreview } from '../../media/video';
import type { FileStore } from '../../storage/file-store';
import { defineJob, type JobContext, type JobDefinition, JobFailure } from './jobs';
import { lutSamples } from './lut-samples';
import { mediaKey } from '../../storage/keys';

/**
 * The preview jobs: each copies its source file(s) from the file store into a temporary
 * directory, runs the derivation, stores every file it made under `media/<content hash>.<ext>`
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
}

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
        inWorkDir(options, context, async (dir, out, signal) => {
          const input = path.join(dir, 'source');
          await fetch(options.files, payload.source, input, signal);
          return derive(input, out, signal);
        }),
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
          const [before, after] = [path.join(dir, 'before'), path.join(dir, 'after')];
          await fetch(options.files, payload.before, before, signal);
          await fetch(options.files, payload.after, after, signal);
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

async function fetch(files: FileStore, key: string, file: string, signal: AbortSignal): Promise<void> {
  const { body } = await files.get(key, { signal });
  await pipeline(body, createWriteStream(file), { signal });
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
