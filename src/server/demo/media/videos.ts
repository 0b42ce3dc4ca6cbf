import fs from 'node:fs/promises';
import path from 'node:path';
import { ffmpegGlobalArgs, FfmpegError, type MediaTools, runTool } from '../../media/ffmpeg';

/**
 * Demo videos from ffmpeg's synthetic sources (lavfi: test patterns, fractals, cellular automata,
 * gradients, plasma), each with motion, short and small, encoded as H.264 MP4. Skipped (with the
 * reason) when ffmpeg is not installed.
 */

export const DEMO_VIDEO_SECONDS = 4;
export const DEMO_VIDEO_SIZE = '640x360';
export const DEMO_VIDEO_RATE = 30;
/** Videos made at once (one per core of a small server). */
const PARALLEL = 2;
const RUN_TIMEOUT_MS = 60_000;

const S = DEMO_VIDEO_SIZE;
const R = DEMO_VIDEO_RATE;
const HALF = '320x180';
const QUARTER = '192x108';

/** Named lavfi graphs; the last output is the video. */
export const VIDEO_SOURCES: { name: string; graph: string }[] = [
  { name: 'Test Pattern', graph: `testsrc2=s=${S}:r=${R}` },
  { name: 'Mandelbrot Zoom', graph: `mandelbrot=s=${HALF}:r=${R}:maxiter=160,scale=${S}:flags=bicubic` },
  { name: 'Game of Life', graph: `life=s=160x90:r=${R}:ratio=0.12:mold=12:life_color=#ffcc33:death_color=#6622aa:mold_color=#112244,scale=${S}:flags=neighbor` },
  { name: 'Flowing Gradients', graph: `gradients=s=${S}:r=${R}:c0=0x3a0ca3:c1=0xf72585:c2=0x4cc9f0:nb_colors=3:speed=0.04` },
  { name: 'Cellular Automaton', graph: `cellauto=s=${HALF}:r=${R}:rule=110:scroll=1,scale=${S}:flags=neighbor,negate` },
  { name: 'Sierpinski Carpet', graph: `sierpinski=s=${S}:r=${R}:type=carpet:jump=40` },
  { name: 'Color Bars Cycle', graph: `smptehdbars=s=${S}:r=${R},hue=H=2*PI*t/${DEMO_VIDEO_SECONDS}` },
  {
    name: 'Plasma',
    graph: `nullsrc=s=${QUARTER}:r=${R},geq=r='128+127*sin(X/11+T*2.1)':g='128+127*sin(Y/8+T*2.9)':b='128+127*sin((X+Y)/14+T*1.3)',scale=${S}:flags=bicubic`,
  },
  {
    name: 'Bouncing Block',
    graph: `color=c=0x14213d:s=${S}:r=${R}[bg];color=c=0xfca311:s=90x90:r=${R}[fg];[bg][fg]overlay=x='abs(mod(t*420,1100)-550)':y='abs(mod(t*300,540)-270)':shortest=1`,
  },
  { name: 'Spinning Spectrum', graph: `rgbtestsrc=s=${S}:r=${R},rotate=a=t*0.9:c=black` },
  { name: 'Rule 30 Rain', graph: `cellauto=s=${HALF}:r=${R}:rule=30:scroll=1,scale=${S}:flags=neighbor,colorchannelmixer=rr=0.2:gg=0.9:bb=0.6` },
  {
    name: 'Deep Zoom',
    graph: `mandelbrot=s=${HALF}:r=${R}:maxiter=256:start_x=-0.743643887037151:start_y=0.13182590420533:start_scale=0.5:end_scale=0.002:end_pts=${DEMO_VIDEO_SECONDS * R},scale=${S}:flags=bicubic`,
  },
];

export interface DemoVideos {
  videos: { name: string; file: string }[];
  /** Why none were made (ffmpeg missing), for the one line the seed prints. */
  skipped?: string;
}

/** Writes the demo videos into `dir` as `<slug>.mp4`. */
export async function makeDemoVideos(tools: MediaTools, dir: string, signal?: AbortSignal): Promise<DemoVideos> {
  const videos: { name: string; file: string }[] = [];
  const queue = [...VIDEO_SOURCES];
  try {
    // allSettled, not all: on a stop every run is waited for until its ffmpeg has exited, so none
    // outlives the job that started it.
    const runs = await Promise.allSettled(
      Array.from({ length: PARALLEL }, async () => {
        for (let source = queue.shift(); source; source = queue.shift()) {
          const file = path.join(dir, `${source.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mp4`);
          await runTool(
            tools,
            tools.ffmpeg,
            [
              ...ffmpegGlobalArgs(tools),
              '-f',
              'lavfi',
              '-t',
              String(DEMO_VIDEO_SECONDS),
              '-i',
              source.graph,
              '-c:v',
              'libx264',
              '-preset',
              'veryfast',
              '-crf',
              '26',
              '-pix_fmt',
              'yuv420p',
              '-threads',
              '1',
              '-movflags',
              '+faststart',
              file,
            ],
            { timeoutMs: RUN_TIMEOUT_MS, signal },
          );
          videos.push({ name: source.name, file });
        }
      }),
    );
    const failed = runs.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    if (error instanceof FfmpegError && error.failure === 'missing') {
      await Promise.all(videos.map((v) => fs.rm(v.file, { force: true })));
      return { videos: [], skipped: 'ffmpeg is not installed' };
    }
    throw error;
  }
  videos.sort((a, b) => VIDEO_SOURCES.findIndex((s) => s.name === a.name) - VIDEO_SOURCES.findIndex((s) => s.name === b.name));
  return { videos };
}
