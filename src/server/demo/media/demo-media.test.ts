import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../media/ffmpeg';
import { testMediaTools } from '../../testing/media-tools';
import { deriveFontPreview } from '../../media/font';
import { readCube } from '../../media/lut';
import { AUDIO_DEMUXERS } from '../../media/audio';
import { VIDEO_DEMUXERS } from '../../media/video';
import { sharedDemoMedia } from '../../testing/test-utils';
import { DEMO_MEDIA_VERSION, ensureDemoMedia } from './demo-media';
import { DEMO_FONT_PACKAGES } from './fonts';
import { DEMO_LUT_SIZE } from './luts';
import { PHOTO_HEIGHT, PHOTO_WIDTH } from '../../media/photos';
import { SOUNDS } from './sounds';
import { DEMO_VIDEO_SECONDS, VIDEO_SOURCES } from './videos';

const MIN_PER_KIND = 12;
const tools = testMediaTools();
const outDir = mkdtempSync(path.join(os.tmpdir(), 'rv-demo-media-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('demo media made on the machine', () => {
  it('makes at least 12 valid media of every kind, and reuses them on the next start', async () => {
    // Made once per run (test-utils.ts): the first ensureDemoMedia on the run's empty folder, made
    // by this file or by demo-previews.test.ts, whichever asked first; checked here either way.
    const { dataDir, first } = await sharedDemoMedia(tools);
    const { dir, manifest, generated } = first;
    expect(generated).toBe(true);
    expect(manifest.version).toBe(DEMO_MEDIA_VERSION);
    const at = (rel: string) => path.join(dir, rel);

    expect(manifest.sounds.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    for (const [i, sound] of manifest.sounds.entries()) {
      const info = await probe(tools, at(sound.file), AUDIO_DEMUXERS);
      expect(info.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'pcm_s16le', sample_rate: '44100', channels: 1 });
      expect(Number(info.format.duration)).toBeCloseTo(SOUNDS[i].seconds, 2);
    }

    expect(manifest.luts.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    const tables = new Set<string>();
    for (const lut of manifest.luts) {
      const cube = await readCube(at(lut.file));
      expect(cube).toMatchObject({ type: '3D', size: DEMO_LUT_SIZE, title: lut.name });
      tables.add(Buffer.from(cube.table.buffer).toString('base64'));
    }
    expect(tables.size, 'every grade is different').toBe(manifest.luts.length);

    expect(manifest.photoPairs.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    for (const pair of manifest.photoPairs) {
      const [before, after] = await Promise.all([sharp(at(pair.before)).stats(), sharp(at(pair.after)).stats()]);
      for (const file of [pair.before, pair.after]) {
        expect(await sharp(at(file)).metadata()).toMatchObject({ format: 'jpeg', width: PHOTO_WIDTH, height: PHOTO_HEIGHT });
      }
      const meanDiff = before.channels.reduce((sum, c, i) => sum + Math.abs(c.mean - after.channels[i].mean), 0);
      const spreadDiff = before.channels.reduce((sum, c, i) => sum + Math.abs(c.stdev - after.channels[i].stdev), 0);
      expect(meanDiff + spreadDiff, `${pair.name}: the after image is graded`).toBeGreaterThan(6);
    }
    expect(manifest.samplePhotos.length).toBeGreaterThanOrEqual(3);

    expect(manifest.videos.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    expect(manifest.videos.map((v) => v.name)).toEqual(VIDEO_SOURCES.map((s) => s.name));
    for (const video of manifest.videos) {
      const info = await probe(tools, at(video.file), VIDEO_DEMUXERS);
      expect(info.streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'h264', width: 640, height: 360, pix_fmt: 'yuv420p' });
      expect(Number(info.format.duration)).toBeCloseTo(DEMO_VIDEO_SECONDS, 0);
    }

    // Fonts come from npm packages: every one listed is either here (and a valid font) or named as skipped.
    expect(manifest.fonts.length + manifest.skipped.filter((s) => s.startsWith('Demo font skipped')).length).toBe(DEMO_FONT_PACKAGES.length);
    expect(DEMO_FONT_PACKAGES.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    const out = path.join(outDir, 'font-out');
    await fs.mkdir(out, { recursive: true });
    for (const font of manifest.fonts) {
      expect(font.license).toBe('OFL-1.1');
      const preview = await deriveFontPreview(at(font.file), out);
      expect(preview).toMatchObject({ sourceFormat: 'woff2', familyName: font.family, coversBasicLatin: true });
    }

    const again = await ensureDemoMedia(dataDir, tools);
    expect(again.generated).toBe(false);
    expect(again.manifest).toEqual(manifest);
  }, 600_000);

  it('without ffmpeg makes everything else and says the videos were skipped', async () => {
    // Made once per run too (demo-previews.test.ts's no-ffmpeg test reads the same set): the first
    // ensureDemoMedia without ffmpeg on the run's empty folder, whichever file asked first.
    const { first } = await sharedDemoMedia(testMediaTools({ ffmpeg: path.join(outDir, 'no-ffmpeg') }), 'no-ffmpeg');
    const { manifest, generated } = first;
    expect(generated).toBe(true);
    expect(manifest.videos).toEqual([]);
    expect(manifest.skipped).toContain('Demo videos skipped: ffmpeg is not installed.');
    expect(manifest.sounds.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
    expect(manifest.photoPairs.length).toBeGreaterThanOrEqual(MIN_PER_KIND);
  }, 300_000);

  it('stops its ffmpeg processes when its job is stopped, and leaves no half-made folder', async () => {
    const dataDir = path.join(outDir, 'stopped');
    // ffmpeg under a name of its own: the processes counted below are this job's, not another test
    // file's that ran earlier in this worker process (files share it: isolate is off).
    const ffmpeg = path.join(outDir, STOPPED_FFMPEG);
    symlinkSync(realpathSync(tools.ffmpeg), ffmpeg);
    const stop = new AbortController();
    const making = ensureDemoMedia(dataDir, { ...tools, ffmpeg }, stop.signal);
    making.catch(() => {}); // awaited below
    // Stopped once the first video is under way (the rest of the media are made in this process).
    const videosDir = async () => {
      for (const name of await fs.readdir(path.join(dataDir, 'demo-media')).catch(() => [])) {
        const dir = path.join(dataDir, 'demo-media', name, 'videos');
        if ((await fs.readdir(dir).catch(() => [])).length > 0) return dir;
      }
      return undefined;
    };
    await expect.poll(videosDir, { timeout: 30_000 }).toBeDefined();
    stop.abort(new Error('the server is stopping'));
    await expect(making).rejects.toMatchObject({ failure: 'aborted', message: expect.stringMatching(/the server is stopping/) as string });
    expect(await fs.readdir(path.join(dataDir, 'demo-media'))).toEqual([]);
    expect(ffmpegChildren(), 'ffmpeg processes left running').toEqual([]);
  }, 60_000);
});

/** The ffmpeg processes this process started that are still running. */
/** 15 characters at most: what /proc/PID/stat names a process by. */
const STOPPED_FFMPEG = 'stopped-ffmpeg';

function ffmpegChildren(): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(ppid) === process.pid && state !== 'Z' && stat.includes(`(${STOPPED_FFMPEG})`);
      } catch {
        return false;
      }
    });
}
