import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { type FilesTestApp, randomData, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { TEST_DATABASES } from '../../testing/test-utils';

const TUS = { 'tus-resumable': '1.0.0' };
const MiB = 1024 * 1024;
const resource = (over: Record<string, unknown>) => ({ title: 'Hosted pack', description: 'A pack hosted on this site', category: 'video_editing', tags: ['Hosted'], thumbnail_url: '/thumbnails/1.svg', ...over });

/** An upload belongs to the admin who created it: another admin holding its id can neither touch nor attach it. */
describe.each(TEST_DATABASES)('whose an upload is, on %s', (kind) => {
  let t: FilesTestApp;
  let other: SignedIn;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
    other = await createAndSignIn(t.app, t.database, `other_admin_${kind}`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("answers another admin's resume, continue and cancel with 404, and leaves the upload as it was", async () => {
    const data = randomData(2 * MiB);
    const begun = await tusUpload(t, data, { chunkSize: MiB, stopAfterBytes: MiB });
    const as = (cookie: string) => ({ cookie, origin: t.base, ...TUS });
    const head = await fetch(begun.url, { method: 'HEAD', headers: as(other.cookie) });
    expect(head.status).toBe(404);
    const patch = await fetch(begun.url, {
      method: 'PATCH',
      headers: { ...as(other.cookie), 'upload-offset': String(MiB), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(MiB),
    });
    expect(patch.status).toBe(404);
    expect(((await patch.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await fetch(begun.url, { method: 'DELETE', headers: as(other.cookie) })).status).toBe(404);

    // Its owner still finds it where it stopped, and finishes it.
    expect((await fetch(begun.url, { method: 'HEAD', headers: as(t.admin.cookie) })).headers.get('upload-offset')).toBe(String(MiB));
    expect((await tusUpload(t, data, { uploadUrl: begun.url })).completed).toBe(true);
  });

  it("refuses to attach another admin's upload on save (400 on the field), and attaches it for its owner", async () => {
    const up = await tusUpload(t, randomData(MiB));
    const stolen = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: other.cookie }, payload: resource({ download_upload_id: up.id }) });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.fields).toHaveProperty('download_upload_id');
    expect(await t.database.db.selectFrom('uploads').select('id').where('id', '=', up.id).execute()).toHaveLength(1);

    const own = await t.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: t.admin.cookie }, payload: resource({ download_upload_id: up.id }) });
    expect(own.statusCode).toBe(201);
  });
});
