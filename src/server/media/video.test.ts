import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { MediaRejectedError } from './derived';
import { parseRate, probe } from './ffmpeg';
import { testMediaTools } from '../testing/media-tools';
import { boxAt, H264, makeClip, quarterTurn } from '../testing/test-media';
import { deriveVideoPreview, POSTER_MIN_LUMA, STORYBOARD_FRAMES, VIDEO_DEMUXERS, VIDEO_PREVIEW_MAX_FPS, VIDEO_PREVIEW_SECONDS } from './video';

const tools = testMediaTools();
const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function outDir(name: string) {
  const out = path.join(dir, name);
  await fs.mkdir(out);
  return out;
}

describe('video preview', () => {
  it('makes a muted fast-start H.264 preview, a storyboard, and a poster that is not the black opening', async () => {
    // 1.2 s of black, then a moving test pattern, with sound.
    const source = await makeClip(
      tools,
      path.join(dir, 'black-start.mp4'),
      'color=c=black:s=320x240:r=25:d=1.2[a];testsrc2=s=320x240:r=25:d=2.8[b];[a][b]concat=n=2:v=1:a=0[v];sine=f=440:d=4[out1];[v]null[out0]',
      4,
      [...H264, '-c:a', 'aac'],
    );
    const out = await outDir('black-start');
    const preview = await deriveVideoPreview(tools, source, out);

    expect(preview).toMatchObject({ kind: 'video', width: 320, height: 240 });
    expect(preview.duration).toBeCloseTo(4, 1);
    const info = await probe(tools, preview.preview.path, VIDEO_DEMUXERS);
    expect(info.streams.map((s) => s.codec_type), 'muted').toEqual(['video']);
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 320, height: 240 });
    const bytes = readFileSync(preview.preview.path);
    expect(boxAt(bytes, 'moov'), 'fast start: the index before the media').toBeLessThan(boxAt(bytes, 'mdat'));
    expect(preview.preview.fileName).toMatch(/^[0-9a-f]{32}\.mp4$/);

    const sb = preview.storyboard;
    expect(sb.frames).toBe(STORYBOARD_FRAMES);
    expect(sb.columns * sb.rows).toBeGreaterThanOrEqual(sb.frames);
    expect(await sharp(sb.path).metadata()).toMatchObject({ format: 'webp', width: sb.columns * sb.frameWidth, height: sb.rows * sb.frameHeight });
    expect(sb.interval * sb.frames).toBeCloseTo(preview.preview.duration, 5);

    // 10% in is still black: the poster is taken further in, and is not black.
    expect(preview.poster.at).toBeGreaterThanOrEqual(1.2);
    const largest = preview.poster.variants.filter((v) => v.format === 'webp').at(-1)!;
    const { channels } = await sharp(largest.path).stats();
    expect(0.2126 * channels[0].mean + 0.7152 * channels[1].mean + 0.0722 * channels[2].mean).toBeGreaterThan(POSTER_MIN_LUMA);
    expect(preview.poster.placeholder.dataUri).toMatch(/^data:image\/webp;base64,/);
  }, 120_000);

  it('keeps the preview within 1280 × 720 (turned for portrait), at most 30 fps and 10 seconds', async () => {
    const wide = await makeClip(tools, path.join(dir, 'wide.mp4'), 'testsrc2=s=2000x400:r=25', 0.4, H264);
    const fitted = await deriveVideoPreview(tools, wide, await outDir('wide'));
    expect(fitted).toMatchObject({ width: 2000, height: 400, preview: { width: 1280, height: 256 } });
    expect((await probe(tools, fitted.preview.path, VIDEO_DEMUXERS)).streams[0]).toMatchObject({ width: 1280, height: 256 });

    const long = await makeClip(tools, path.join(dir, 'long.mp4'), 'testsrc2=s=160x90:r=60', 12, H264);
    const capped = await deriveVideoPreview(tools, long, await outDir('long'));
    const info = await probe(tools, capped.preview.path, VIDEO_DEMUXERS);
    expect(parseRate(info.streams[0].avg_frame_rate)).toBeCloseTo(VIDEO_PREVIEW_MAX_FPS, 0);
    expect(Number(info.format.duration)).toBeCloseTo(VIDEO_PREVIEW_SECONDS, 0);
    expect(capped).toMatchObject({ duration: 12, preview: { duration: VIDEO_PREVIEW_SECONDS } });

    // A phone video: stored landscape with a quarter turn in its header, shown portrait.
    const stored = await makeClip(tools, path.join(dir, 'stored.mp4'), 'testsrc2=s=320x180:r=25', 0.4, H264);
    const turned = path.join(dir, 'turned.mp4');
    await fs.writeFile(turned, quarterTurn(await fs.readFile(stored)));
    const portrait = await deriveVideoPreview(tools, turned, await outDir('turned'));
    expect(portrait).toMatchObject({ width: 180, height: 320, preview: { width: 180, height: 320 } });
    expect((await probe(tools, portrait.preview.path, VIDEO_DEMUXERS)).streams[0]).toMatchObject({ width: 180, height: 320 });
  }, 240_000);

  it('makes a storyboard of the frames there are for a very short video', async () => {
    const short = await makeClip(tools, path.join(dir, 'short.mp4'), 'testsrc2=s=160x120:r=10', 0.5, H264);
    const preview = await deriveVideoPreview(tools, short, await outDir('short'));
    expect(preview.storyboard.frames).toBeGreaterThan(0);
    expect(preview.storyboard.frames).toBeLessThanOrEqual(STORYBOARD_FRAMES);
    expect(preview.storyboard.frames).toBeLessThanOrEqual(6);
  }, 60_000);

  it('fails with "ffmpeg is not installed" without ffmpeg', async () => {
    const source = await makeClip(tools, path.join(dir, 'any.mp4'), 'testsrc2=s=64x64:r=5', 0.4, H264);
    const missing = testMediaTools({ ffmpeg: path.join(dir, 'none'), ffprobe: path.join(dir, 'none-probe') });
    const error = await deriveVideoPreview(missing, source, await outDir('missing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaRejectedError);
    expect(error).toMatchObject({ reason: 'ffmpeg_missing', message: 'ffmpeg is not installed' });
  });
});
