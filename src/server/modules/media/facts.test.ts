import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { isoDuration, scriptsOf } from '../../../contract/facts';
import type { PublicResource, Resource } from '../../../contract/resources';
import { deriveAudioPreview } from '../../media/audio';
import { deriveFontPreview } from '../../media/font';
import { deriveImagePairPreview } from '../../media/image-pair';
import { deriveLutPreview } from '../../media/lut';
import { deriveVideoPreview } from '../../media/video';
import { type FilesTestApp, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { testMediaTools } from '../../testing/media-tools';
import { blockGlyphs, buildTtf } from '../../testing/test-fonts';
import { H264, makeClip, pcmWav, sine } from '../../testing/test-media';
import { TEST_DATABASES } from '../../testing/test-utils';
import { previewFacts } from './preview-answers';

/**
 * The facts each preview job reads from its file (contract/facts.ts), from real small media made
 * here, as the API shows them (previewFacts of the stored preview), and through the API on both
 * databases for a hosted video that previews itself.
 */

const tools = testMediaTools();
const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = async (name: string) => {
  const d = path.join(dir, name);
  await fs.mkdir(d);
  return d;
};
const factsOf = (preview: object) => previewFacts(JSON.stringify(preview));

describe('facts read by the preview jobs', () => {
  it('a portrait video with sound: duration, size, frame rate, orientation, sound, format', async () => {
    const clip = await makeClip(tools, path.join(dir, 'portrait.mp4'), 'testsrc2=s=240x320:r=30000/1001:d=2[out0];sine=f=440:d=2[out1]', 2, [...H264, '-c:a', 'aac']);
    const facts = factsOf(await deriveVideoPreview(tools, clip, await out('portrait')));
    expect(facts).toMatchObject({ kind: 'video', width: 240, height: 320, orientation: 'portrait', has_sound: true, encoding_format: 'video/mp4' });
    if (facts?.kind !== 'video') throw new Error('not a video');
    expect(facts.frame_rate).toBeCloseTo(29.97, 2);
    expect(facts.duration).toBeCloseTo(2, 1);
  }, 60_000);

  it('a silent square WebM at 25 fps has no sound', async () => {
    const clip = await makeClip(tools, path.join(dir, 'square.webm'), 'testsrc2=s=200x200:r=25', 1, ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8']);
    expect(factsOf(await deriveVideoPreview(tools, clip, await out('square')))).toMatchObject({
      kind: 'video',
      orientation: 'square',
      frame_rate: 25,
      has_sound: false,
      encoding_format: 'video/x-matroska',
    });
  }, 60_000);

  it('a stereo sound: duration, channels, sample rate, loudness', async () => {
    const left = sine(6, 48_000, 440, () => 0.3);
    const file = path.join(dir, 'tone.wav');
    writeFileSync(file, pcmWav([left, sine(6, 48_000, 660, () => 0.3)], 48_000));
    const facts = factsOf(await deriveAudioPreview(tools, file, await out('tone')));
    expect(facts).toMatchObject({ kind: 'audio', channels: 2, sample_rate: 48_000, encoding_format: 'audio/wav' });
    if (facts?.kind !== 'audio') throw new Error('not a sound');
    expect(facts.duration).toBeCloseTo(6, 1);
    // Two sines at 0.3 (about −10.5 dBFS each): an integrated loudness well inside −20…−5 LUFS.
    expect(facts.loudness_lufs).toBeGreaterThan(-20);
    expect(facts.loudness_lufs).toBeLessThan(-5);
  }, 60_000);

  it('a font: family, style, weight, glyph count and the scripts its characters cover', async () => {
    const latin = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const cyrillic = Array.from({ length: 64 }, (_, i) => String.fromCodePoint(0x410 + i)).join('');
    const greekFew = 'αβγδε';
    const file = path.join(dir, 'multi.ttf');
    writeFileSync(file, buildTtf({ familyName: 'Block Multi', subfamilyName: 'Bold', weight: 700, glyphs: blockGlyphs(latin + cyrillic + greekFew) }));
    expect(factsOf(await deriveFontPreview(file, await out('font')))).toEqual({
      kind: 'font',
      family: 'Block Multi',
      styles: ['Bold'],
      weights: [700],
      glyph_count: 1 + latin.length + cyrillic.length + greekFew.length + 1,
      scripts: ['latin', 'cyrillic'],
      axes: {},
    });
  });

  it('a LUT: its grid size; a before/after pair: its dimensions and orientation', async () => {
    const size = 5;
    const cube = [`LUT_3D_SIZE ${size}`, ...Array.from({ length: size ** 3 }, (_, i) => `${(i % size) / (size - 1)} ${(Math.floor(i / size) % size) / (size - 1)} ${Math.floor(i / size ** 2) / (size - 1)}`)].join('\n');
    const lutFile = path.join(dir, 'look.cube');
    writeFileSync(lutFile, cube);
    expect(factsOf(await deriveLutPreview(lutFile, await out('lut')))).toEqual({ kind: 'lut', type: '3D', grid_size: 5 });

    const photo = async (name: string) => {
      const file = path.join(dir, name);
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#446688' } }).jpeg().toFile(file);
      return file;
    };
    const pair = await deriveImagePairPreview(await photo('before.jpg'), await photo('after.jpg'), await out('pair'));
    expect(factsOf(pair)).toEqual({ kind: 'image-pair', width: 900, height: 600, orientation: 'landscape' });
  });

  it('a preview stored before these facts were read keeps what it had and says null for the rest', () => {
    const old = { kind: 'video', width: 1920, height: 1080, duration: 12.5, preview: {}, poster: { variants: [] }, storyboard: {} };
    expect(factsOf(old)).toEqual({ kind: 'video', duration: 12.5, width: 1920, height: 1080, orientation: 'landscape', frame_rate: null, has_sound: null, encoding_format: null });
    expect(previewFacts('not json')).toBeNull();
    expect(previewFacts(null)).toBeNull();
  });

  it('scripts need enough of a block, and durations read in ISO 8601', () => {
    expect(scriptsOf([0x41, 0x42, 0x3b1])).toEqual([]);
    expect(scriptsOf(Array.from({ length: 1200 }, (_, i) => 0x4e00 + i))).toEqual(['han']);
    expect([isoDuration(7), isoDuration(65.5), isoDuration(3723), isoDuration(0)]).toEqual(['PT7S', 'PT1M6S', 'PT1H2M3S', 'PT0S']);
  });
});

describe.each(TEST_DATABASES)('facts through the API on %s', (kind) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a hosted video download that previews itself shows its facts (null until the preview is ready)', async () => {
    const file = await makeClip(tools, path.join(dir, `api-${kind}.mp4`), 'testsrc2=s=320x180:r=24:d=2[out0];sine=f=220:d=2[out1]', 2, [...H264, '-c:a', 'aac']);
    const upload = await tusUpload(t, readFileSync(file), { name: 'Clip.mp4' });
    const created = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: t.admin.cookie },
      payload: { title: 'Clip', description: 'A clip', category: 'motion_graphics', thumbnail_url: 'https://img.example.com/t.png', tags: [], download_upload_id: upload.id, preview_source: { kind: 'video', from_download: true } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Resource>().id;
    expect(created.json<Resource>().facts).toBeNull();
    const end = Date.now() + 120_000;
    let seen: PublicResource;
    for (;;) {
      seen = (await t.app.inject({ method: 'GET', url: API.resource(id) })).json<PublicResource>();
      if (seen.facts) break;
      if (Date.now() > end) throw new Error('no facts');
      await delay(100);
    }
    expect(seen.facts).toMatchObject({ kind: 'video', width: 320, height: 180, orientation: 'landscape', frame_rate: 24, has_sound: true, encoding_format: 'video/mp4' });
    // A video download is no archive: its name and size, and no listing.
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url: API.resource(id) })).json<PublicResource>().contents, { timeout: 30_000 }).toMatchObject({ status: 'not-zip' });
  }, 150_000);
});
