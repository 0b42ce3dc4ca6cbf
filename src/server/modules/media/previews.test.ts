import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { testMediaTools } from '../../testing/media-tools';
import { buildTtf, toWoff } from '../../testing/test-fonts';
import { claimDuration, H264, makeClip, matroskaClaiming, pcmWav, sine, wavHeader } from '../../testing/test-media';
import { enqueueJob, getJob, type JobDefinition } from '../../jobs/queue';
import { JobRunner } from '../../jobs/runner';
import type { FileStore } from '../../storage/file-store';
import { LocalFileStore } from '../../storage/local';
import { PREVIEW_SOURCE_LIMITS, previewJobs } from './previews';
import { MEDIA_KEY_PREFIX, mediaKey } from '../../storage/keys';

/**
 * The preview jobs end to end through the job runner, with the local-disk file store: good
 * media of each kind becomes a stored preview, and every hostile or broken file becomes a failed
 * job with a clear reason while this process carries on.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'rv-previews-'));
/** The store's root: sources are put under `sources/`, previews land under `media/`. */
const storeRoot = path.join(root, 'files');
const stored = path.join(storeRoot, MEDIA_KEY_PREFIX);
const tmpDir = path.join(root, 'tmp');
const tools = testMediaTools();
const files = new LocalFileStore(storeRoot);

let database: Database;
let runner: JobRunner;
let jobs: Map<string, JobDefinition>;

beforeAll(async () => {
  await fs.mkdir(tmpDir, { recursive: true });
  database = await openDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(database.db, database.dialect);
  const definitions = previewJobs({ files, tools, tmpDir });
  jobs = new Map(definitions.map((d) => [d.kind, d]));
  runner = new JobRunner({ database, jobs: definitions });
});
afterAll(async () => {
  await database.close();
  rmSync(root, { recursive: true, force: true });
});

/** Puts a source file in the store (as an upload would) and returns its key. */
const put = async (name: string, data: Buffer | string) => {
  const key = `sources/${name}`;
  await files.put(key, Readable.from([Buffer.from(data)]), { maxBytes: 64 * 1024 * 1024 });
  return key;
};

async function runPreview(kind: string, payload: object) {
  const job = await enqueueJob(database, jobs.get(`preview.${kind}`)!, payload);
  while (await runner.runOnce()) {
    // run until nothing is due
  }
  return (await getJob(database, job.id))!;
}

describe('preview jobs', () => {
  it('store every derived file and return the metadata with stored keys', async () => {
    const video = await makeClip(tools, path.join(root, 'clip.mp4'), 'testsrc2=s=320x240:r=25', 2, H264);
    const done = await runPreview('video', { source: await put('clip.mp4', readFileSync(video)) });
    expect(done.state).toBe('ready');
    const result = done.result as { preview: Record<string, unknown>; poster: { variants: Record<string, unknown>[] }; storyboard: Record<string, unknown> };
    for (const file of [result.preview, result.storyboard, ...result.poster.variants]) {
      expect(file).not.toHaveProperty('path');
      expect(file.key).toBe(mediaKey(file.fileName as string));
      expect(readdirSync(stored)).toContain(file.fileName);
    }
    expect(readdirSync(tmpDir), 'the job’s temporary directory is gone').toEqual([]);

    const sound = await runPreview('audio', { source: await put('tone.wav', pcmWav([sine(1, 44_100, 440)], 44_100)) });
    expect(sound).toMatchObject({ state: 'ready', result: { kind: 'audio', preview: { key: expect.stringMatching(/^media\/.*\.m4a$/) } } });
    expect((sound.result as { peaks: number[] }).peaks).toHaveLength(200);
  }, 120_000);

  it('fail at once with "ffmpeg is not installed" when it is missing, and the other kinds still work', async () => {
    const missing = testMediaTools({ ffmpeg: path.join(root, 'no-ffmpeg'), ffprobe: path.join(root, 'no-ffprobe') });
    const definitions = previewJobs({ files, tools: missing, tmpDir });
    const without = new JobRunner({ database, jobs: definitions });
    const kinds = new Map(definitions.map((d) => [d.kind, d]));
    const video = await enqueueJob(database, kinds.get('preview.video')!, { source: await put('any.mp4', readFileSync(path.join(root, 'clip.mp4'))) });
    const lut = await enqueueJob(database, kinds.get('preview.lut')!, { source: await put('id.cube', 'LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n') });
    while (await without.runOnce()) {
      // run both
    }
    expect(await getJob(database, video.id)).toMatchObject({ state: 'failed', attempts: 1, error: 'ffmpeg is not installed' });
    expect(await getJob(database, lut.id)).toMatchObject({ state: 'ready', result: { kind: 'lut', table: { size: 2 } } });
  });
});

describe('preview sources: bounded before they are read, read in place where the store allows', () => {
  /** The real store, recording which keys were streamed out of it, and optionally hiding its disk (as S3 would). */
  const watched = (options: { onDisk: boolean }) => {
    const gets: string[] = [];
    const store: FileStore = Object.assign(Object.create(files) as FileStore, {
      get: (key: string, o?: Parameters<FileStore['get']>[1]) => {
        gets.push(key);
        return files.get(key, o);
      },
      localPath: (key: string) => (options.onDisk ? files.localPath(key) : null),
    });
    return { store, gets };
  };
  const run = async (store: FileStore, kind: string, payload: object, sourceMaxBytes?: Record<string, number>) => {
    const definitions = previewJobs({ files: store, tools, tmpDir, sourceMaxBytes });
    const only = new JobRunner({ database, jobs: definitions });
    const job = await enqueueJob(database, definitions.find((d) => d.kind === `preview.${kind}`)!, payload);
    while (await only.runOnce()) {
      // run until nothing is due
    }
    return (await getJob(database, job.id))!;
  };
  let clip: string;
  beforeAll(async () => {
    clip = await put('sources-clip.mp4', readFileSync(await makeClip(tools, path.join(root, 'sources-clip.mp4'), 'testsrc2=s=160x120:r=10', 2, H264)));
  }, 120_000);

  it('refuse a source over its kind’s limit from the store’s size: at once, nothing copied, no retry', async () => {
    const { size } = (await files.stat(clip))!;
    for (const onDisk of [true, false]) {
      const { store, gets } = watched({ onDisk });
      const job = await run(store, 'video', { source: clip }, { video: size - 1 });
      expect(job).toMatchObject({ state: 'failed', attempts: 1 });
      expect(job.error).toMatch(/^The file is larger than \d+ KB; upload a video of at most that size\.$/);
      expect(gets, 'not a byte streamed out of the store').toEqual([]);
      expect(readdirSync(tmpDir)).toEqual([]);
    }
    expect(PREVIEW_SOURCE_LIMITS.video.maxBytes, 'video sources have a limit').toBeLessThan(Number.POSITIVE_INFINITY);
    expect(PREVIEW_SOURCE_LIMITS.audio.maxBytes, 'sound sources have a limit').toBeLessThan(Number.POSITIVE_INFINITY);
  });

  it('read a source on this disk in place, and copy one from elsewhere (S3) into the job’s folder', async () => {
    const local = watched({ onDisk: true });
    expect(await run(local.store, 'video', { source: clip })).toMatchObject({ state: 'ready' });
    expect(local.gets, 'the local file is read where it is').toEqual([]);

    const remote = watched({ onDisk: false });
    expect(await run(remote.store, 'video', { source: clip })).toMatchObject({ state: 'ready' });
    expect(remote.gets, 'a store without a local path is copied from, once').toEqual([clip]);
    expect(readdirSync(tmpDir)).toEqual([]);
  }, 120_000);
});

describe('bad media: each ends as a failed job with a clear reason, and the process carries on', () => {
  const cases: { name: string; kind: string; payload: () => Promise<object>; reason: RegExp }[] = [];
  const add = (name: string, kind: string, reason: RegExp, make: () => Promise<Buffer | string> | Buffer | string, ext = '') =>
    cases.push({ name, kind, reason, payload: async () => ({ source: await put(`${name.replace(/[^a-z0-9]+/gi, '-')}${ext}`, await make()) }) });

  let mp4: Buffer;
  let faststart: Buffer;
  let m4a: Buffer;
  let ttf: Buffer;
  beforeAll(async () => {
    mp4 = readFileSync(await makeClip(tools, path.join(root, 'base.mp4'), 'testsrc2=s=160x120:r=10', 2, H264));
    faststart = readFileSync(await makeClip(tools, path.join(root, 'fast.mp4'), 'testsrc2=s=160x120:r=10', 2, [...H264, '-movflags', '+faststart']));
    m4a = readFileSync(await makeClip(tools, path.join(root, 'base.m4a'), 'sine=f=330', 2, ['-c:a', 'aac']));
    ttf = buildTtf();
  }, 120_000);

  const zip = () => {
    // A real (stored, empty-file) ZIP: local header, central directory, end record.
    const name = Buffer.from('a.txt');
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]), Buffer.alloc(12), Buffer.from([name.length, 0, 0, 0]), name]);
    const central = Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02, 20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]), Buffer.alloc(12), Buffer.from([name.length, 0]), Buffer.alloc(12), name]);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length, 12);
    end.writeUInt32LE(local.length, 16);
    return Buffer.concat([local, central, end]);
  };
  /** `data` with a ZIP archive appended: ZIP readers find it by its end record. */
  const withZipEnd = (data: Buffer) => Buffer.concat([data, zip()]);
  const patched = (data: () => Buffer, f: (b: Buffer) => void) => () => {
    const b = Buffer.from(data());
    f(b);
    return b;
  };
  const moovSize = (b: Buffer) => b.indexOf('moov') - 4;
  const pngBomb = (side: number) => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(side, 0);
    ihdr.writeUInt32BE(side, 4);
    ihdr[8] = 1; // 1-bit greyscale
    const rows = zlib.deflateSync(Buffer.alloc((1 + Math.ceil(side / 8)) * side), { level: 9 });
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
      return Buffer.concat([len, Buffer.from(type), data, crc]);
    };
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
  };

  // ---- in the video slot ----
  add('zero bytes', 'video', /^The file is empty\./, () => Buffer.alloc(0), '.mp4');
  add('truncated MP4', 'video', /incomplete/, () => mp4.subarray(0, Math.floor(mp4.length / 2)), '.mp4');
  add('truncated fast-start MP4', 'video', /^The video file is incomplete: it ends before its media data does/, () => faststart.subarray(0, Math.floor(faststart.length * 0.6)), '.mp4');
  add('MP4 whose moov claims 4 GB', 'video', /“moov” box claims 4,294,967,280 bytes/, patched(() => faststart, (b) => b.writeUInt32BE(0xfffffff0, moovSize(b))), '.mp4');
  add('MKV claiming 100,000 × 100,000 pixels', 'video', /^The video is 100000 × 100000 pixels; the limit is 8192 pixels a side/, () => matroskaClaiming(100_000, 100_000, 'V_MPEG4/ISO/AVC'), '.mkv');
  add('MKV claiming 16,000 × 16,000 pixels', 'video', /^The video is 16000 × 16000 pixels/, () => matroskaClaiming(16_000, 16_000), '.mkv');
  add('video claiming ten hours', 'video', /^The video says it is 10:00:00 long; the limit is 3:00:00/, () => claimDuration(mp4, 36_000), '.mp4');
  add('a sound in the video slot', 'video', /^This file has sound but no video stream/, () => m4a, '.mp4');
  add('an HTML page named .mp4', 'video', /^This file is not a video/, () => '<!doctype html><script>alert(1)</script>', '.mp4');
  add('a ZIP named .mp4', 'video', /^This file is a ZIP archive, not a video/, zip, '.mp4');
  add('MP4 and ZIP polyglot', 'video', /^This file is also a ZIP archive/, () => withZipEnd(mp4), '.mp4');
  add('PDF and MP4 polyglot', 'video', /^This file is also a PDF document/, () => Buffer.concat([Buffer.from('%PDF-1.7\n'), mp4]), '.mp4');
  add('HLS playlist reaching for /etc/passwd', 'video', /^This file is not a video/, () => '#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n', '.mp4');
  add('ffconcat list', 'video', /^This file is not a video/, () => "ffconcat version 1.0\nfile '/etc/passwd'\n", '.mp4');
  add('GIF and JavaScript polyglot', 'video', /^This file is not a video/, () => Buffer.concat([Buffer.from('GIF89a/*'), Buffer.alloc(32), Buffer.from('*/=1;alert(1);')]), '.mp4');
  add('a PNG in the video slot', 'video', /^This file is not a video/, () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).png().toBuffer(), '.mp4');
  add('video in an unsupported codec', 'video', /^The video is encoded as ffv1, which is not supported/, async () => readFileSync(await makeClip(tools, path.join(root, 'ffv1.mkv'), 'testsrc2=s=64x64:r=5', 0.4, ['-c:v', 'ffv1'])), '.mkv');

  // ---- in the sound slot ----
  add('WAV whose header claims ten hours', 'audio', /^The sound’s header says it is 10:00:00 long; the limit is 1:00:00/, () => Buffer.concat([wavHeader({ rate: 8000, channels: 1, dataBytes: 8000 * 2 * 36_000 }), Buffer.alloc(16_000)]), '.wav');
  add('WAV with a lying length', 'audio', /^The WAV file is incomplete: its header promises 2,646,000 bytes of sound but the file holds 88,200/, () => Buffer.concat([wavHeader({ rate: 44_100, channels: 1, dataBytes: 44_100 * 2 * 30 }), Buffer.alloc(88_200)]), '.wav');
  add('M4A claiming ten hours', 'audio', /^The sound says it is 10:00:00 long; the limit is 1:00:00/, () => claimDuration(m4a, 36_000), '.m4a');
  add('WAV at one sample a second', 'audio', /^The sound’s sample rate is 1 Hz; it must be 8,000 to 384,000 Hz/, () => Buffer.concat([wavHeader({ rate: 1, channels: 1, dataBytes: 20 }), Buffer.alloc(20)]), '.wav');
  add('a silent WAV', 'audio', /^The sound is silent\./, () => pcmWav([new Float32Array(22_050)], 44_100), '.wav');
  add('a video without sound in the sound slot', 'audio', /^This file has video but no sound/, () => mp4, '.wav');
  add('text named .wav', 'audio', /^This file is not a sound file/, () => 'RIFF? no, just text', '.wav');
  add('WAV and ZIP polyglot', 'audio', /^This file is also a ZIP archive/, () => withZipEnd(pcmWav([sine(0.2, 44_100, 440)], 44_100)), '.wav');

  // ---- in the LUT slot ----
  const cube = (size: number) => [`LUT_3D_SIZE ${size}`, ...Array.from({ length: size ** 3 }, (_, i) => `${(i % size) / (size - 1)} 0.5 0.5`)].join('\n');
  add('an empty .cube', 'lut', /^The file is empty\./, () => '', '.cube');
  add('a cut-off .cube', 'lut', /^The table has 20 entries; LUT_3D_SIZE 3 needs exactly 27/, () => cube(3).split('\n').slice(0, 21).join('\n'), '.cube');
  add('a .cube with NaN', 'lut', /“NaN” is not a number/, () => cube(2).replace('1 0.5 0.5', 'NaN 0.5 0.5'), '.cube');
  add('a .cube of size 129', 'lut', /^LUT_3D_SIZE is 129; it must be 2 to 65/, () => 'LUT_3D_SIZE 129\n0 0 0\n', '.cube');
  add('a PNG named .cube', 'lut', /^This file is not a \.cube LUT: it holds binary data/, () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#0f0' } }).png().toBuffer(), '.cube');
  add('a .cube with a keyword inside the table', 'lut', /TITLE must come before the table’s values/, () => cube(2).replace('1 0.5 0.5', 'TITLE "late"'), '.cube');

  // ---- in the font slot ----
  add('a ZIP named .ttf', 'font', /^This file is a ZIP archive, not a font/, zip, '.ttf');
  add('a font collection', 'font', /^Font collections \(\.ttc\) are not supported/, () => {
    const header = Buffer.alloc(16);
    header.write('ttcf', 0, 'latin1');
    header.writeUInt32BE(0x00010000, 4);
    header.writeUInt32BE(1, 8);
    header.writeUInt32BE(16, 12);
    return Buffer.concat([header, ttf]);
  }, '.ttc');
  add('a truncated TTF', 'font', /^The font could not be read; it may be damaged\. Export it again/, () => ttf.subarray(0, Math.floor(ttf.length / 2)), '.ttf');
  add('a TTF whose glyph offsets point outside it', 'font', /^The font (could not be read|draws nothing)/, patched(() => ttf, (b) => {
    const numTables = b.readUInt16BE(4);
    for (let i = 0; i < numTables; i++) {
      if (b.toString('latin1', 12 + i * 16, 16 + i * 16) !== 'loca') continue;
      const offset = b.readUInt32BE(12 + i * 16 + 8);
      const length = b.readUInt32BE(12 + i * 16 + 12);
      for (let at = offset + 4; at < offset + length; at += 4) b.writeUInt32BE(0x7ffffff0, at);
    }
  }), '.ttf');
  add('a WOFF2 with data attached', 'font', /^The WOFF2 file says it is .* bytes long but holds/, () => Buffer.concat([Buffer.from('wOF2'), Buffer.from([0, 1, 0, 0, 0, 0, 0, 48]), Buffer.alloc(36), Buffer.from('attached payload')]), '.woff2');
  add('text named .woff2', 'font', /^This file is not a font \(TTF, OTF, WOFF or WOFF2\)\.$/, () => 'font-family: nope;', '.woff2');
  add('a WOFF whose tables do not inflate', 'font', /^The font could not be read; it may be damaged/, patched(() => toWoff(ttf), (b) => {
    // Garble every compressed table's bytes, keeping the directory.
    const numTables = b.readUInt16BE(12);
    for (let i = 0; i < numTables; i++) {
      const at = b.readUInt32BE(44 + i * 20 + 4);
      const comp = b.readUInt32BE(44 + i * 20 + 8);
      const orig = b.readUInt32BE(44 + i * 20 + 12);
      if (comp < orig) b.fill(0xab, at, at + comp);
    }
  }), '.woff');

  it.each(['video', 'audio', 'lut', 'font'])('covers the %s slot', (kind) => {
    expect(cases.filter((c) => c.kind === kind).length).toBeGreaterThanOrEqual(5);
  });

  it('has at least 25 cases, each failing with its reason at once (one attempt), with memory flat and nothing left running', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    const rssBefore = process.memoryUsage().rss;
    const outcomes: string[] = [];
    for (const c of cases) {
      const job = await runPreview(c.kind, await c.payload());
      outcomes.push(`${c.name}: ${job.state} (${job.attempts}) ${job.error}`);
      expect(job.state, c.name).toBe('failed');
      expect(job.attempts, `${c.name}: not retried`).toBe(1);
      expect(job.error, c.name).toMatch(c.reason);
    }
    // The image pair slot: a decompression bomb and two shapes that do not match.
    const photo = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#345' } }).jpeg().toBuffer();
    const bomb = await runPreview('image-pair', { before: await put('bomb.png', pngBomb(10_000)), after: await put('fine.jpg', await photo(600, 400)) });
    expect(bomb).toMatchObject({ state: 'failed', attempts: 1, error: expect.stringMatching(/^The before image was refused: The image is 10000 × 10000 pixels/) });
    const shapes = await runPreview('image-pair', { before: await put('wide.jpg', await photo(600, 400)), after: await put('tall.jpg', await photo(400, 600)) });
    expect(shapes).toMatchObject({ state: 'failed', error: expect.stringMatching(/needs two images of the same shape/) });

    expect(readdirSync(tmpDir), 'every job cleaned up').toEqual([]);
    const leftovers = readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .filter((e) => {
        try {
          return readFileSync(`/proc/${e}/cmdline`, 'latin1').includes(tmpDir);
        } catch {
          return false;
        }
      });
    expect(leftovers, 'no ffmpeg left running').toEqual([]);
    const grown = process.memoryUsage().rss - rssBefore;
    expect(grown, outcomes.join('\n')).toBeLessThan(256 * 1024 * 1024);
  }, 600_000);
});
