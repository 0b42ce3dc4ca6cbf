import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { CONTENTS_PAGE_SIZE, type ContentsPage } from '../../../contract/contents';
import type { PublicResource, Resource } from '../../../contract/resources';
import { type FilesTestApp, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { TEST_DATABASES } from '../../testing/test-utils';
import { claimUncompressedSize, emptyFilesZip, renameInPlace, zipOf } from '../../testing/zip-writer';

/**
 * A hosted download is listed by the files.list job after it is attached (never extracted): its
 * files through GET /api/resources/{id}/contents, a page at a time, and the apps deduced from
 * them on the resource; a hostile or broken archive shows its reason; an admin's correction of
 * the apps wins over the deduced ones.
 */
describe.each(TEST_DATABASES)('what is inside a download on %s', (kind) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
  });
  afterAll(async () => {
    await t?.close();
  });

  const base = { description: 'A pack', category: 'motion_graphics', thumbnail_url: 'https://img.example.com/t.png', tags: [] };
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { cookie: t.admin.cookie } });
  const pub = async (id: number) => (await t.app.inject({ method: 'GET', url: API.resource(id) })).json<PublicResource>();
  const contents = (id: number, cursor?: string) => t.app.inject({ method: 'GET', url: `${API.resourceContents(id)}${cursor === undefined ? '' : `?cursor=${cursor}`}` });

  /** A resource whose hosted download is `data` named `name`, once its listing is read. */
  async function packOf(data: Buffer, name: string, extra: object = {}): Promise<number> {
    const upload = await tusUpload(t, data, { name });
    const created = await send('POST', API.adminResources, { ...base, title: name, download_upload_id: upload.id, ...extra });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Resource>().id;
    const end = Date.now() + 30_000;
    while ((await pub(id)).contents === null) {
      if (Date.now() > end) throw new Error('the listing was not read');
      await delay(50);
    }
    return id;
  }

  it('lists a pack’s four files through the API and deduces Premiere Pro, After Effects and any LUT-capable editor', async () => {
    const zip = await zipOf([
      { name: 'Pack/', data: '' },
      { name: 'Pack/Title.mogrt', data: 'm'.repeat(1200) },
      { name: 'Pack/Project.aep', data: 'a'.repeat(3400) },
      { name: 'Pack/Look.cube', data: 'LUT_3D_SIZE 2\n' },
      { name: 'Pack/Read me.txt', data: 'Thanks for downloading.' },
    ]);
    const id = await packOf(zip, 'Starter pack.zip');
    const resource = await pub(id);
    expect(resource.apps.map((a) => a.id)).toEqual(['premiere-pro', 'after-effects', 'any-editor']);
    expect(resource.apps[0]).toEqual({ id: 'premiere-pro', label: 'Premiere Pro', min_version: null });
    expect(resource.contents).toEqual({ status: 'listed', reason: null, count: 4, total_size: 1200 + 3400 + 14 + 23 });

    const page = await contents(id);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<ContentsPage>()).toEqual({
      status: 'listed',
      reason: null,
      count: 4,
      total_size: 4637,
      extensions: { mogrt: 1, aep: 1, cube: 1, txt: 1 },
      entries: [
        { path: 'Pack/Title.mogrt', size: 1200 },
        { path: 'Pack/Project.aep', size: 3400 },
        { path: 'Pack/Look.cube', size: 14 },
        { path: 'Pack/Read me.txt', size: 23 },
      ],
      nextCursor: null,
    });
    // The public list carries the same apps.
    const list = (await t.app.inject({ method: 'GET', url: `${API.resources}?category=motion_graphics&limit=50` })).json<{ items: PublicResource[] }>();
    expect(list.items.find((r) => r.id === id)?.apps.map((a) => a.id)).toEqual(['premiere-pro', 'after-effects', 'any-editor']);
  });

  it('pages through a large pack in the archive’s order', async () => {
    const names = Array.from({ length: CONTENTS_PAGE_SIZE + 37 }, (_, i) => ({ name: `Clips/clip-${String(i).padStart(4, '0')}.mov`, data: String(i) }));
    const id = await packOf(await zipOf(names), 'Big pack.zip');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await contents(id, cursor);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ContentsPage>();
      seen.push(...page.entries.map((e) => e.path));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(2);
    expect(seen).toEqual(names.map((n) => n.name));
    expect((await contents(id, 'x1')).statusCode).toBe(400);
    const past = (await contents(id, '999999')).json<ContentsPage>();
    expect(past).toMatchObject({ entries: [], nextCursor: null, count: names.length });
  });

  it('gives the reason for a zip bomb, a ../ path, a truncated archive and 100,000 entries, and lists nothing of them', async () => {
    const bomb = claimUncompressedSize(await zipOf([{ name: 'a.bin', data: 'x'.repeat(1000) }], { compress: true }), 0xfffffff0);
    const escaping = renameInPlace(await zipOf([{ name: 'aa/evil.aep', data: 'x' }]), 'aa/evil.aep', '../evil.aep');
    const whole = await zipOf([{ name: 'Title.mogrt', data: 'm'.repeat(5000) }]);
    const truncated = whole.subarray(0, whole.length - 30);
    const cases = [
      { data: bomb, name: 'bomb.zip', status: 'too-large', reason: /unpack to more than/ },
      { data: escaping, name: 'escaping.zip', status: 'broken', reason: /outside the archive: \.\.\/evil\.aep/ },
      { data: truncated, name: 'truncated.zip', status: 'broken', reason: /directory is missing|Not a readable ZIP/ },
      { data: emptyFilesZip(100_000), name: 'hundred-thousand.zip', status: 'too-large', reason: /100,000 entries, more than the 10,000 listed/ },
    ];
    for (const c of cases) {
      const id = await packOf(c.data, c.name);
      const page = await contents(id);
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json<ContentsPage>();
      expect(body, c.name).toMatchObject({ status: c.status, entries: [], count: null, nextCursor: null });
      expect(body.reason, c.name).toMatch(c.reason);
      expect((await pub(id)).apps, c.name).toEqual([]);
    }
  });

  it('shows another archive type as not listed (its name and size), and 404s for a link, a draft or an unknown resource', async () => {
    const id = await packOf(Buffer.from('Rar!\x1a\x07\x00 not really'), 'Pack.rar');
    const resource = await pub(id);
    expect(resource.contents).toEqual({ status: 'not-zip', reason: null, count: null, total_size: null });
    expect(resource.file).toMatchObject({ name: 'Pack.rar' });
    expect((await contents(id)).json<ContentsPage>()).toMatchObject({ status: 'not-zip', entries: [] });

    const link = await send('POST', API.adminResources, { ...base, title: 'Linked', download_url: 'https://files.example.com/p.zip' });
    expect((await contents(link.json<Resource>().id)).statusCode).toBe(404);
    const upload = await tusUpload(t, await zipOf([{ name: 'a.mogrt', data: 'x' }]), { name: 'Draft.zip' });
    const draft = await send('POST', API.adminResources, { ...base, title: 'Draft', status: 'draft', download_upload_id: upload.id });
    expect(draft.statusCode, draft.body).toBe(201);
    const draftId = draft.json<Resource>().id;
    await expect
      .poll(async () => (await t.database.db.selectFrom('files').innerJoin('resources', 'resources.download_file_id', 'files.id').select('files.listing_status').where('resources.id', '=', draftId).executeTakeFirst())?.listing_status, { timeout: 30_000 })
      .toBe('listed');
    expect(draft.json<Resource>().apps).toEqual([]); // not listed yet when it was saved
    expect((await contents(draftId)).statusCode).toBe(404);
    expect((await contents(999_999)).statusCode).toBe(404);
  });

  it('an admin corrects the apps with a minimum version (the correction wins and is audited) and can go back to the deduced ones', async () => {
    const id = await packOf(await zipOf([{ name: 'Title.mogrt', data: 'x' }]), 'Titles.zip');
    expect((await pub(id)).apps.map((a) => a.id)).toEqual(['premiere-pro']);

    const bad = await send('PATCH', API.adminResource(id), { apps: [{ id: 'premiere', min_version: '2020' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: Record<string, string> } }>().error.fields).toHaveProperty(['apps.0.id']);
    const twice = await send('PATCH', API.adminResource(id), { apps: [{ id: 'premiere-pro' }, { id: 'premiere-pro' }] });
    expect(twice.statusCode).toBe(400);

    const fixed = await send('PATCH', API.adminResource(id), { apps: [{ id: 'premiere-pro', min_version: '2020' }, { id: 'davinci-resolve', min_version: '18.5' }] });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<Resource>()).toMatchObject({ apps_corrected: true });
    expect((await pub(id)).apps).toEqual([
      { id: 'premiere-pro', label: 'Premiere Pro', min_version: '2020' },
      { id: 'davinci-resolve', label: 'DaVinci Resolve', min_version: '18.5' },
    ]);
    const audit = await sql<{ action: string; changes: string }>`select action, changes from audit_log where target_id = ${String(id)} order by id desc limit 1`.execute(t.database.db);
    expect(audit.rows[0]?.action).toBe('resource.update');
    expect(JSON.parse(audit.rows[0]?.changes ?? '{}')).toEqual({
      before: { apps: null },
      after: { apps: [{ id: 'premiere-pro', min_version: '2020' }, { id: 'davinci-resolve', min_version: '18.5' }] },
    });

    const back = await send('PATCH', API.adminResource(id), { apps: null });
    expect(back.json<Resource>()).toMatchObject({ apps_corrected: false });
    expect((await pub(id)).apps.map((a) => a.id)).toEqual(['premiere-pro']);
  });
});
