import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { Resource } from '../../../contract/resources';
import { type FilesTestApp, startFilesApp, DEPLOYMENTS, tusUpload } from '../../testing/files-helpers';

/**
 * A save is all or nothing (issue #27 item 4, saveResource in save.ts): a create or an edit that
 * answers an error leaves no row and changes nothing, however many race for one upload.
 */

const cube = (size: number) => [`LUT_3D_SIZE ${size}`, ...Array.from({ length: size ** 3 }, (_, i) => `${(i % size) / (size - 1)} ${(Math.floor(i / size) % size) / (size - 1)} ${Math.floor(i / size ** 2) / (size - 1)}`)].join('\n');

describe.each(DEPLOYMENTS)('saving a resource on %s with the %s store', (kind, store) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, store);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: 'POST' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { cookie: t.admin.cookie } });
  const titled = async (title: string) => (await t.database.db.selectFrom('resources').select(['id', 'title', 'preview_job_id']).where('title', '=', title).execute());

  // A loser that checks the upload while the winner attaches it gets 409; one that checks after the
  // winner's commit finds it attached and gets 400 ("not found … already attached"): which, is timing.
  const LOSER_ANSWERS: Record<number, unknown> = {
    409: { error: { code: 'CONFLICT', message: 'The upload was attached or removed meanwhile', fields: { preview_source: 'The upload is no longer available' } } },
    400: { error: { code: 'VALIDATION_ERROR', message: 'The upload was not found: it expired, was cancelled or is already attached', fields: { preview_source: 'The upload was not found: it expired, was cancelled or is already attached' } } },
  };

  it('eight creates naming one preview upload: one 201, seven refused on the upload, and one resource', async () => {
    const lut = await tusUpload(t, Buffer.from(cube(3)), { name: 'race.cube' });
    const title = `Raced ${kind} ${store}`;
    const body = { title, description: 'x', category: 'color_grading', thumbnail_url: 'https://img.example.com/t.png', download_url: 'https://files.example.com/p.zip', preview_source: { kind: 'lut', upload_id: lut.id } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send('POST', API.adminResources, body)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201), answers.map((a) => a.body).join("\n")).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 201)) expect(a.json(), String(a.statusCode)).toEqual(LOSER_ANSWERS[a.statusCode]);
    const rows = await titled(title);
    expect(rows).toHaveLength(1);
    const created = answers.find((a) => a.statusCode === 201)!.json<Resource>();
    expect(Number(rows[0]!.id)).toBe(created.id);
    expect(rows[0]!.preview_job_id).not.toBeNull();
    // One job, one files row for the upload: the losers left nothing behind.
    expect(await t.database.db.selectFrom('media_jobs').select('id').where('subject', '=', `resource:${created.id}`).execute()).toHaveLength(1);
    expect(await t.database.db.selectFrom('files').select('id').where('key', '=', `uploads/${lut.id}`).execute()).toHaveLength(1);
  });

  it('edits racing for one preview upload: those refused change nothing (title, download)', async () => {
    const lut = await tusUpload(t, Buffer.from(cube(2)), { name: 'once.cube' });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await send('POST', API.adminResources, { title: `Edited ${i}`, description: 'x', category: 'color_grading', thumbnail_url: 'https://img.example.com/t.png', download_url: `https://files.example.com/${i}.zip` });
      ids.push(r.json<Resource>().id);
    }
    const downloads = await Promise.all(ids.map((_, i) => tusUpload(t, Buffer.from(`pack ${i}`), { name: `new-${i}.zip` })));
    const answers = await Promise.all(ids.map((id, i) => send('PATCH', API.adminResource(id), { title: `Renamed ${i}`, download_upload_id: downloads[i]!.id, preview_source: { kind: 'lut', upload_id: lut.id } })));
    expect(answers.filter((a) => a.statusCode === 200), answers.map((a) => a.body).join("\n")).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.json(), String(a.statusCode)).toEqual(LOSER_ANSWERS[a.statusCode]);
    for (const [i, id] of ids.entries()) {
      const row = await t.database.db.selectFrom('resources').select(['title', 'download_url', 'download_file_id', 'preview_job_id']).where('id', '=', id).executeTakeFirstOrThrow();
      if (answers[i]!.statusCode === 200) {
        expect(row.title).toBe(`Renamed ${i}`);
        continue;
      }
      expect(row).toEqual({ title: `Edited ${i}`, download_url: `https://files.example.com/${i}.zip`, download_file_id: null, preview_job_id: null });
      // Its download upload was not consumed: the admin saves again without the preview.
      const again = await send('PATCH', API.adminResource(id), { title: `Renamed ${i}`, download_upload_id: downloads[i]!.id });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<Resource>()).toMatchObject({ title: `Renamed ${i}`, file: { name: `new-${i}.zip` } });
    }
  });
});
