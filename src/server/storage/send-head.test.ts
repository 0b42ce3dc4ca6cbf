import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api-paths';
import { mediaUrl } from '../../contract/files';
import { mediaKey } from './keys';
import { setMediaOwners } from '../modules/media/owners';
import { type FilesTestApp, randomData, startFilesApp, tusUpload } from '../testing/files-helpers';
import { BROWSER, TEST_DATABASES } from '../testing/test-utils';
import { LocalFileStore } from './local';

/** The headers a download manager compares between its HEAD probe and its GET. */
const COMPARED = ['content-length', 'content-range', 'content-type', 'content-disposition', 'etag', 'last-modified', 'accept-ranges', 'cache-control'];

const pick = (res: Response) => Object.fromEntries(COMPARED.map((h) => [h, res.headers.get(h)]));

describe.each(TEST_DATABASES)('HEAD answers what GET sends, on %s', (kind) => {
  let t: FilesTestApp;
  const data = randomData(1_024_000);
  let downloadUrl: string;
  let mediaAt: string;

  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
    const up = await tusUpload(t, data, { name: 'pack.zip' });
    const created = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: t.admin.cookie },
      payload: { title: 'Hosted pack', description: 'A pack', category: 'video_editing', tags: [], thumbnail_url: '/thumbnails/1.svg', download_upload_id: up.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const recorded = await fetch(`${t.base}${API.download(created.json<{ id: number }>().id)}`, { method: 'POST', headers: BROWSER });
    downloadUrl = ((await recorded.json()) as { download_url: string }).download_url;
    expect(downloadUrl).toContain('/api/files/');

    const name = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.mp4`;
    await new LocalFileStore(path.join(t.dataDir, 'files')).put(mediaKey(name), Readable.from([data]), { maxBytes: data.length });
    // /media/ serves a file only while a resource owns it (decision 330).
    await setMediaOwners(t.database.db, [created.json<{ id: number }>().id], 'preview', [mediaKey(name)]);
    mediaAt = `${t.base}${mediaUrl(name)}`;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['a signed download', () => downloadUrl],
    ['a derived media file', () => mediaAt],
  ])('%s: whole, ranged and conditional', async (_name, url) => {
    for (const headers of [{}, { range: 'bytes=1000-1999' }, { range: 'bytes=-24' }] as Record<string, string>[]) {
      const get = await fetch(url(), { headers });
      const body = Buffer.from(await get.arrayBuffer());
      const head = await fetch(url(), { method: 'HEAD', headers });
      expect(head.status, JSON.stringify(headers)).toBe(get.status);
      expect(pick(head), JSON.stringify(headers)).toEqual(pick(get));
      expect(Number(head.headers.get('content-length'))).toBe(body.length);
      expect(await head.arrayBuffer()).toHaveProperty('byteLength', 0);
    }
    expect(Number((await fetch(url(), { method: 'HEAD' })).headers.get('content-length'))).toBe(data.length);

    const etag = (await fetch(url(), { method: 'HEAD' })).headers.get('etag')!;
    const get = await fetch(url(), { headers: { 'if-none-match': etag } });
    const head = await fetch(url(), { method: 'HEAD', headers: { 'if-none-match': etag } });
    expect([get.status, head.status]).toEqual([304, 304]);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });
});
