import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { buildApp } from '../../app';
import type { App } from '../../context';
import { type Database, openDatabase } from '../../db/connection';
import { type FilesTestApp, randomData, sha256, startFilesApp, DEPLOYMENTS, tusUpload } from '../../testing/files-helpers';

// Two app instances on one database and one store (the bucket, or a shared DATA_DIR): an upload
// begun through one is resumed and finished through the other, then attached and downloaded.
describe.each(DEPLOYMENTS)('two instances on %s with the %s store', (kind, store) => {
  let a: FilesTestApp;
  let b: App;
  let bDb: Database | undefined;
  let bBase: string;
  beforeAll(async () => {
    a = await startFilesApp(kind, store);
    // A real second connection where the database is a server; the in-process ones are shared.
    if (a.config.database.kind === 'postgres') bDb = await openDatabase(a.config.database);
    b = await buildApp(a.config, bDb ?? a.database);
    await b.listen({ port: 0, host: '127.0.0.1' });
    bBase = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
  }, 120_000); // a real server per store and database: slow to start on a busy machine
  afterAll(async () => {
    await b?.close();
    await bDb?.close();
    await a?.close();
  });

  it('resumes on B an upload begun on A; B attaches it and A serves the download', async () => {
    const data = randomData(7 * 1024 * 1024 + 3);
    const chunk = 2 * 1024 * 1024;
    const begun = await tusUpload(a, data, { chunkSize: chunk, stopAfterBytes: chunk });
    expect(begun.completed).toBe(false);
    const onB = { ...a, base: bBase, headers: { cookie: a.admin.cookie, origin: bBase } };
    const finished = await tusUpload(onB, data, { chunkSize: chunk, uploadUrl: `${bBase}/api/admin/uploads/${begun.id}` });
    expect(finished.completed).toBe(true);
    expect(finished.firstOffset).toBeGreaterThanOrEqual(chunk);

    const created = await b.inject({
      method: 'POST',
      url: API.adminResources,
      headers: { cookie: a.admin.cookie },
      payload: { title: 'Two instances', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_upload_id: begun.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    // B did not see the first bytes: it read the stored file back to hash it.
    expect(created.json().file.sha256).toBe(sha256(data));
    const { download_url } = (await (await fetch(`${a.base}${API.download(created.json().id)}`, { method: 'POST' })).json()) as { download_url: string };
    expect(sha256(Buffer.from(await (await fetch(download_url)).arrayBuffer()))).toBe(sha256(data));
  });
});
