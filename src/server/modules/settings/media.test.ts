import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { type AdminSettings, adminSettingsSchema } from '../../../contract/settings';
import { siteSettingsSchema } from '../../../contract/site';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { type FilesTestApp, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { TEST_DATABASES } from '../../testing/test-utils';
import { FAVICON_SIZES } from './media';

/** The logo and the favicon: uploaded like a thumbnail, attached by a settings save, served under /media/ while set. */
describe.each(TEST_DATABASES)('site logo and favicon on %s', (kind) => {
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

  it('refuses what is not an image, another admin’s upload and a promo video, on their fields, saving nothing', async () => {
    const before = await settings();
    const notImage = await patch({ logo_upload_id: await upload(Buffer.from('not an image at all')) });
    expect(notImage.statusCode).toBe(400);
    expect(Object.keys(notImage.json().error.fields)).toEqual(['logo_upload_id']);
    const theirs = await patch({ site: { ...before.site, name: 'Not saved' }, favicon_upload_id: await upload(await image('#000000'), t) });
    expect(theirs.statusCode).toBe(400);
    expect(Object.keys(theirs.json().error.fields)).toEqual(['favicon_upload_id']);
    const video = await patch({ promo_video_upload_id: await upload(Buffer.from('x'), asOwner, 'promo.mp4') });
    expect(video.statusCode).toBe(400);
    expect(Object.keys(video.json().error.fields)).toEqual(['promo_video_upload_id']);
    expect(await settings()).toEqual(before);
  });
});
