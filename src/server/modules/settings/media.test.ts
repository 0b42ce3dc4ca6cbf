import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { type AdminSettings, adminSettingsSchema } from '../../../contract/settings';
import { siteSettingsSchema } from '../../../contract/site';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { type FilesTestApp, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { testMediaTools } from '../../testing/media-tools';
import { H264, makeClip } from '../../testing/test-media';
import { TEST_DATABASES } from '../../testing/test-utils';
import { FAVICON_SIZES } from './media';

/** The logo, the favicon and the promo video: uploaded, attached by a settings save, served under /media/ while set. */
describe.each(TEST_DATABASES)('site logo, favicon and promo video on %s', (kind) => {
  let t: FilesTestApp;
  let owner: SignedIn;
  let asOwner: FilesTestApp;

  beforeAll(async () => {
    // The client's HTML template without a build: the head is the server's either way.
    const clientDir = mkdtempSync(path.join(tmpdir(), 'rv-settings-media-'));
    copyFileSync(path.resolve('index.html'), path.join(clientDir, 'index.html'));
    t = await startFilesApp(kind, 'local', { clientDir });
    owner = await createAndSignIn(t.app, t.database, 'media_owner', { superUser: true });
    asOwner = { ...t, headers: { cookie: owner.cookie, origin: t.base } };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const image = (color: string) => sharp({ create: { width: 600, height: 400, channels: 3, background: color } }).png().toBuffer();
  const upload = async (data: Buffer, who = asOwner, name = 'logo.png') => (await tusUpload(who, data, { name, purpose: 'thumbnail' })).id;
  const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: API.adminSettings, payload, headers: { cookie: owner.cookie } });
  const settings = async () => adminSettingsSchema.parse((await t.app.inject({ url: API.adminSettings, headers: { cookie: owner.cookie } })).json());

  it('attaches a logo and a favicon (its sizes made from one image), shown in /api/site and the page head', async () => {
    const res = await patch({ logo_upload_id: await upload(await image('#aa3366')), favicon_upload_id: await upload(await image('#33aa66'), asOwner, 'icon.png') });
    expect(res.statusCode, res.body).toBe(200);
    const { media } = res.json<AdminSettings>();
    expect(media.logo?.src).toMatch(/^\/media\/[0-9a-f]{32}\.webp$/);
    expect(media.favicon?.icons.map((i) => i.sizes)).toEqual(FAVICON_SIZES.map((s) => `${s}x${s}`));
    for (const icon of media.favicon!.icons) {
      const served = await t.app.inject({ url: icon.src });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      const meta = await sharp(served.rawPayload).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
    expect((await t.app.inject({ url: media.logo!.src })).statusCode).toBe(200);

    const site = siteSettingsSchema.parse((await t.app.inject({ url: API.site })).json());
    expect(site.logo).toEqual(media.logo);
    expect(site.favicon).toEqual(media.favicon);
    const html = (await t.app.inject({ url: '/' })).body;
    expect(html).toContain(`<link rel="icon" type="image/png" sizes="32x32" href="${media.favicon!.icons[0].src}" />`);
    expect(html).toContain(`<link rel="apple-touch-icon" sizes="180x180" href="${media.favicon!.icons[1].src}" />`);
    expect(html).not.toContain('/favicon.svg');

    const versions = (await t.app.inject({ url: API.adminSettingsVersions, headers: { cookie: owner.cookie } })).json().items;
    expect(versions[0].changed).toEqual(['logo', 'favicon']);
  });

  it('goes back to the default favicon on null: its sizes stop being served', async () => {
    const before = await settings();
    const res = await patch({ favicon_upload_id: null });
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminSettings>().media.favicon).toBeNull();
    expect(res.json<AdminSettings>().media.logo).toEqual(before.media.logo);
    for (const icon of before.media.favicon!.icons) expect((await t.app.inject({ url: icon.src })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/' })).body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
  });

  it('makes the promo video (muted, fast-start MP4 and poster) by a job; null goes back to the built-in one', async () => {
    const file = await makeClip(testMediaTools(), path.join(tmpdir(), `rv-promo-${kind}-${process.pid}.mp4`), 'testsrc2=s=320x240:r=25', 2, [...H264, '-shortest']);
    const clip = readFileSync(file);
    rmSync(file);
    const res = await patch({ promo_video_upload_id: (await tusUpload(asOwner, clip, { name: 'promo.mp4' })).id });
    expect(res.statusCode, res.body).toBe(200);
    const settled = async () => {
      for (;;) {
        const s = await settings();
        if (s.media.promo_video_job?.state !== 'processing') return s;
        await delay(50);
      }
    };
    const { media } = await settled();
    expect(media.promo_video_job).toBeNull();
    expect(media.promo_video).toMatchObject({ mp4: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.mp4$/), poster: expect.stringMatching(/\.webp$/), width: 320, height: 240 });
    const site = siteSettingsSchema.parse((await t.app.inject({ url: API.site })).json());
    expect(site.my_website.video).toEqual(media.promo_video);
    const mp4 = await t.app.inject({ url: media.promo_video!.mp4 });
    expect(mp4.statusCode).toBe(200);
    expect(mp4.headers['content-type']).toBe('video/mp4');
    // Fast start: the index (moov) comes before the media data (mdat).
    expect(mp4.rawPayload.indexOf('moov')).toBeLessThan(mp4.rawPayload.indexOf('mdat'));
    expect((await t.app.inject({ url: media.promo_video!.poster })).statusCode).toBe(200);

    const notVideo = await patch({ promo_video_upload_id: (await tusUpload(asOwner, Buffer.from('not a video'), { name: 'promo.mp4' })).id });
    expect(notVideo.statusCode).toBe(200);
    const failed = await settled();
    expect(failed.media.promo_video_job).toMatchObject({ state: 'failed', error: expect.any(String) });
    expect(failed.media.promo_video).toEqual(media.promo_video); // the last ready video stays

    const dropped = await patch({ promo_video_upload_id: null });
    expect(dropped.json<AdminSettings>().media).toMatchObject({ promo_video: null, promo_video_job: null });
    expect((await t.app.inject({ url: media.promo_video!.mp4 })).statusCode).toBe(404);
  }, 120_000);

  it('refuses what is not an image and another admin’s upload, on their fields, saving nothing', async () => {
    const before = await settings();
    const notImage = await patch({ logo_upload_id: await upload(Buffer.from('not an image at all')) });
    expect(notImage.statusCode).toBe(400);
    expect(Object.keys(notImage.json().error.fields)).toEqual(['logo_upload_id']);
    const theirs = await patch({ site: { ...before.site, name: 'Not saved' }, favicon_upload_id: await upload(await image('#000000'), t) });
    expect(theirs.statusCode).toBe(400);
    expect(Object.keys(theirs.json().error.fields)).toEqual(['favicon_upload_id']);
    const video = await patch({ promo_video_upload_id: (await tusUpload(t, Buffer.from('x'), { name: 'promo.mp4' })).id });
    expect(video.statusCode).toBe(400);
    expect(Object.keys(video.json().error.fields)).toEqual(['promo_video_upload_id']);
    expect(await settings()).toEqual(before);
  });
});
