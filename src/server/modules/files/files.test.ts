import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { uploadPath } from '../../../contract/files';
import { TEST_DATABASES } from '../../testing/test-utils';
import { type FilesTestApp, randomData, sha256, startFilesApp, STORES, tusUpload } from '../../testing/files-helpers';
import { purgeResource } from '../resources/trash';

const resource = (over: Record<string, unknown>) => ({
  title: 'Hosted pack',
  description: 'A pack hosted on this site',
  category: 'video_editing',
  tags: ['Hosted'],
  ...over,
});

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

async function download(t: FilesTestApp, id: number, headers: Record<string, string> = {}) {
  // A visitor's browser: Node's own User-Agent is a bot's, which gets the link without counting.
  const recorded = await fetch(`${t.base}${API.download(id)}`, { method: 'POST', headers: { 'user-agent': BROWSER_UA } });
  expect(recorded.status).toBe(200);
  const { download_url, download_count } = (await recorded.json()) as { download_url: string; download_count: number };
  if (!download_url.startsWith(t.base) && !download_url.startsWith(t.s3?.endpoint ?? t.base)) return { res: undefined as unknown as Response, body: Buffer.alloc(0), url: download_url, count: download_count };
  const res = await fetch(download_url, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()), url: download_url, count: download_count };
}

describe.each(TEST_DATABASES.flatMap((db) => STORES.map((store) => [db, store] as const)))('hosted files on %s with the %s store', (kind, store) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, store);
  }, 120_000); // a real server per store and database: slow to start on a busy machine
  afterAll(async () => {
    await t?.close();
  });

  it('uploads with tus, attaches on save, and a visitor downloads the same bytes (SHA-256)', async () => {
    const data = randomData(3 * 1024 * 1024 + 17);
    const up = await tusUpload(t, data, { name: 'Pack — été.zip', chunkSize: 1024 * 1024 });
    expect(up.completed).toBe(true);

    const created = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: t.admin.cookie },
      payload: resource({ thumbnail_url: '/thumbnails/1.svg', download_upload_id: up.id }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.file).toEqual({ name: 'Pack — été.zip', size: data.length, sha256: sha256(data), content_type: 'application/octet-stream' });
    expect(body.download_url).toBe('');

    const pub = (await t.app.inject({ url: API.resource(body.id) })).json();
    expect(pub.file).toEqual(body.file);

    const got = await download(t, body.id);
    expect(got.res.status).toBe(200);
    expect(got.count).toBe(1);
    expect(sha256(got.body)).toBe(sha256(data));
    expect(got.res.headers.get('content-disposition')).toContain("filename*=UTF-8''Pack%20%E2%80%94%20%C3%A9t%C3%A9.zip");
    // Served by this site: never sniffed into something runnable. (A bucket serves from its own origin.)
    if (store === 'local') expect(got.res.headers.get('x-content-type-options')).toBe('nosniff');
    else expect(got.url.startsWith(t.s3!.endpoint)).toBe(true);
    expect(Number(got.res.headers.get('content-length'))).toBe(data.length);

    // Ranges: a download manager resuming.
    const part = await download(t, body.id, { range: 'bytes=1000-1999' });
    expect(part.res.status).toBe(206);
    expect(part.body.equals(data.subarray(1000, 2000))).toBe(true);
    if (store === 'local') {
      // This site's own route (/api/files/…): validators, ranges, If-Range.
      expect(got.url).toContain('/api/files/');
      const etag = got.res.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(got.res.headers.get('accept-ranges')).toBe('bytes');
      expect(part.res.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
      expect(part.res.headers.get('etag')).toBe(etag);
      const past = await fetch(got.url, { headers: { range: `bytes=${data.length}-` } });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${data.length}`);
      expect(((await past.json()) as { error: { code: string } }).error.code).toBeTruthy();
      const same = await fetch(got.url, { headers: { range: 'bytes=-10', 'if-range': etag! } });
      expect(same.status).toBe(206);
      expect(Buffer.from(await same.arrayBuffer()).equals(data.subarray(data.length - 10))).toBe(true);
      // A client holding part of another version gets the whole file, not a range of this one.
      const changed = await fetch(got.url, { headers: { range: 'bytes=0-9', 'if-range': '"another-version"' } });
      expect(changed.status).toBe(200);
      expect(Number(changed.headers.get('content-length'))).toBe(data.length);
      await changed.body?.cancel();
      expect((await fetch(got.url, { headers: { 'if-none-match': etag! } })).status).toBe(304);
    }

    // The upload is gone from tus once attached: it cannot be resumed, cancelled or attached again.
    const head = await fetch(`${t.base}${uploadPath(up.id)}`, { method: 'HEAD', headers: { ...t.headers, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(404);
    const again = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: t.admin.cookie }, payload: resource({ thumbnail_url: '/thumbnails/1.svg', download_upload_id: up.id }) });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields).toHaveProperty('download_upload_id');
  });

  it('resumes an interrupted upload where it stopped', async () => {
    const data = randomData(6 * 1024 * 1024 + 5);
    const chunk = 1024 * 1024;
    const begun = await tusUpload(t, data, { chunkSize: chunk, stopAfterBytes: 2 * chunk });
    expect(begun.completed).toBe(false);
    const finished = await tusUpload(t, data, { chunkSize: chunk, uploadUrl: begun.url });
    expect(finished.completed).toBe(true);
    expect(finished.firstOffset).toBeGreaterThanOrEqual(2 * chunk);
    const row = await t.database.db.selectFrom('uploads').selectAll().where('id', '=', finished.id).executeTakeFirstOrThrow();
    expect(row.sha256).toBe(sha256(data));
  });

  it('replacing the file keeps the download count; a thumbnail upload becomes WebP variants; deleting detaches both', async () => {
    const first = await tusUpload(t, randomData(2000));
    const created = (
      await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: t.admin.cookie }, payload: resource({ thumbnail_url: '/thumbnails/1.svg', download_upload_id: first.id }) })
    ).json();
    await download(t, created.id);
    await download(t, created.id);

    const next = randomData(3000);
    const second = await tusUpload(t, next, { name: 'v2.zip' });
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const thumb = await tusUpload(t, png, { name: 'cover.png', purpose: 'thumbnail' });
    const edited = await t.app.inject({ method: 'PATCH', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie }, payload: { download_upload_id: second.id, thumbnail_upload_id: thumb.id } });
    expect(edited.statusCode, edited.body).toBe(200);
    const e = edited.json();
    expect(e.download_count).toBe(2);
    expect(e.file).toMatchObject({ name: 'v2.zip', size: 3000, sha256: sha256(next) });
    expect(e.thumbnail).toMatchObject({ width: 640, height: 360 });
    expect(e.thumbnail_url).toBe(e.thumbnail.src);
    expect(e.thumbnail.srcset).toMatch(/^\/media\/[0-9a-f]{32}\.webp 400w, \/media\/[0-9a-f]{32}\.webp 640w$/);
    expect(e.thumbnail.placeholder.data_uri).toMatch(/^data:image\/webp;base64,/);
    const img = await fetch(`${t.base}${e.thumbnail.src}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(sha256(Buffer.from(await img.arrayBuffer()))).not.toBe(sha256(png));

    const got = await download(t, created.id);
    expect(sha256(got.body)).toBe(sha256(next));
    expect(got.count).toBe(3);
    const detached = await t.database.db.selectFrom('files').select(['name']).where('detached_at', 'is not', null).execute();
    expect(detached.map((r) => r.name)).toContain('pack.zip');

    // Back to a link: the hosted file is detached, the link is what a visitor gets.
    const linked = await t.app.inject({ method: 'PATCH', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie }, payload: { download_url: 'https://example.com/x.zip' } });
    expect(linked.json()).toMatchObject({ file: null, download_url: 'https://example.com/x.zip' });
    expect((await download(t, created.id)).url).toBe('https://example.com/x.zip');

    // Deleting moves it to the trash, its files kept (decision 398); the purge detaches them.
    expect((await t.app.inject({ method: 'DELETE', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie } })).statusCode).toBe(200);
    const live = () => t.database.db.selectFrom('files').select('name').where('detached_at', 'is', null).where('name', 'in', ['v2.zip', 'cover.png']).execute();
    expect(await live()).toEqual([{ name: 'cover.png' }]);
    expect(await purgeResource(t.database, created.id)).toBe(true);
    expect(await live()).toEqual([]);
  });
});
