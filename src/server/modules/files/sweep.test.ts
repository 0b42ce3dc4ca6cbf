import { Readable } from 'node:stream';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { AppContext } from '../../context';
import { JobKinds } from '../../jobs/kinds';
import { openFileStore } from '../../storage/open';
import { mediaKey, uploadKey } from '../../storage/keys';
import { setMediaOwners } from '../media/owners';
import { prepareUpload } from './attach';
import { parseStoredImage } from './stored';
import { sweepFiles } from './sweep';
import { type FilesTestApp, randomData, sha256, startFilesApp, DEPLOYMENTS, tusUpload } from '../../testing/files-helpers';
import { createUploads, type Uploads } from './uploads';
import { purgeResource } from '../resources/trash';

const HOUR = 60 * 60 * 1000;

describe.each(DEPLOYMENTS)('the sweep on %s with the %s store', (kind, store) => {
  let t: FilesTestApp;
  let ctx: AppContext;
  let uploads: Uploads;
  let closeStore: () => void;
  beforeAll(async () => {
    t = await startFilesApp(kind, store);
    // The sweep as another instance runs it: the same database and store, its own tus server.
    const opened = openFileStore(t.config);
    closeStore = opened.close;
    ctx = { config: t.config, database: t.database, files: opened.files, jobs: new JobKinds() };
    uploads = createUploads(ctx);
  }, 120_000); // a real server per store and database: slow to start on a busy machine
  afterAll(async () => {
    closeStore?.();
    await t?.close();
  });

  const keys = async (prefix: string) => {
    const out: string[] = [];
    for await (const s of ctx.files.list(prefix)) out.push(s.key);
    return out.sort();
  };
  const admin = { cookie: '' };
  const save = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    admin.cookie = t.admin.cookie;
    const res = await t.app.inject({ method, url, headers: admin, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };

  it('removes expired, unattached, detached and stray files after the grace period, and nothing a row needs', async () => {
    const keep = randomData(5000);
    const kept = await tusUpload(t, keep, { name: 'kept.zip' });
    const png = await sharp({ create: { width: 500, height: 300, channels: 3, background: '#22aa44' } }).png().toBuffer();
    const cover = await tusUpload(t, png, { name: 'cover.png', purpose: 'thumbnail' });
    const r = await save('POST', API.adminResources, {
      title: 'Swept around',
      description: 'x',
      category: 'typography',
      download_upload_id: kept.id,
      thumbnail_upload_id: cover.id,
    });
    // Replaced: the first thumbnail and download are detached.
    const replaced = await tusUpload(t, randomData(3000), { name: 'v2.zip' });
    const oldImage = parseStoredImage((await t.database.db.selectFrom('files').select('image').where('kind', '=', 'thumbnail').executeTakeFirstOrThrow()).image)!;
    const edited = await save('PATCH', API.adminResource(r.id), { download_upload_id: replaced.id, thumbnail_url: '/thumbnails/1.svg' });
    expect(edited.file.name).toBe('v2.zip');
    const oldKey = uploadKey(kept.id);

    const unfinished = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const unattached = await tusUpload(t, randomData(100), { name: 'never-saved.zip' });
    await ctx.files.put('uploads/' + 'f'.repeat(32), Readable.from([Buffer.from('stray')]), { maxBytes: 10 });

    // Within the grace period nothing goes.
    expect(await sweepFiles(ctx, uploads)).toEqual({ expired: 0, unattached: 0, detached: 0, strays: 0, variants: 0, media: 0 });
    expect(await keys(oldKey)).toContain(oldKey);

    const result = await sweepFiles(ctx, uploads, { nowMs: Date.now() + 25 * HOUR });
    expect(result).toMatchObject({ expired: 1, unattached: 1, detached: 2 });
    expect(result.strays).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    const files = await t.database.db.selectFrom('files').select(['name', 'key']).execute();
    expect(files.map((f) => f.name)).toEqual(['v2.zip']);
    // Under uploads/ only the attached download's bytes are left.
    expect(await keys('uploads/')).toEqual([uploadKey(replaced.id)]);
    expect(await keys(uploadKey(unfinished.id))).toEqual([]);
    expect(await keys(uploadKey(unattached.id))).toEqual([]);
    for (const v of oldImage.variants) expect(await ctx.files.stat(mediaKey(v.fileName))).toBeNull();

    // What a row needs is all there: the visitor still downloads the current file.
    const { download_url } = (await (await fetch(`${t.base}${API.download(r.id)}`, { method: 'POST' })).json()) as { download_url: string };
    const got = Buffer.from(await (await fetch(download_url)).arrayBuffer());
    expect(got.length).toBe(3000);
    const row = await t.database.db.selectFrom('files').select('sha256').executeTakeFirstOrThrow();
    expect(sha256(got)).toBe(row.sha256);

    // Deleting the resource moves it to the trash: its file stays (decision 398). Purging it detaches the
    // file; the next sweep after the grace period removes it.
    await t.app.inject({ method: 'DELETE', url: API.adminResource(r.id), headers: admin });
    expect((await sweepFiles(ctx, uploads, { nowMs: Date.now() + 25 * HOUR })).detached).toBe(0);
    expect(await purgeResource(t.database, r.id)).toBe(true);
    expect((await sweepFiles(ctx, uploads, { nowMs: Date.now() + 25 * HOUR })).detached).toBe(1);
    expect(await keys('uploads/')).toEqual([]);
    expect(await t.database.db.selectFrom('files').select('id').execute()).toEqual([]);
  });

  it('removes a stray tus upload (no row) through tus: on S3 its multipart upload is aborted', async () => {
    const begun = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    // A crash after the row went and before the bytes did: only the store still knows the upload.
    await t.database.db.deleteFrom('uploads').where('id', '=', begun.id).execute();
    const multipart = async () => {
      if (!t.s3) return [];
      const client = new S3Client({ endpoint: t.s3.endpoint, region: t.s3.region, forcePathStyle: true, credentials: t.s3.credentials });
      try {
        const res = await client.send(new ListMultipartUploadsCommand({ Bucket: t.s3.bucket }));
        return (res.Uploads ?? []).map((u) => u.Key).filter((k) => k === uploadKey(begun.id));
      } finally {
        client.destroy();
      }
    };
    if (store === 's3') expect(await multipart()).toEqual([uploadKey(begun.id)]);
    expect((await keys(uploadKey(begun.id))).length).toBeGreaterThan(0);

    expect((await sweepFiles(ctx, uploads, { nowMs: Date.now() + 25 * HOUR })).strays).toBeGreaterThanOrEqual(1);
    expect(await keys(uploadKey(begun.id))).toEqual([]);
    expect(await multipart()).toEqual([]);
  });

  it('removes the thumbnail variants of a save that failed, and no file under media/ a resource owns', async () => {
    const image = (background: string) => sharp({ create: { width: 480, height: 270, channels: 3, background } }).png().toBuffer();
    // A save that got as far as writing the variants (step 1 of attaching) and then failed.
    const failed = await tusUpload(t, await image('#aa2244'), { name: 'failed.png', purpose: 'thumbnail' });
    const prepared = await prepareUpload(ctx, uploads, failed.id, 'thumbnail', t.admin.admin.id);
    const orphans = parseStoredImage(prepared.file.image ?? null)!.variants.map((v) => mediaKey(v.fileName));
    // A save that succeeded, and a derived file of another kind (a preview) sharing media/.
    const saved = await tusUpload(t, await image('#2244aa'), { name: 'saved.png', purpose: 'thumbnail' });
    const r = await save('POST', API.adminResources, { title: 'Kept cover', description: 'x', category: 'typography', download_url: 'https://example.com/a.zip', thumbnail_upload_id: saved.id });
    const kept = parseStoredImage((await t.database.db.selectFrom('files').select('image').where('kind', '=', 'thumbnail').executeTakeFirstOrThrow()).image)!.variants.map((v) => mediaKey(v.fileName));
    const preview = mediaKey(`${'ab'.repeat(16)}.webp`);
    await ctx.files.put(preview, Readable.from([Buffer.from('a preview')]), { maxBytes: 9 });
    // Owned as a published preview's file is (media/owners.ts).
    await setMediaOwners(t.database.db, [r.id], 'preview', [preview]);
    const present = async (list: string[]) => (await Promise.all(list.map((k) => ctx.files.stat(k)))).filter(Boolean).length;
    expect(await present(orphans)).toBe(orphans.length);

    // Within the grace period the failed save's variants stay (the admin may save again).
    expect((await sweepFiles(ctx, uploads)).variants).toBe(0);
    expect(await present(orphans)).toBe(orphans.length);

    const result = await sweepFiles(ctx, uploads, { nowMs: Date.now() + 25 * HOUR });
    expect(result.variants).toBe(orphans.length);
    expect(await present(orphans)).toBe(0);
    expect(await present(kept)).toBe(kept.length);
    expect(await ctx.files.stat(preview)).not.toBeNull();
    expect((await t.app.inject({ url: API.resource(r.id) })).json().thumbnail.src).toBe(`/${kept.at(-1)}`);
    await t.app.inject({ method: 'DELETE', url: API.adminResource(r.id), headers: { cookie: t.admin.cookie } });
  });
});
