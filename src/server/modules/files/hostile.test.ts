import { readFile, statfs, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { THUMBNAIL_UPLOAD_MAX_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_EXPIRY_MS, UPLOADS_PATH, uploadPath } from '../../../contract/files';
import { LOCAL_FILES_DIR, openFileStore } from '../../storage/open';
import { tampered, TEST_DATABASES } from '../../testing/test-utils';
import { linkSigner } from './links';
import { type FilesTestApp, randomData, sha256, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { uploadCompanionKeys, uploadKey } from '../../storage/keys';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

describe.each(TEST_DATABASES)('hostile uploads on %s', (kind) => {
  let t: FilesTestApp;
  const UPLOAD_MAX = 8 * 1024 * 1024;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local', { uploadMaxBytes: UPLOAD_MAX });
  }, 120_000); // a real server per store and database: slow to start on a busy machine
  afterAll(async () => {
    await t?.close();
  });

  const create = (headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${t.base}${UPLOADS_PATH}`, { method: 'POST', ...init, headers: { ...t.headers, ...TUS, ...headers } });
  const uploadsCount = async () => (await t.database.db.selectFrom('uploads').select('id').execute()).length;
  async function refused(res: Response, status: number, message: RegExp, field?: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } };
    expect(body.error.message).toMatch(message);
    if (field) expect(body.error.fields).toHaveProperty(field);
    return body;
  }

  it('refuses bad creation requests with a clear 400/413 in the error shape and records nothing', async () => {
    const before = await uploadsCount();
    const meta = (name: string) => ({ 'upload-length': '100', 'upload-metadata': `filename ${b64(name)}` });
    await refused(await create({ 'upload-length': '100', 'upload-metadata': 'filename not*base64!' }), 400, /base64/);
    await refused(await create({ 'upload-length': '100', 'upload-metadata': 'filename' }), 400, /file name/, 'filename');
    await refused(await create(meta('evil\u0000name.zip')), 400, /control characters/, 'filename');
    await refused(await create(meta('line\nbreak.zip')), 400, /control characters/, 'filename');
    await refused(await create(meta('\u202Egnp.exe')), 400, /control characters/, 'filename');
    await refused(await create(meta('../../etc/passwd')), 400, /cannot contain/, 'filename');
    await refused(await create(meta('..\\..\\boot.ini')), 400, /cannot contain/, 'filename');
    await refused(await create(meta('..')), 400, /cannot be/, 'filename');
    await refused(await create(meta('a'.repeat(10_000))), 400, /at most 255 characters/, 'filename');
    await refused(await create({ 'upload-length': '100', 'upload-metadata': `filename ${Buffer.from([0xff, 0xfe, 0x41]).toString('base64')}` }), 400, /UTF-8/, 'filename');
    await refused(await create({ ...meta('x.zip'), 'upload-length': '0' }), 400, /empty/);
    await refused(await create({ ...meta('x.zip'), 'upload-length': '-5' }), 400, /Upload-Length/);
    await refused(await create({ 'upload-defer-length': '1', 'upload-metadata': `filename ${b64('x.zip')}` }), 400, /Upload-Length is required/);
    await refused(await create({ ...meta('x.zip'), 'upload-length': String(UPLOAD_MAX + 1) }), 413, /larger than the limit/);
    await refused(
      await create({ 'upload-length': String(THUMBNAIL_UPLOAD_MAX_BYTES + 1), 'upload-metadata': `filename ${b64('big.png')},purpose ${b64('thumbnail')}` }),
      413,
      /larger than the limit/,
    );
    await refused(await create({ ...meta('x.zip'), 'upload-metadata': `filename ${b64('x.zip')},purpose ${b64('avatar')}` }), 400, /purpose/);
    await refused(await fetch(`${t.base}${UPLOADS_PATH}`, { method: 'POST', headers: { ...t.headers, ...meta('x.zip') } }), 412, /Tus-Resumable/);
    expect(await uploadsCount()).toBe(before);
  });

  it('needs an admin session and a same-origin page', async () => {
    const headers = { ...TUS, 'upload-length': '10', 'upload-metadata': `filename ${b64('x.zip')}` };
    const anonymous = await fetch(`${t.base}${UPLOADS_PATH}`, { method: 'POST', headers: { ...headers, origin: t.base } });
    expect(anonymous.status).toBe(401);
    const foreign = await fetch(`${t.base}${UPLOADS_PATH}`, { method: 'POST', headers: { ...headers, cookie: t.admin.cookie, origin: 'https://evil.example' } });
    await refused(foreign, 403, /Cross-origin/);
    const begun = await tusUpload(t, randomData(3 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const patch = await fetch(begun.url, {
      method: 'PATCH',
      headers: { ...TUS, 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream', cookie: t.admin.cookie, origin: 'https://evil.example' },
      body: Buffer.alloc(10),
    });
    expect(patch.status).toBe(403);
    const del = await fetch(begun.url, { method: 'DELETE', headers: { ...TUS, origin: t.base } });
    expect(del.status).toBe(401);
    expect((await fetch(begun.url, { method: 'HEAD', headers: { ...t.headers, ...TUS } })).headers.get('upload-offset')).toBe(String(1024 * 1024));
  });

  it('speaks the tus extensions it advertises: creation-with-upload, termination, expiration (not deferred lengths)', async () => {
    const options = await fetch(`${t.base}${UPLOADS_PATH}`, { method: 'OPTIONS', headers: t.headers });
    expect(options.status).toBeLessThan(300);
    expect(options.headers.get('tus-extension')?.split(',')).toEqual(['creation', 'creation-with-upload', 'termination', 'expiration']);

    // creation-with-upload: the creation request carries the first bytes.
    const data = randomData(300_000);
    const created = await create(
      { 'upload-length': String(data.length), 'upload-metadata': `filename ${b64('first.zip')}`, 'content-type': 'application/offset+octet-stream' },
      { body: new Uint8Array(data.subarray(0, 100_000)) },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-offset')).toBe('100000');
    const expires = Date.parse(created.headers.get('upload-expires') ?? '');
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const url = new URL(created.headers.get('location')!, t.base).href;
    const id = url.slice(url.lastIndexOf('/') + 1);
    const head = await fetch(url, { method: 'HEAD', headers: { ...t.headers, ...TUS } });
    expect(head.headers.get('upload-offset')).toBe('100000');
    const rest = await fetch(url, {
      method: 'PATCH',
      headers: { ...t.headers, ...TUS, 'upload-offset': '100000', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(data.subarray(100_000)),
    });
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(data.length));
    expect((await t.database.db.selectFrom('uploads').select('sha256').where('id', '=', id).executeTakeFirstOrThrow()).sha256).toBe(sha256(data));

    // termination: an admin cancels an unfinished upload; its row and its bytes go.
    const { files } = openFileStore(t.config);
    const begun = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    expect((await files.stat(uploadKey(begun.id)))?.size).toBe(1024 * 1024);
    const del = await fetch(begun.url, { method: 'DELETE', headers: { ...t.headers, ...TUS } });
    expect(del.status).toBe(204);
    expect(await t.database.db.selectFrom('uploads').select('id').where('id', '=', begun.id).execute()).toEqual([]);
    for (const key of [uploadKey(begun.id), ...uploadCompanionKeys(begun.id)]) expect(await files.stat(key)).toBeNull();
    expect((await fetch(begun.url, { method: 'HEAD', headers: { ...t.headers, ...TUS } })).status).toBe(404);

    // expiration: an upload created more than 24 h ago is gone for HEAD and PATCH.
    const old = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const infoFile = path.join(t.dataDir, LOCAL_FILES_DIR, uploadKey(old.id) + '.json');
    const info = JSON.parse(await readFile(infoFile, 'utf8')) as { creation_date: string };
    await writeFile(infoFile, JSON.stringify({ ...info, creation_date: new Date(Date.now() - UPLOAD_EXPIRY_MS - 60_000).toISOString() }));
    expect((await fetch(old.url, { method: 'HEAD', headers: { ...t.headers, ...TUS } })).status).toBe(410);
    const late = await fetch(old.url, {
      method: 'PATCH',
      headers: { ...t.headers, ...TUS, 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(10),
    });
    await refused(late, 410, /no longer exists/);
  });

  it('answers offsets that do not match with 409, a chunk over 50 MiB with 413, an unknown id with 404', async () => {
    const begun = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const wrong = await fetch(begun.url, {
      method: 'PATCH',
      headers: { ...t.headers, ...TUS, 'upload-offset': '5', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(10),
    });
    await refused(wrong, 409, /offset/i);
    await refused(
      await fetch(begun.url, { method: 'PATCH', headers: { ...t.headers, ...TUS, 'upload-offset': 'x', 'content-type': 'application/offset+octet-stream' }, body: 'x' }),
      400,
      /Upload-Offset/,
    );
    await refused(
      await fetch(begun.url, { method: 'PATCH', headers: { ...t.headers, ...TUS, 'upload-offset': '0', 'content-type': 'text/plain' }, body: 'x' }),
      415,
      /Content-Type/,
    );
    // A declared body over the chunk limit is refused before a byte of it is read.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(begun.url, {
        method: 'PATCH',
        headers: { ...t.headers, ...TUS, 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream', 'content-length': String(UPLOAD_CHUNK_BYTES + 1) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
    await refused(await fetch(`${t.base}${uploadPath('0'.repeat(32))}`, { method: 'PATCH', headers: { ...t.headers, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'x' }), 404, /No such upload/);
  });

  it('answers 507 before the upload starts when the disk cannot hold it', async () => {
    const s = await statfs(t.dataDir);
    const free = Number(s.bavail) * Number(s.bsize);
    const big = await startFilesApp(kind, 'local', { uploadMaxBytes: free * 4 });
    try {
      const res = await fetch(`${big.base}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: { ...big.headers, ...TUS, 'upload-length': String(free * 2), 'upload-metadata': `filename ${b64('huge.iso')}` },
      });
      await refused(res, 507, /no room/);
      expect(await big.database.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    } finally {
      await big.close();
    }
  }, 120_000);

  it('refuses hostile thumbnails on save with 400 on the field and changes nothing', async () => {
    const created = (
      await t.app.inject({
        method: 'POST',
        url: API.adminResources,
        headers: { cookie: t.admin.cookie },
        payload: { title: 'Target', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/a.zip' },
      })
    ).json();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const cases: [string, Buffer][] = [
      ['archive.png', Buffer.from('PK\u0003\u0004 not an image at all, a zip header')],
      ['script.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
      ['truncated.png', png.subarray(0, Math.floor(png.length / 2))],
      ['polyglot.png', Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')])],
      ['page.html', Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
    ];
    for (const [name, data] of cases) {
      const up = await tusUpload(t, data, { name, purpose: 'thumbnail' });
      const res = await t.app.inject({ method: 'PATCH', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie }, payload: { thumbnail_upload_id: up.id } });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().error.fields).toHaveProperty('thumbnail_upload_id');
      const after = (await t.app.inject({ url: API.resource(created.id) })).json();
      expect(after).toMatchObject({ thumbnail_url: '/thumbnails/1.svg', thumbnail: null, updated_at: created.updated_at });
    }
    // Not finished yet: refused, the upload kept for resuming.
    const partial = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const res = await t.app.inject({ method: 'PATCH', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie }, payload: { download_upload_id: partial.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.download_upload_id).toMatch(/not complete/);
    // Both a link and an upload for one slot: refused by the contract.
    const both = await t.app.inject({ method: 'PATCH', url: API.adminResource(created.id), headers: { cookie: t.admin.cookie }, payload: { download_upload_id: partial.id, download_url: 'https://example.com/b.zip' } });
    expect(both.statusCode).toBe(400);
  });

  it('signed download links: expired and tampered ones get 403 in the error shape', async () => {
    const up = await tusUpload(t, randomData(1000), { name: 'signed.zip' });
    const created = (
      await t.app.inject({
        method: 'POST',
        url: API.adminResources,
        headers: { cookie: t.admin.cookie },
        payload: { title: 'Signed', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_upload_id: up.id },
      })
    ).json();
    const { download_url } = (await (await fetch(`${t.base}${API.download(created.id)}`, { method: 'POST' })).json()) as { download_url: string };
    expect((await fetch(download_url)).status).toBe(200);
    const token = download_url.slice(download_url.lastIndexOf('/') + 1);
    const [fileId, expires, mac] = token.split('.');
    const bads = [`${Number(fileId) + 1}.${expires}.${mac}`, `${fileId}.${Number(expires) + 3600}.${mac}`, `${fileId}.${expires}.${tampered(mac)}`, 'nonsense'];
    for (const bad of bads) {
      const res = await fetch(`${t.base}/api/files/${bad}`);
      await refused(res, 403, /not valid/);
    }
    // A link signed an hour ago with the app's own secret.
    const old = linkSigner(t.config.sessionSecret!).sign(Number(fileId), Date.now() - 3_600_000);
    await refused(await fetch(`${t.base}/api/files/${old}`), 403, /expired/);

    // Opened in a browser (HTML first): the site's page, naming the resource only for an authentic link.
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' };
    const opened = async (token: string, headers: Record<string, string>) => {
      const res = await fetch(`${t.base}/api/files/${token}`, { headers, redirect: 'manual' });
      expect(res.status, token).toBe(303);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.headers.get('location');
    };
    expect(await opened(old, browser)).toBe(`/download-expired?resource=${created.id}`);
    for (const bad of bads) expect(await opened(bad, browser)).toBe('/download-expired');
    // An API client keeps the JSON error, whatever else it accepts.
    for (const accept of ['application/json', 'application/json, text/html;q=0.5', '*/*', '']) {
      await refused(await fetch(`${t.base}/api/files/${old}`, { headers: { accept } }), 403, /expired/);
    }
  });
});
