import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { adoptDerived, checkIsoBoxes, checkUpload, type DerivedFile, MediaRejectedError, rejectionFromFfmpeg, writeDerived } from './derived';
import {
  ffmpegGlobalArgs,
  FfmpegError,
  formatDuration,
  inputArgs,
  type MediaTools,
  parseRate,
  parseSeconds,
  probe,
  type Probe,
  type ProbeStream,
  runTool,
} from './ffmpeg';
import { ImageRejectedError, type ProcessedImage, processThumbnail } from './images';

/**
 * A video's preview: the first VIDEO_PREVIEW_SECONDS as a muted H.264 MP4 (fast start) within
 * 1280 × 720, a storyboard of frames of that preview tiled into one WebP (to scrub without the
 * video), and a poster from about 10% into the video that is not a black frame, re-encoded like a
 * thumbnail. See docs/decisions/142-media-preview-formats.md.
 */

/** Demuxers (ffmpeg's names) a video is read with: MP4/MOV/M4V, MKV/WebM, AVI, MPEG-TS. */
export const VIDEO_DEMUXERS = ['mov', 'matroska', 'avi', 'mpegts'] as const;
/** Decoders a video stream may need; anything else is refused before it is decoded. */
export const VIDEO_CODECS = ['h264', 'hevc', 'vp8', 'vp9', 'av1', 'mpeg4', 'mpeg2video', 'mpeg1video', 'prores', 'mjpeg', 'dnxhd', 'theora'] as const;
export const VIDEO_MAX_SIDE = 8192;
/** 8K UHD: a video may have as many pixels as this frame, in any shape within VIDEO_MAX_SIDE. */
export const VIDEO_MAX_FRAME = { width: 7680, height: 4320 } as const;
export const VIDEO_MAX_PIXELS = VIDEO_MAX_FRAME.width * VIDEO_MAX_FRAME.height;
export const VIDEO_MAX_DURATION_SECONDS = 3 * 3600;
/**
 * The largest video a preview is made from (checked before a byte is read or copied): ten minutes
 * of 4K at a camera's 25 Mbit/s, or the duration limit of 1080p at 1.5 Mbit/s.
 */
export const VIDEO_MAX_INPUT_BYTES = 2 * 1024 ** 3;
export const VIDEO_MAX_FPS = 240;
export const VIDEO_PREVIEW_SECONDS = 10;
/** The preview fits this box (turned for portrait videos) and is never upscaled. */
export const VIDEO_PREVIEW_LONG_SIDE = 1280;
export const VIDEO_PREVIEW_SHORT_SIDE = 720;
export const VIDEO_PREVIEW_MAX_FPS = 30;
/** x264 quality, speed and a bitrate ceiling so a noisy source cannot make a heavy preview. */
export const VIDEO_PREVIEW_CRF = 26;
export const VIDEO_PREVIEW_PRESET = 'veryfast';
export const VIDEO_PREVIEW_MAXRATE = '2500k';
export const VIDEO_PREVIEW_BUFSIZE = '5000k';
export const STORYBOARD_FRAMES = 24;
export const STORYBOARD_COLUMNS = 6;
export const STORYBOARD_FRAME_WIDTH = 160;
export const STORYBOARD_QUALITY = 70;
/** Where the poster is looked for, as shares of the duration: the first frame often is black. */
export const POSTER_POSITIONS = [0.1, 0.3, 0.5, 0.7, 0] as const;
/** Frames the thumbnail filter chooses the poster among, from each position. */
export const POSTER_WINDOW_FRAMES = 24;
/** A frame whose mean luma (0–255) is below this counts as black. */
export const POSTER_MIN_LUMA = 24;
/** The poster is taken at most this large (the thumbnail pipeline's largest width). */
export const POSTER_MAX_SIDE = 1600;
/** Time limit of each ffmpeg run of a video preview. */
export const VIDEO_RUN_TIMEOUT_MS = 3 * 60_000;
/** The preview file may not grow past this (a 10 s preview at the bitrate ceiling is a few MB). */
export const VIDEO_PREVIEW_MAX_BYTES = 64 * 1024 * 1024;

const VIDEO_KINDS = 'a video (MP4, MOV, MKV, WebM, AVI or MPEG-TS)';

export interface VideoPreview {
  kind: 'video';
  /** Of the source, as shown (rotation and pixel aspect applied). */
  width: number;
  height: number;
  duration: number;
  /** Frames a second of the source (0 when it does not say). */
  frameRate?: number;
  hasSound?: boolean;
  /** ffprobe's name of the container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`…). */
  formatName?: string | null;
  preview: DerivedFile & { width: number; height: number; duration: number };
  poster: { at: number; variants: (DerivedFile & { width: number; height: number; format: 'webp' | 'avif' })[]; placeholder: ProcessedImage['placeholder'] };
  storyboard: DerivedFile & {
    columns: number;
    rows: number;
    frames: number;
    frameWidth: number;
    frameHeight: number;
    /** Seconds of preview between two frames: frame i shows the preview at i × interval. */
    interval: number;
  };
}

export interface DeriveOptions {
  signal?: AbortSignal;
}

export async function deriveVideoPreview(tools: MediaTools, input: string, outDir: string, options: DeriveOptions = {}): Promise<VideoPreview> {
  await checkIsoBoxes(input, await checkUpload(input, 'a video', VIDEO_MAX_INPUT_BYTES), 'video');
  const info = await probe(tools, input, VIDEO_DEMUXERS, options).catch((error: unknown) => {
    throw probeRejection(error);
  });
  const stream = checkVideo(info);
  const work = await fs.mkdtemp(path.join(outDir, '.work-'));
  try {
    const { width, height } = displaySize(stream);
    const duration = parseSeconds(info.format.duration) || parseSeconds(stream.duration);
    const previewDuration = duration > 0 ? Math.min(duration, VIDEO_PREVIEW_SECONDS) : VIDEO_PREVIEW_SECONDS;
    const preview = await encodePreview(tools, input, stream, { width, height }, previewDuration, work, outDir, options);
    const poster = await makePoster(tools, input, stream, { width, height }, duration, work, outDir, options);
    const frameRate = Math.round((parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate)) * 1000) / 1000;
    const hasSound = info.streams.some((s) => s.codec_type === 'audio');
    return { kind: 'video', width, height, duration, frameRate, hasSound, formatName: info.format.format_name ?? null, ...preview, poster };
  } catch (error) {
    throw rejectionFromFfmpeg(error, 'video');
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

function probeRejection(error: unknown): unknown {
  if (!(error instanceof FfmpegError) || error.failure !== 'failed') return rejectionFromFfmpeg(error, 'video');
  const claimed = /Picture size (\d+)x(\d+) is invalid/.exec(error.stderr);
  if (claimed) return tooManyPixels(Number(claimed[1]), Number(claimed[2]));
  if (/moov atom not found/i.test(error.stderr)) {
    return new MediaRejectedError('damaged', 'The video file is incomplete: its index (the moov box) is missing. Export it again and upload the whole file.');
  }
  return new MediaRejectedError('not_video', `This file is not ${VIDEO_KINDS}.`);
}

const tooManyPixels = (w: number, h: number) =>
  new MediaRejectedError(
    'too_many_pixels',
    `The video is ${w} × ${h} pixels; the limit is ${VIDEO_MAX_SIDE} pixels a side and as many pixels as ${VIDEO_MAX_FRAME.width} × ${VIDEO_MAX_FRAME.height}. Upload a smaller video.`,
  );

/** The video stream a preview is made from, or a refusal naming what is wrong. */
function checkVideo(info: Probe): ProbeStream {
  const stream = info.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!stream) {
    const audio = info.streams.some((s) => s.codec_type === 'audio');
    throw new MediaRejectedError('no_video_stream', audio ? 'This file has sound but no video stream.' : 'This file has no video stream.');
  }
  if (!(VIDEO_CODECS as readonly string[]).includes(stream.codec_name ?? '')) {
    throw new MediaRejectedError('unsupported_codec', `The video is encoded as ${stream.codec_name ?? 'an unknown format'}, which is not supported. Export it as H.264, HEVC, VP9 or AV1.`);
  }
  const w = stream.width ?? 0;
  const h = stream.height ?? 0;
  if (w > VIDEO_MAX_SIDE || h > VIDEO_MAX_SIDE || w * h > VIDEO_MAX_PIXELS) throw tooManyPixels(w, h);
  if (w < 2 || h < 2) throw new MediaRejectedError('damaged', 'The video’s size could not be read; the file may be damaged.');
  const duration = parseSeconds(info.format.duration) || parseSeconds(stream.duration);
  if (duration > VIDEO_MAX_DURATION_SECONDS) {
    throw new MediaRejectedError('too_long', `The video says it is ${formatDuration(duration)} long; the limit is ${formatDuration(VIDEO_MAX_DURATION_SECONDS)}.`);
  }
  const fps = parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate);
  if (fps > VIDEO_MAX_FPS && parseRate(stream.r_frame_rate) > VIDEO_MAX_FPS) {
    throw new MediaRejectedError('implausible', `The video says it has ${Math.round(fps)} frames a second; the limit is ${VIDEO_MAX_FPS}.`);
  }
  return stream;
}

/** The size the video is shown at: pixel aspect ratio and rotation applied (ffmpeg rotates while decoding). */
function displaySize(stream: ProbeStream): { width: number; height: number } {
  const [n, d] = (stream.sample_aspect_ratio ?? '1:1').split(':').map(Number);
  const sar = n > 0 && d > 0 ? n / d : 1;
  let width = Math.round((stream.width ?? 0) * sar);
  let height = stream.height ?? 0;
  const rotation = stream.side_data_list?.find((s) => typeof s.rotation === 'number')?.rotation ?? Number(stream.tags?.rotate ?? 0);
  if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  return { width, height };
}

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/** Within a box of long × short (turned to the video's orientation), never upscaled, even sides. */
function fit(size: { width: number; height: number }, long: number, short: number): { width: number; height: number } {
  const [boxW, boxH] = size.width >= size.height ? [long, short] : [short, long];
  const scale = Math.min(1, boxW / size.width, boxH / size.height);
  return { width: even(size.width * scale), height: even(size.height * scale) };
}

async function encodePreview(
  tools: MediaTools,
  input: string,
  stream: ProbeStream,
  size: { width: number; height: number },
  previewDuration: number,
  work: string,
  outDir: string,
  options: DeriveOptions,
): Promise<Pick<VideoPreview, 'preview' | 'storyboard'>> {
  const target = fit(size, VIDEO_PREVIEW_LONG_SIDE, VIDEO_PREVIEW_SHORT_SIDE);
  const frameW = STORYBOARD_FRAME_WIDTH;
  const frameH = even((frameW * target.height) / target.width);
  const fps = parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate);
  const rate = fps > VIDEO_PREVIEW_MAX_FPS || fps === 0 ? `,fps=${VIDEO_PREVIEW_MAX_FPS}` : '';
  // A short or slow video has fewer frames than the storyboard: never repeat one.
  const wanted = fps > 0 ? Math.max(1, Math.min(STORYBOARD_FRAMES, Math.floor(previewDuration * Math.min(fps, VIDEO_PREVIEW_MAX_FPS)))) : STORYBOARD_FRAMES;
  // One decode feeds both outputs: the preview, and raw frames for the storyboard on stdout.
  const graph =
    `[0:${stream.index}]scale=${target.width}:${target.height}:flags=bicubic,setsar=1${rate},format=yuv420p,split=2[preview][frames];` +
    `[frames]fps=${wanted / previewDuration},scale=${frameW}:${frameH}:flags=area,format=rgb24[storyboard]`;
  const previewFile = path.join(work, 'preview.mp4');
  const frameBytes = frameW * frameH * 3;
  const frames: Buffer[] = [];
  let pending = Buffer.alloc(0);
  const { stderr } = await runTool(
    tools,
    tools.ffmpeg,
    [
      ...ffmpegGlobalArgs(tools),
      ...inputArgs(tools, input, VIDEO_DEMUXERS, ['-t', String(previewDuration)]),
      '-filter_complex',
      graph,
      '-map',
      '[preview]',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-an',
      '-sn',
      '-dn',
      '-c:v',
      'libx264',
      '-preset',
      VIDEO_PREVIEW_PRESET,
      '-profile:v',
      'high',
      '-crf',
      String(VIDEO_PREVIEW_CRF),
      '-maxrate',
      VIDEO_PREVIEW_MAXRATE,
      '-bufsize',
      VIDEO_PREVIEW_BUFSIZE,
      '-threads',
      String(tools.threads),
      '-movflags',
      '+faststart',
      previewFile,
      '-map',
      '[storyboard]',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    {
      timeoutMs: VIDEO_RUN_TIMEOUT_MS,
      maxFileBytes: VIDEO_PREVIEW_MAX_BYTES,
      maxStdoutBytes: frameBytes * (wanted + 2),
      signal: options.signal,
      cwd: work,
      onStdout(chunk) {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= frameBytes) {
          if (frames.length < wanted) frames.push(pending.subarray(0, frameBytes));
          pending = pending.subarray(frameBytes);
        }
      },
    },
  );
  if (/partial file/i.test(stderr)) {
    throw new MediaRejectedError('damaged', 'The video file is incomplete: it ends before the data its header describes. Export it again and upload the whole file.');
  }
  if (frames.length === 0) throw new MediaRejectedError('damaged', 'No frame of the video could be decoded; the file may be damaged.');

  const preview = await adoptDerived(previewFile, outDir, 'mp4', 'video/mp4');
  const columns = Math.min(STORYBOARD_COLUMNS, frames.length);
  const rows = Math.ceil(frames.length / columns);
  const sprite = await sharp({ create: { width: columns * frameW, height: rows * frameH, channels: 3, background: '#000000' } })
    .composite(frames.map((data, i) => ({ input: data, raw: { width: frameW, height: frameH, channels: 3 as const }, left: (i % columns) * frameW, top: Math.floor(i / columns) * frameH })))
    .webp({ quality: STORYBOARD_QUALITY })
    .toBuffer();
  const storyboard = await writeDerived(outDir, sprite, 'webp', 'image/webp');
  return {
    preview: { ...preview, ...target, duration: previewDuration },
    storyboard: { ...storyboard, columns, rows, frames: frames.length, frameWidth: frameW, frameHeight: frameH, interval: previewDuration / frames.length },
  };
}

async function makePoster(
  tools: MediaTools,
  input: string,
  stream: ProbeStream,
  size: { width: number; height: number },
  duration: number,
  work: string,
  outDir: string,
  options: DeriveOptions,
): Promise<VideoPreview['poster']> {
  const target = fit(size, POSTER_MAX_SIDE, POSTER_MAX_SIDE);
  let best: { file: string; at: number; luma: number } | undefined;
  const tried = new Set<number>();
  for (const [i, share] of POSTER_POSITIONS.entries()) {
    const at = Math.round(duration * share * 1000) / 1000;
    if (tried.has(at)) continue; // a video of unknown duration has one position
    tried.add(at);
    const file = path.join(work, `poster-${i}.png`);
    await runTool(
      tools,
      tools.ffmpeg,
      [
        ...ffmpegGlobalArgs(tools),
        ...inputArgs(tools, input, VIDEO_DEMUXERS, at > 0 ? ['-ss', String(at)] : []),
        '-map',
        `0:${stream.index}`,
        '-vf',
        `thumbnail=${POSTER_WINDOW_FRAMES},scale=${target.width}:${target.height}:flags=bicubic,setsar=1`,
        '-frames:v',
        '1',
        '-map_metadata',
        '-1',
        '-c:v',
        'png',
        '-f',
        'image2',
        file,
      ],
      { timeoutMs: VIDEO_RUN_TIMEOUT_MS, maxFileBytes: target.width * target.height * 4 + 1024 * 1024, signal: options.signal, cwd: work },
    );
    const written = await fs.stat(file).catch(() => undefined);
    if (!written) continue; // past the end of a video whose duration was wrong
    const { channels } = await sharp(file).stats();
    const luma = 0.2126 * channels[0].mean + 0.7152 * channels[1].mean + 0.0722 * channels[2].mean;
    if (!best || luma > best.luma) best = { file, at, luma };
    if (luma >= POSTER_MIN_LUMA) break;
  }
  if (!best) throw new MediaRejectedError('damaged', 'No frame of the video could be decoded for a poster; the file may be damaged.');
  const image = await processThumbnail(best.file).catch((error: unknown) => {
    throw error instanceof ImageRejectedError ? new MediaRejectedError('damaged', `The poster frame could not be made: ${error.message}`) : error;
  });
  const variants = await Promise.all(
    image.variants.map(async (v) => ({ ...(await writeDerived(outDir, v.data, v.format, v.contentType)), width: v.width, height: v.height, format: v.format })),
  );
  return { at: best.at, variants, placeholder: image.placeholder };
}
