/**
 * `npx tsx bench/media.ts`: the preview derivations on a 60 s 1080p clip and a 60 s WAV, in the
 * same run beside two baselines:
 *
 * 1. "same ffmpeg runs, bare": the exact ffmpeg/ffprobe invocations ours made (recorded through a
 *    `prlimit` that logs its arguments), replayed directly — no prlimit, no pipes read, no sharp,
 *    no hashing. The difference is everything our code adds around ffmpeg.
 * 2. "by hand": the ffmpeg commands a person would type for the same outputs —
 *    video: ffprobe; the preview MP4 (same scale, encoder settings, fast start); the storyboard
 *    (ffmpeg's fps + tile into one WebP, a second decode); the poster at 10% (thumbnail filter)
 *    and its WebP and AVIF (libaom) at the thumbnail widths;
 *    audio: ffprobe; loudnorm's first pass; the AAC preview through loudnorm's second (linear)
 *    pass; the PCM the waveform peaks are read from, to a file.
 *
 * Each side runs BENCH_MEDIA_RUNS times (default 3), alternating; the median is printed, as wall
 * time and as CPU time (this process and its children), which holds up better when other work
 * shares the cores. The inputs are generated once into $TMPDIR/rv-bench-media/.
 * Goal (issue 15): ours at most 20% over "by hand", judged on CPU time (wall time moves with
 * whatever else runs on the machine). Part of `npm run bench` (--no-media skips it); alone:
 * `npx tsx bench/media.ts` (`-- --latency` for the second table only).
 *
 * Visitors while previews are made (decision 350): the category list under load (the server on
 * demo data, in its own process) with no preview being made, while the video preview of a 20 s
 * 720p clip is made over and over as the server's jobs make it (niceness 19, cores − 1 threads), and while
 * it is made at the server's own priority with two threads (how ffmpeg ran before). Each side
 * BENCH_MEDIA_RUNS times, alternating, for BENCH_DURATION seconds (default 5); the median p99 and
 * rate are printed beside each other.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AUDIO_PREVIEW_BITRATE, AUDIO_PREVIEW_SECONDS, deriveAudioPreview, LOUDNESS_TARGET_LUFS, PEAKS_SAMPLE_RATE, TRUE_PEAK_CEILING_DB } from '../src/server/media/audio';
import { type MediaTools, mediaTools } from '../src/server/media/ffmpeg';
import { THUMBNAIL_WIDTHS, WEBP_QUALITY } from '../src/server/media/images';
import { pcmWav } from '../src/server/testing/test-media';
import { type Load, load, startServer } from './harness';
import { API_MEASURES } from './measures';
import {
  deriveVideoPreview,
  POSTER_WINDOW_FRAMES,
  STORYBOARD_COLUMNS,
  STORYBOARD_FRAME_WIDTH,
  STORYBOARD_FRAMES,
  VIDEO_PREVIEW_BUFSIZE,
  VIDEO_PREVIEW_CRF,
  VIDEO_PREVIEW_MAXRATE,
  VIDEO_PREVIEW_PRESET,
  VIDEO_PREVIEW_SECONDS,
} from '../src/server/media/video';

const run = promisify(execFile);
const INPUTS = path.join(os.tmpdir(), 'rv-bench-media');
const TRACE = path.join(INPUTS, 'ffmpeg-runs.trace');
const TRACING_PRLIMIT = path.join(INPUTS, 'tracing-prlimit.sh');
const REAL_PRLIMIT = mediaTools().prlimit;
/** Ours, with every ffmpeg run's arguments recorded on the way to the real prlimit. */
const tools = mediaTools({ prlimit: TRACING_PRLIMIT });
const RUNS = Number(process.env.BENCH_MEDIA_RUNS ?? 3);
const CLIP = path.join(INPUTS, 'clip-1080p-60s.mp4');
const WAV = path.join(INPUTS, 'sound-60s.wav');
const SECONDS = 60;

const ffmpeg = (args: string[]) => run(tools.ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], { maxBuffer: 64 * 1024 * 1024 });
const ffprobe = (file: string) => run(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);

/** CPU seconds of this process and of its children that have exited (Linux: /proc/self/stat). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = 100; // USER_HZ on Linux
  const children = (Number(fields[13]) + Number(fields[14])) / ticks; // cutime, cstime
  const self = process.cpuUsage();
  return children + (self.user + self.system) / 1e6;
}

async function measure(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = cpuSeconds();
  const start = performance.now();
  await work();
  return { wall: (performance.now() - start) / 1000, cpu: cpuSeconds() - cpu };
}

async function makeInputs() {
  await fs.mkdir(INPUTS, { recursive: true });
  if (!REAL_PRLIMIT) throw new Error('prlimit (util-linux) is needed: ours runs ffmpeg under it');
  await fs.writeFile(TRACING_PRLIMIT, `#!/bin/sh\nprintf '%s\\0' "$@" "--end--" >> '${TRACE}'\nexec '${REAL_PRLIMIT}' "$@"\n`, { mode: 0o755 });
  if (!existsSync(CLIP)) {
    console.log('Making the 60 s 1080p clip (once)…');
    // Motion, fine detail and a noise layer, so it decodes like camera footage rather than flat colour.
    await ffmpeg([
      '-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=30:d=${SECONDS},noise=alls=7:allf=t`,
      '-f', 'lavfi', '-i', `sine=f=220:d=${SECONDS}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', `${CLIP}.part.mp4`,
    ]);
    await fs.rename(`${CLIP}.part.mp4`, CLIP);
  }
  if (!existsSync(WAV)) {
    const rate = 48_000;
    const left = new Float32Array(rate * SECONDS);
    const right = new Float32Array(rate * SECONDS);
    let seed = 1;
    const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
    for (let i = 0; i < left.length; i++) {
      const t = i / rate;
      const beat = Math.exp(-(t % 0.5) * 12);
      const chord = 0.15 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277.2 * t) + Math.sin(2 * Math.PI * 329.6 * t));
      left[i] = 0.25 * chord + 0.3 * beat * noise();
      right[i] = 0.25 * chord + 0.3 * beat * noise();
    }
    await fs.writeFile(WAV, pcmWav([left, right], rate));
  }
}

async function bareVideo(out: string) {
  const probe = JSON.parse((await ffprobe(CLIP)).stdout) as { format: { duration: string } };
  const duration = Number(probe.format.duration);
  const preview = Math.min(duration, VIDEO_PREVIEW_SECONDS);
  await ffmpeg([
    '-t', String(preview), '-i', CLIP, '-vf', 'scale=1280:720:flags=bicubic,setsar=1,format=yuv420p', '-an', '-sn', '-dn', '-map_metadata', '-1',
    '-c:v', 'libx264', '-preset', VIDEO_PREVIEW_PRESET, '-profile:v', 'high', '-crf', String(VIDEO_PREVIEW_CRF),
    '-maxrate', VIDEO_PREVIEW_MAXRATE, '-bufsize', VIDEO_PREVIEW_BUFSIZE, '-movflags', '+faststart', path.join(out, 'preview.mp4'),
  ]);
  const rows = Math.ceil(STORYBOARD_FRAMES / STORYBOARD_COLUMNS);
  await ffmpeg([
    '-t', String(preview), '-i', CLIP,
    '-vf', `fps=${STORYBOARD_FRAMES / preview},scale=${STORYBOARD_FRAME_WIDTH}:-2,tile=${STORYBOARD_COLUMNS}x${rows}`,
    '-frames:v', '1', '-c:v', 'libwebp', '-quality', '70', path.join(out, 'storyboard.webp'),
  ]);
  const poster = path.join(out, 'poster.png');
  await ffmpeg(['-ss', String(duration * 0.1), '-i', CLIP, '-vf', `thumbnail=${POSTER_WINDOW_FRAMES},scale=1600:-2`, '-frames:v', '1', poster]);
  for (const width of THUMBNAIL_WIDTHS) {
    await ffmpeg(['-i', poster, '-vf', `scale=${width}:-2`, '-c:v', 'libwebp', '-quality', String(WEBP_QUALITY), path.join(out, `poster-${width}.webp`)]);
    await ffmpeg(['-i', poster, '-vf', `scale=${width}:-2`, '-c:v', 'libaom-av1', '-still-picture', '1', '-cpu-used', '7', '-crf', '32', path.join(out, `poster-${width}.avif`)]);
  }
}

async function bareAudio(out: string) {
  await ffprobe(WAV);
  const t = ['-t', String(AUDIO_PREVIEW_SECONDS)];
  const loudnorm = `loudnorm=I=${LOUDNESS_TARGET_LUFS}:TP=${TRUE_PEAK_CEILING_DB}`;
  const { stderr } = await run(tools.ffmpeg, ['-hide_banner', '-nostdin', ...t, '-i', WAV, '-af', `${loudnorm}:print_format=json`, '-f', 'null', '-']);
  const m = JSON.parse(/\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)![0]) as Record<string, string>;
  const measured = `measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true`;
  await ffmpeg([...t, '-i', WAV, '-af', `${loudnorm}:${measured}`, '-ar', '48000', '-c:a', 'aac', '-b:a', AUDIO_PREVIEW_BITRATE, '-movflags', '+faststart', path.join(out, 'preview.m4a')]);
  await ffmpeg([...t, '-i', WAV, '-ar', String(PEAKS_SAMPLE_RATE), '-f', 's16le', path.join(out, 'peaks.pcm')]);
}

/** The runs recorded since the trace was cleared: each [binary, ...arguments] without prlimit's own. */
async function recordedRuns(): Promise<string[][]> {
  const parts = (await fs.readFile(TRACE, 'utf8')).split('\0');
  const runs: string[][] = [];
  let current: string[] = [];
  for (const part of parts) {
    if (part === '--end--') {
      runs.push(current.slice(current.indexOf('--') + 1));
      current = [];
    } else current.push(part);
  }
  return runs;
}

/** Replays recorded runs as they were, in a fresh copy of the directories they wrote into. */
function replay(runs: string[][], from: string) {
  return async (out: string) => {
    const redirect = (arg: string) => arg.split(from).join(out);
    for (const [bin, ...args] of runs) {
      for (const arg of args) {
        const target = redirect(arg).replace(/^file:/, '');
        if (target.startsWith(out)) await fs.mkdir(path.dirname(target), { recursive: true });
      }
      await run(bin, args.map(redirect), { maxBuffer: 256 * 1024 * 1024 });
    }
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

type Side = (out: string) => Promise<unknown>;

/** Ours at most this much over the bare ffmpeg commands for the same outputs (CPU time). */
export const MEDIA_OVERHEAD_GOAL = 0.2;

export interface MediaRow {
  input: string;
  /** Median wall and CPU seconds per side: ours, the same ffmpeg runs bare, and by hand. */
  sides: Record<string, { wall: number; cpu: number }>;
}

async function compare(name: string, ours: Side, byHand: Side): Promise<MediaRow> {
  // Ours once first, to record the ffmpeg runs it makes (the same on every run of the same input).
  await fs.rm(TRACE, { force: true });
  const first = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-media-ours-'));
  await ours(first);
  await fs.rm(first, { recursive: true, force: true });
  const sameRuns = replay(await recordedRuns(), first);

  const sides: Record<string, Side> = { ours, 'same ffmpeg runs, bare': sameRuns, 'by hand': byHand };
  const results: Record<string, { wall: number; cpu: number }[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [label, side] of Object.entries(sides)) {
      const out = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-media-run-'));
      try {
        results[label].push(await measure(() => side(out)));
      } finally {
        await fs.rm(out, { recursive: true, force: true });
      }
    }
  }
  const med = (label: string) => ({ wall: median(results[label].map((r) => r.wall)), cpu: median(results[label].map((r) => r.cpu)) });
  return { input: name, sides: Object.fromEntries(Object.keys(sides).map((label) => [label, med(label)])) };
}

/** Both inputs through ours and the two baselines (makes the inputs first, once). */
export async function mediaBench(): Promise<MediaRow[]> {
  await makeInputs();
  return [
    await compare('60 s 1080p H.264 clip → video preview', (out) => deriveVideoPreview(tools, CLIP, out), bareVideo),
    await compare('60 s 48 kHz stereo WAV → audio preview', (out) => deriveAudioPreview(tools, WAV, out), bareAudio),
  ];
}

export function formatMediaBench(rows: MediaRow[]): string {
  const pct = (x: number, y: number) => `${x >= y ? '+' : ''}${(((x - y) / y) * 100).toFixed(0)}%`;
  const lines = [
    `Preview processing: ours beside bare ffmpeg for the same outputs, median of ${RUNS}; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    `goal: ours at most ${MEDIA_OVERHEAD_GOAL * 100}% over "by hand" in CPU time (this process and its children)`,
    '',
    '| input | run | wall s | ours vs this | CPU s | ours vs this (CPU) | result |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const o = r.sides.ours;
    for (const [label, m] of Object.entries(r.sides)) {
      const vs = label === 'ours' ? ['', ''] : [pct(o.wall, m.wall), pct(o.cpu, m.cpu)];
      const result = label === 'by hand' ? (o.cpu <= m.cpu * (1 + MEDIA_OVERHEAD_GOAL) ? 'pass' : 'FAIL') : '';
      lines.push(`| ${r.input} | ${label} | ${m.wall.toFixed(2)} | ${vs[0]} | ${m.cpu.toFixed(2)} | ${vs[1]} | ${result} |`);
    }
  }
  return lines.join('\n');
}

const LOAD_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export interface LatencyRow {
  side: string;
  /** Median of the runs. */
  load: Load;
}

/** A 20 s 720p clip the latency measure makes previews of, over and over (quick to generate). */
const BUSY_CLIP = path.join(INPUTS, 'clip-720p-20s.mp4');

/** Makes a video preview over and over with `tools` until the returned stop() is called. */
function previewsInBackground(tools: MediaTools): () => Promise<void> {
  const controller = new AbortController();
  const loop = (async () => {
    while (!controller.signal.aborted) {
      const out = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-media-busy-'));
      try {
        await deriveVideoPreview(tools, BUSY_CLIP, out, { signal: controller.signal });
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      } finally {
        await fs.rm(out, { recursive: true, force: true });
      }
    }
  })();
  return async () => {
    controller.abort(new Error('load done'));
    await loop;
  };
}

/** The category list's latency with no preview being made, and while one is made with the server's settings and with the old ones. */
export async function latencyBench(): Promise<LatencyRow[]> {
  await fs.mkdir(INPUTS, { recursive: true });
  if (!existsSync(BUSY_CLIP)) {
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=30:d=20', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', `${BUSY_CLIP}.part.mp4`]);
    await fs.rename(`${BUSY_CLIP}.part.mp4`, BUSY_CLIP);
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rv-bench-media-server-'));
  // The server makes no previews of its own (its demo previews would run in every column).
  const app = await startServer('app-server.ts', { DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: 'warn', SEED_DEMO: 'true', MEDIA_JOBS_CONCURRENCY: '0' });
  const list = API_MEASURES.find((m) => m.name === 'category list')!;
  const polite = mediaTools();
  const before = mediaTools({ nice: null, threads: 2 });
  const sides: [string, MediaTools | null][] = [
    ['no preview job running', null],
    [`a video preview being made (niceness ${polite.niceness}, ${polite.threads} thread${polite.threads === 1 ? '' : 's'})`, polite],
    [`a video preview at the server's priority, ${before.threads} threads (before)`, before],
  ];
  try {
    await load(app, list, 1, LOAD_CONNECTIONS); // warm-up
    const results = new Map<string, Load[]>(sides.map(([label]) => [label, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const [label, tools] of sides) {
        const stop = tools ? previewsInBackground(tools) : async () => {};
        try {
          results.get(label)!.push(await load(app, list, LOAD_SECONDS, LOAD_CONNECTIONS));
        } finally {
          await stop();
        }
      }
    }
    return sides.map(([label]) => {
      const runs = results.get(label)!;
      const med = (f: (l: Load) => number) => median(runs.map(f));
      return { side: label, load: { reqPerSec: med((l) => l.reqPerSec), p50: med((l) => l.p50), p99: med((l) => l.p99), cpuPerRequest: med((l) => l.cpuPerRequest), failures: runs.reduce((n, l) => n + l.failures, 0) } };
    });
  } finally {
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function formatLatencyBench(rows: LatencyRow[]): string {
  const idle = rows[0]!.load;
  const lines = [
    `Visitors while previews are made: GET /api/categories, ${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s, median of ${RUNS}; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    '',
    '| while | req/s | vs none | p50 ms | p99 ms | failures |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.side} | ${r.load.reqPerSec.toFixed(0)} | ${((r.load.reqPerSec / idle.reqPerSec) * 100).toFixed(0)}% | ${r.load.p50.toFixed(1)} | ${r.load.p99.toFixed(1)} | ${r.load.failures} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--latency')) console.log(`\n${formatMediaBench(await mediaBench())}\n`);
  console.log(`\n${formatLatencyBench(await latencyBench())}\n`);
}
