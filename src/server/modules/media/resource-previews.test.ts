import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { CategoryValue } from '../../../contract/categories';
import { type PendingPreview, PREVIEW_UPLOAD_ANOTHER, type ReadyPreview } from '../../../contract/previews';
import type { PublicResource, Resource } from '../../../contract/resources';
import { buildApp } from '../../app';
import { testConfig } from '../../testing/test-config';
import type { App } from '../../context';
import { testMediaTools } from '../../testing/media-tools';
import { buildTtf } from '../../testing/test-fonts';
import { H264, makeClip, pcmWav, sine } from '../../testing/test-media';
import { LocalFileStore } from '../../storage/local';
import { createTestApp, TEST_DATABASES } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';
import { getJob, type JobView } from '../../jobs/queue';
import { type PreviewSources, queueResourcePreview } from './resource-previews';
import { openShared, type Shared } from '../../testing/shared-db';

/**
 * Previews through the API: two app instances on one database, each running its job worker; an
 * admin sees every state (and why one failed), a visitor only a ready preview, each job runs once.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'rv-resource-previews-'));
const tools = testMediaTools();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cube = (size: number) =>
  [`TITLE "Warm"`, `LUT_3D_SIZE ${size}`, ...Array.from({ length: size ** 3 }, (_, i) => {
    const [r, g, b] = [i % size, Math.floor(i / size) % size, Math.floor(i / size ** 2)].map((v) => v / (size - 1));
    return `${Math.min(1, r * 1.1).toFixed(4)} ${g.toFixed(4)} ${(b * 0.9).toFixed(4)}`;
  })].join('\n');

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting; last: ${JSON.stringify(v).slice(0, 300)}`);
    await delay(50);
  }
}

describe.each(TEST_DATABASES)('resource previews on %s', (kind) => {
  let shared: Shared;
  let a: App;
  let b: App;
  let admin: SignedIn;
  const dataDir = path.join(root, kind);
  const files = new LocalFileStore(path.join(dataDir, 'files'));

  beforeAll(async () => {
    shared = await openShared(kind);
    const config = testConfig({ dataDir, database: shared.childConfig ?? { kind: 'pglite' } });
    a = await buildApp(config, shared.a);
    b = await buildApp(config, shared.b);
    admin = await createAndSignIn(a, shared.a, 'preview_admin');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  const put = async (name: string, data: Buffer | string) => {
    const key = `sources/${kind}/${name}`;
    await files.put(key, Readable.from([Buffer.from(data)]), { maxBytes: 64 * 1024 * 1024 });
    return key;
  };
  const publicOne = async (id: number) => (await b.inject({ method: 'GET', url: API.resource(id) })).json<PublicResource>();
  const adminOne = async (id: number) => {
    const res = await a.inject({ method: 'GET', url: `${API.adminResources}?id=${id}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    return res.json<{ items: Resource[] }>().items[0]!;
  };
  const settled = (id: number) => until(() => adminOne(id), (r) => r.preview?.status === 'ready' || r.preview?.status === 'failed');
  const fetchOk = async (url: string) => {
    const res = await a.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res;
  };

  it('a ready preview of every kind is in the public and admin answers, with URLs that serve its files', async () => {
    const clip = readFileSync(await makeClip(tools, path.join(root, `${kind}-clip.mp4`), 'testsrc2=s=320x240:r=25', 2, H264));
    const jpeg = (color: string) => sharp({ create: { width: 600, height: 400, channels: 3, background: color } }).jpeg().toBuffer();
    const cases: [CategoryValue, PreviewSources][] = [
      ['motion_graphics', { kind: 'video', source: await put('clip.mp4', clip) }],
      ['sound_effects', { kind: 'audio', source: await put('tone.wav', pcmWav([sine(1.5, 44_100, 440)], 44_100)) }],
      ['color_grading', { kind: 'lut', source: await put('warm.cube', cube(5)) }],
      ['photo_editing', { kind: 'image-pair', before: await put('before.jpg', await jpeg('#336699')), after: await put('after.jpg', await jpeg('#996633')) }],
      ['typography', { kind: 'font', source: await put('font.ttf', buildTtf()) }],
    ];
    const ids: number[] = [];
    for (const [category, sources] of cases) {
      const id = await insertResource(shared.a, { category, title: `Preview ${sources.kind}` });
      await queueResourcePreview(shared.a, id, sources);
      ids.push(id);
    }
    const byKind = new Map<string, ReadyPreview>();
    for (const id of ids) {
      const done = await settled(id);
      expect(done.preview, JSON.stringify(done.preview)).toMatchObject({ status: 'ready' });
      const visible = await until(() => publicOne(id), (r) => r.preview !== null);
      expect(visible.preview).toEqual(done.preview);
      byKind.set(visible.preview!.kind, visible.preview!);
    }

    const video = byKind.get('video') as Extract<ReadyPreview, { kind: 'video' }>;
    expect(video).toMatchObject({ width: 320, height: 240, video: { width: 320, height: 240 } });
    expect((await fetchOk(video.video.url)).headers['content-type']).toBe('video/mp4');
    await fetchOk(video.storyboard.url);
    expect(video.poster.variants.length).toBeGreaterThan(0);
    for (const v of video.poster.variants) await fetchOk(v.url);

    const audio = byKind.get('audio') as Extract<ReadyPreview, { kind: 'audio' }>;
    expect(audio.peaks).toHaveLength(200);
    expect(audio.peaks.every((p) => Number.isInteger(p) && p >= 0 && p <= 100)).toBe(true);
    expect(Math.max(...audio.peaks)).toBeGreaterThan(10);
    expect((await fetchOk(audio.audio.url)).headers['content-type']).toBe('audio/mp4');

    const lut = byKind.get('lut') as Extract<ReadyPreview, { kind: 'lut' }>;
    expect(lut).toMatchObject({ title: 'Warm', source: { type: '3D', size: 5 }, table: { format: 'rgb8', size: 5 } });
    expect((await fetchOk(lut.table.url)).rawPayload.length).toBe(5 ** 3 * 3);
    expect(lut.samples.length).toBeGreaterThanOrEqual(3);
    for (const s of lut.samples) expect((await fetchOk(s.url)).headers['content-type']).toBe('image/webp');

    const pair = byKind.get('image-pair') as Extract<ReadyPreview, { kind: 'image-pair' }>;
    expect(pair.before).toMatchObject({ width: 600, height: 400 });
    await fetchOk(pair.after.variants[0]!.url);

    const font = byKind.get('font') as Extract<ReadyPreview, { kind: 'font' }>;
    expect(font.file.format).toBe('woff2');
    expect((await fetchOk(font.file.url)).headers['content-type']).toBe('font/woff2');
    expect(font.family.length).toBeGreaterThan(0);

    // The category page's list carries the preview too (from the row it already reads).
    const list = (await b.inject({ method: 'GET', url: `${API.resources}?category=color_grading` })).json<{ items: PublicResource[] }>();
    expect(list.items.find((r) => r.id === ids[2])?.preview).toEqual(lut);
  }, 180_000);

  it('a visitor sees no preview until it is ready; the admin sees it queued', async () => {
    const id = await insertResource(shared.a, { category: 'color_grading' });
    // Cached before the preview exists: the public answer must change when it is ready.
    expect((await publicOne(id)).preview).toBeNull();
    const later = Date.now() + 3_600_000;
    await queueResourcePreview(shared.a, id, { kind: 'lut', source: await put('later.cube', cube(3)) }, { now: later });
    expect((await adminOne(id)).preview).toEqual({ kind: 'lut', status: 'queued' });
    expect((await publicOne(id)).preview).toBeNull();

    const now = await queueResourcePreview(shared.a, id, { kind: 'lut', source: await put('now.cube', cube(3)) });
    await settled(id);
    expect((await until(() => publicOne(id), (r) => r.preview !== null)).preview).toMatchObject({ kind: 'lut', status: 'ready' });
    expect((await getJob(shared.a, now!.id))?.state).toBe('ready');
  });

  it('a failed preview shows its reason to the admin only; the admin retries it after fixing the file', async () => {
    const id = await insertResource(shared.a, { category: 'color_grading' });
    const source = await put('broken.cube', 'LUT_3D_SIZE 129\n0 0 0\n');
    await queueResourcePreview(shared.a, id, { kind: 'lut', source });
    const failed = await settled(id);
    // A malformed LUT may be fixed where it is stored: the retry is offered.
    expect(failed.preview).toEqual({ kind: 'lut', status: 'failed', reason: expect.stringMatching(/^LUT_3D_SIZE is 129; it must be 2 to 65/) as string, can_retry: true });
    expect((await publicOne(id)).preview).toBeNull();

    const retry = (resourceId: number, who: SignedIn | null = admin) =>
      a.inject({ method: 'POST', url: API.adminResourcePreviewRetry(resourceId), headers: who ? { cookie: who.cookie } : {} });
    expect((await retry(id, null)).statusCode).toBe(401);
    await files.put(source, Readable.from([Buffer.from(cube(3))]), { maxBytes: 1024 * 1024 });
    const retried = await retry(id);
    expect(retried.statusCode).toBe(200);
    expect(['queued', 'processing', 'ready']).toContain(retried.json<Resource>().preview?.status);
    expect((await settled(id)).preview?.status).toBe('ready');

    const again = await retry(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 'CONFLICT', message: 'Only a failed preview can be retried' } });
    const none = await insertResource(shared.a, {});
    expect((await retry(none)).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'This resource has no preview to retry' } });
    expect((await retry(999_999)).statusCode).toBe(404);
  });

  it('hostile files end as failed jobs with a reason, and both instances carry on', async () => {
    // Whether a retry can help: not for a file that is not of the kind at all (the reason says to upload another).
    const hostile: [string, PreviewSources, RegExp, boolean][] = [
      ['zero-byte video', { kind: 'video', source: await put('empty.mp4', '') }, /^The file is empty\./, false],
      ['truncated MP4', { kind: 'video', source: await put('cut.mp4', readFileSync(path.join(root, `${kind}-clip.mp4`)).subarray(0, 3000)) }, /incomplete|damaged/, true],
      ['a "font" that is text', { kind: 'font', source: await put('font.ttf', 'hello, not a font') }, /font/i, false],
      ['a "LUT" that is binary', { kind: 'lut', source: await put('lut.cube', Buffer.from([0, 1, 2, 255, 254, 0, 7])) }, /not a \.cube LUT/, false],
      ['mismatched photo pair', {
        kind: 'image-pair',
        before: await put('wide.jpg', await sharp({ create: { width: 300, height: 100, channels: 3, background: '#111' } }).jpeg().toBuffer()),
        after: await put('tall.jpg', await sharp({ create: { width: 100, height: 300, channels: 3, background: '#eee' } }).jpeg().toBuffer()),
      }, /same shape/, true],
    ];
    for (const [name, sources, reason, canRetry] of hostile) {
      const id = await insertResource(shared.a, { category: 'premium_resources', title: name });
      await queueResourcePreview(shared.a, id, sources);
      const done = await settled(id);
      expect(done.preview, name).toMatchObject({ status: 'failed', kind: sources.kind });
      expect((done.preview as PendingPreview).reason, name).toMatch(reason);
      expect((done.preview as PendingPreview).can_retry, name).toBe(canRetry);
      if (!canRetry) expect((done.preview as PendingPreview).reason?.endsWith(` ${PREVIEW_UPLOAD_ANOTHER}`), name).toBe(true);
    }
    for (const app of [a, b]) expect((await app.inject({ method: 'GET', url: API.resources })).statusCode).toBe(200);
  });

  it('each job runs once with two instances claiming', async () => {
    const jobs: JobView[] = [];
    for (let i = 0; i < 8; i++) {
      const id = await insertResource(shared.a, { category: 'color_grading' });
      jobs.push((await queueResourcePreview(i % 2 ? shared.a : shared.b, id, { kind: 'lut', source: await put(`once-${i}.cube`, cube(3 + (i % 3))) }))!);
    }
    const done = await until(() => Promise.all(jobs.map((j) => getJob(shared.a, j.id))), (all) => all.every((j) => j?.state === 'ready'));
    expect(done.map((j) => j!.attempts)).toEqual(jobs.map(() => 1));
  });
});

describe.each(TEST_DATABASES)('without ffmpeg on %s', (kind) => {
  it('the site works, video and audio previews fail with "ffmpeg is not installed", other kinds are made', async () => {
    const dataDir = path.join(root, `${kind}-no-ffmpeg`);
    const t = await createTestApp(kind, { dataDir, ffmpegPath: path.join(root, 'no-ffmpeg'), ffprobePath: path.join(root, 'no-ffprobe') });
    try {
      const files = new LocalFileStore(path.join(dataDir, 'files'));
      const put = async (name: string, data: Buffer | string) => {
        await files.put(`sources/${name}`, Readable.from([Buffer.from(data)]), { maxBytes: 1024 * 1024 });
        return `sources/${name}`;
      };
      const signedIn = await createAndSignIn(t.app, t.database, 'no_ffmpeg_admin');
      const sound = await insertResource(t.database, { category: 'sound_effects' });
      const lut = await insertResource(t.database, { category: 'color_grading' });
      await queueResourcePreview(t.database, sound, { kind: 'audio', source: await put('tone.wav', pcmWav([sine(1, 44_100, 440)], 44_100)) });
      await queueResourcePreview(t.database, lut, { kind: 'lut', source: await put('id.cube', cube(2)) });
      const adminOne = async (id: number) =>
        (await t.app.inject({ method: 'GET', url: `${API.adminResources}?id=${id}`, headers: { cookie: signedIn.cookie } })).json<{ items: Resource[] }>().items[0]!;
      const doneSound = await until(() => adminOne(sound), (r) => r.preview?.status === 'failed' || r.preview?.status === 'ready');
      expect(doneSound.preview).toEqual({ kind: 'audio', status: 'failed', reason: 'ffmpeg is not installed', can_retry: true });
      const doneLut = await until(() => adminOne(lut), (r) => r.preview?.status === 'ready' || r.preview?.status === 'failed');
      expect(doneLut.preview?.status).toBe('ready');
      expect((await t.app.inject({ method: 'GET', url: API.resources })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
