import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { PublicResource, Resource } from '../../../contract/resources';
import { testMediaTools } from '../../testing/media-tools';
import { H264, makeClip } from '../../testing/test-media';
import { TEST_DATABASES } from '../../testing/test-utils';
import { type FilesTestApp, startFilesApp, tusUpload } from '../../testing/files-helpers';

/**
 * An admin uploads preview media with the resource form (tus uploads named on save, or the hosted
 * download itself for a video): the preview is queued, made, and shown; a refused source changes
 * nothing; a replaced source's file is detached.
 */

const cube = (size: number, tint = 1) =>
  [`LUT_3D_SIZE ${size}`, ...Array.from({ length: size ** 3 }, (_, i) => `${(((i % size) / (size - 1)) * tint).toFixed(4)} ${(Math.floor(i / size) % size) / (size - 1)} ${Math.floor(i / size ** 2) / (size - 1)}`)].join('\n');

describe.each(TEST_DATABASES)('preview media uploaded by an admin on %s', (kind) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
  });
  afterAll(async () => {
    await t?.close();
  });

  const base = { title: 'Uploaded preview', description: 'Made from uploads', thumbnail_url: 'https://img.example.com/t.png', download_url: 'https://files.example.com/p.zip', tags: [] };
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { cookie: t.admin.cookie } });
  const adminOne = async (id: number) => (await t.app.inject({ method: 'GET', url: `${API.adminResources}?id=${id}`, headers: { cookie: t.admin.cookie } })).json<{ items: Resource[] }>().items[0]!;
  const settled = async (id: number) => {
    const end = Date.now() + 120_000;
    for (;;) {
      const r = await adminOne(id);
      if (r.preview?.status === 'ready' || r.preview?.status === 'failed') return r;
      if (Date.now() > end) throw new Error(`preview not settled: ${JSON.stringify(r.preview)}`);
      await delay(50);
    }
  };
  const count = async () => Number((await t.database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('a .cube uploaded on create becomes the resource’s LUT preview; a new one on edit replaces it and detaches the old file', async () => {
    const first = await tusUpload(t, Buffer.from(cube(3)), { name: 'warm.cube' });
    const created = await send('POST', API.adminResources, { ...base, category: 'color_grading', preview_source: { kind: 'lut', upload_id: first.id } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Resource>().id;
    expect(['queued', 'processing', 'ready']).toContain(created.json<Resource>().preview?.status);
    expect((await settled(id)).preview).toMatchObject({ kind: 'lut', status: 'ready', table: { size: 3 } });
    const visible = (await t.app.inject({ method: 'GET', url: API.resource(id) })).json<PublicResource>();
    expect(visible.preview).toMatchObject({ kind: 'lut', status: 'ready' });

    const second = await tusUpload(t, Buffer.from(cube(4, 0.8)), { name: 'cool.cube' });
    const edited = await send('PATCH', API.adminResource(id), { preview_source: { kind: 'lut', upload_id: second.id } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await settled(id)).preview).toMatchObject({ kind: 'lut', status: 'ready', table: { size: 4 } });
    const files = await t.database.db.selectFrom('files').select(['key', 'detached_at']).where('key', 'in', [`uploads/${first.id}`, `uploads/${second.id}`]).execute();
    expect(Object.fromEntries(files.map((f) => [f.key, f.detached_at !== null]))).toEqual({ [`uploads/${first.id}`]: true, [`uploads/${second.id}`]: false });
  });

  it('a hosted video download previews itself', async () => {
    const file = await makeClip(testMediaTools(), path.join(os.tmpdir(), `rv-preview-source-${kind}-${process.pid}.mp4`), 'testsrc2=s=320x240:r=25', 2, H264);
    const clip = readFileSync(file);
    rmSync(file);
    const download = await tusUpload(t, clip, { name: 'clip.mp4' });
    const { download_url: _link, ...withoutLink } = base;
    const created = await send('POST', API.adminResources, { ...withoutLink, category: 'motion_graphics', download_upload_id: download.id, preview_source: { kind: 'video', from_download: true } });
    expect(created.statusCode, created.body).toBe(201);
    expect((await settled(created.json<Resource>().id)).preview).toMatchObject({ kind: 'video', status: 'ready', width: 320, height: 240 });
  }, 120_000);

  it('a bulk-upload draft: no thumbnail (the generated one), its hosted .cube previews itself, and bulk publish makes it public', async () => {
    const { thumbnail_url: _t, download_url: _d, ...bare } = base;
    const lut = await tusUpload(t, Buffer.from(cube(3)), { name: 'warm_grade.cube' });
    const published = await send('POST', API.adminResources, { ...bare, category: 'color_grading', download_upload_id: lut.id });
    expect(published.statusCode).toBe(400);
    expect(published.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({ thumbnail_url: 'A thumbnail is required' });
    const created = await send('POST', API.adminResources, { ...bare, category: 'color_grading', status: 'draft', download_upload_id: lut.id, preview_source: { kind: 'lut', from_download: true } });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json<Resource>();
    expect(draft).toMatchObject({ status: 'draft', thumbnail_url: `/thumbnails/${draft.id}.svg`, thumbnail: null, file: { name: 'warm_grade.cube' } });
    expect((await settled(draft.id)).preview).toMatchObject({ kind: 'lut', status: 'ready', table: { size: 3 } });
    expect((await t.app.inject({ method: 'GET', url: API.resource(draft.id) })).statusCode).toBe(404);
    const bulk = await send('POST', API.adminResourcesBulk, { ids: [draft.id], action: 'publish' });
    expect(bulk.json()).toMatchObject({ succeeded: 1, failed: 0 });
    const visible = (await t.app.inject({ method: 'GET', url: API.resource(draft.id) })).json<PublicResource>();
    expect(visible).toMatchObject({ thumbnail_url: `/thumbnails/${draft.id}.svg`, preview: { kind: 'lut', status: 'ready' } });
  });

  it('refuses from_download for a before/after pair', async () => {
    const download = await tusUpload(t, Buffer.from('not an image'), { name: 'pair.zip' });
    const { download_url: _d, ...withoutLink } = base;
    const res = await send('POST', API.adminResources, { ...withoutLink, category: 'photo_editing', download_upload_id: download.id, preview_source: { kind: 'image-pair', from_download: true } });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a kind the category does not take, a missing upload, and from_download on a link, saving nothing', async () => {
    const before = await count();
    const lut = await tusUpload(t, Buffer.from(cube(2)), { name: 'x.cube' });
    const wrongKind = await send('POST', API.adminResources, { ...base, category: 'typography', preview_source: { kind: 'lut', upload_id: lut.id } });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'This category previews font, not lut', fields: { preview_source: 'This category previews font, not lut' } } });
    const missing = await send('POST', API.adminResources, { ...base, category: 'color_grading', preview_source: { kind: 'lut', upload_id: '0'.repeat(32) } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: { fields: Record<string, string> } }>().error.fields).toHaveProperty('preview_source');
    const link = await send('POST', API.adminResources, { ...base, category: 'sound_effects', preview_source: { kind: 'audio', from_download: true } });
    expect(link.statusCode).toBe(400);
    const malformed = await send('POST', API.adminResources, { ...base, category: 'photo_editing', preview_source: { kind: 'image-pair', upload_id: lut.id } });
    expect(malformed.statusCode).toBe(400);
    expect(await count()).toBe(before);
    // The refused upload is still there to be used.
    const used = await send('POST', API.adminResources, { ...base, category: 'color_grading', preview_source: { kind: 'lut', upload_id: lut.id } });
    expect(used.statusCode, used.body).toBe(201);
  });
});
