import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { CATALOGUE_COLUMNS, IMPORT_BODY_MAX_BYTES, type ImportReport } from '../../../contract/catalogue';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { nowIso } from '../../time';
import { parseCsv } from './csv';
import { fileKey } from './file-keys';

const SHA = (c: string) => c.repeat(64);
const future = () => new Date(Date.now() + 86_400_000).toISOString();

describe.each(TEST_DATABASES)('catalogue export and import on %s', (kind) => {
  let t: TestApp;
  let editor: SignedIn;
  const ids: Record<string, number> = {};
  const fileIds = { download: 0, thumbnail: 0 };

  beforeAll(async () => {
    t = await createTestApp(kind);
    editor = await createAndSignIn(t.app, t.database, 'cat_editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const create = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API.adminResources,
      payload: { description: 'A pack', category: 'typography', thumbnail_url: 'https://img.example.com/t.png', download_url: 'https://dl.example.com/f.zip', ...body },
      headers: { cookie: editor.cookie },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const exportAs = (format: 'csv' | 'json') => t.app.inject({ method: 'GET', url: `${API.adminResourcesExport}?format=${format}`, headers: { cookie: editor.cookie } });
  const importCsv = (csv: string, dryRun: boolean, contentType = 'text/csv') =>
    t.app.inject({ method: 'POST', url: `${API.adminResourcesImport}${dryRun ? '?dry_run=true' : ''}`, payload: csv, headers: { cookie: editor.cookie, 'content-type': contentType } });
  const state = async () => ({
    resources: await db().selectFrom('resources').selectAll().orderBy('id').execute(),
    tags: await db().selectFrom('resource_tags').selectAll().orderBy('resource_id').orderBy('tag').execute(),
    files: await db().selectFrom('files').selectAll().orderBy('id').execute(),
  });
  const csvOf = (rows: Record<string, string>[], columns = Object.keys(rows[0])) =>
    [columns.join(','), ...rows.map((r) => columns.map((c) => (/[",\r\n]/.test(r[c] ?? '') ? `"${(r[c] ?? '').replace(/"/g, '""')}"` : (r[c] ?? ''))).join(','))].join('\r\n') + '\r\n';
  const exportedRows = async () => {
    const [header, ...rows] = parseCsv((await exportAs('csv')).body);
    return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  };

  it('sets the scene: a published, a draft, a scheduled resource, one with a hosted download and thumbnail', async () => {
    ids.published = await create({ title: 'Published pack', tags: ['Grain', 'Film'], licence: { kind: 'attribution', credit: 'By Ada, "the" best' } });
    ids.draft = await create({ title: 'Draft pack', status: 'draft', description: 'Two lines\nof text, with a comma' });
    ids.scheduled = await create({ title: 'Scheduled pack', status: 'scheduled', publish_at: future(), is_premium: true });
    ids.formula = await create({ title: '=HYPERLINK("https://evil.example","x")', description: '+SUM(A1)', tags: ['-dash', '@at'] });
    ids.hosted = await create({ title: 'Hosted pack' });
    const at = nowIso();
    const image = JSON.stringify({ width: 10, height: 10, variants: [{ format: 'webp', width: 10, height: 10, fileName: `${'a'.repeat(32)}.webp` }], placeholder: { color: '#336699', dataUri: 'data:image/webp;base64,AAAA' } });
    const download = await db()
      .insertInto('files')
      .values({ key: 'uploads/x', kind: 'download', name: 'pack.zip', size: 1234, sha256: SHA('b'), content_type: 'application/zip', image: null, created_at: at, detached_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const thumb = await db()
      .insertInto('files')
      .values({ key: 'media/y.webp', kind: 'thumbnail', name: 'cover.png', size: 99, sha256: SHA('c'), content_type: 'image/webp', image, created_at: at, detached_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    fileIds.download = Number(download.id);
    fileIds.thumbnail = Number(thumb.id);
    await db()
      .updateTable('resources')
      .set({ download_file_id: fileIds.download, download_url: '', thumbnail_file_id: fileIds.thumbnail, thumbnail_url: `/media/${'a'.repeat(32)}.webp` })
      .where('id', '=', ids.hosted)
      .execute();
  });

  it('exports every resource, whatever its status, as a dated CSV attachment in the documented columns', async () => {
    const res = await exportAs('csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="resources-${nowIso().slice(0, 10)}.csv"; filename*=UTF-8''resources-${nowIso().slice(0, 10)}.csv`);
    expect(res.body.split('\r\n')[0]).toBe(CATALOGUE_COLUMNS.join(','));
    const rows = await exportedRows();
    expect(rows.map((r) => Number(r.id))).toEqual(Object.values(ids).sort((a, b) => a - b));
    const by = (id: number) => rows.find((r) => Number(r.id) === id)!;
    expect(by(ids.published)).toMatchObject({ status: 'published', tags: 'Grain, Film', licence_kind: 'attribution', licence_text: 'By Ada, "the" best', is_premium: 'false' });
    expect(by(ids.draft)).toMatchObject({ status: 'draft', description: 'Two lines\nof text, with a comma', publish_at: '' });
    expect(by(ids.scheduled)).toMatchObject({ status: 'scheduled', is_premium: 'true' });
    expect(by(ids.scheduled).publish_at).not.toBe('');
    expect(by(ids.hosted)).toMatchObject({
      download_url: '',
      download_file: fileKey(fileIds.download, SHA('b')),
      download_file_name: 'pack.zip',
      thumbnail_url: '',
      thumbnail_file: fileKey(fileIds.thumbnail, SHA('c')),
      thumbnail_file_name: 'cover.png',
      download_count: '0',
    });
  });

  it('guards cells a spreadsheet would run as a formula with a leading apostrophe', async () => {
    const raw = (await exportAs('csv')).body;
    expect(raw).toContain(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(raw).toContain(`'+SUM(A1)`);
    expect(raw).toContain(`'-dash, @at`);
    expect(raw).not.toMatch(/(^|,)[=+@]/m);
  });

  it('exports the same resources as one JSON array with typed fields', async () => {
    const res = await exportAs('json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`resources-${nowIso().slice(0, 10)}.json`);
    const list = res.json() as Record<string, unknown>[];
    expect(list).toHaveLength((await exportedRows()).length);
    const published = list.find((r) => r.id === ids.published)!;
    expect(published).toMatchObject({ tags: ['Grain', 'Film'], licence: { kind: 'attribution', credit: 'By Ada, "the" best' }, is_premium: false, status: 'published' });
    expect(list.find((r) => r.id === ids.formula)!.title).toBe('=HYPERLINK("https://evil.example","x")');
    expect(list.find((r) => r.id === ids.hosted)!.download_file).toEqual({ key: fileKey(fileIds.download, SHA('b')), name: 'pack.zip', size: 1234, sha256: SHA('b') });
    expect((await exportAs('csv' as never)).statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'GET', url: `${API.adminResourcesExport}?format=xml`, headers: { cookie: editor.cookie } });
    expect(bad.statusCode).toBe(400);
  });

  it('round trip: an export imported back is a skip on every row, in a dry run and applied, and changes nothing', async () => {
    const csv = (await exportAs('csv')).body;
    const before = await state();
    const dry = await importCsv(csv, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const report = dry.json() as ImportReport;
    expect(report.rows.every((r) => r.action === 'skip'), JSON.stringify(report.rows)).toBe(true);
    expect(report.counts.skip).toBe(report.rows.length);
    const applied = await importCsv(csv, false);
    expect(applied.statusCode).toBe(200);
    expect((applied.json() as ImportReport).counts).toEqual({ create: 0, update: 0, skip: report.rows.length, error: 0 });
    expect(await state()).toEqual(before);
  });

  it('a dry run reports create, update, skip and errors by field, and changes nothing', async () => {
    const rows = await exportedRows();
    const published = rows.find((r) => Number(r.id) === ids.published)!;
    const draft = rows.find((r) => Number(r.id) === ids.draft)!;
    const csv = csvOf([
      { ...published, title: 'Published pack, renamed' },
      { ...draft },
      { ...draft, id: '', title: 'Brand new', status: 'published', download_url: 'https://dl.example.com/new.zip' },
      { ...draft, id: '', title: 'Bad link', download_url: 'javascript:alert(1)' },
      { ...draft, id: '999999', title: 'Nobody' },
    ]);
    const before = await state();
    const version = await t.database.dataVersion({ fresh: true });
    const res = await importCsv(csv, true);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as ImportReport;
    expect(report.dry_run).toBe(true);
    expect(report.rows.map((r) => [r.row, r.action])).toEqual([
      [2, 'update'],
      [3, 'skip'],
      [4, 'create'],
      [5, 'error'],
      [6, 'error'],
    ]);
    expect(report.rows[3].errors).toEqual({ download_url: 'Download URL must be an http(s) URL' });
    expect(report.rows[4].errors).toEqual({ id: 'No resource has this id' });
    expect(report.counts).toEqual({ create: 1, update: 1, skip: 1, error: 2 });
    expect(await state()).toEqual(before);
    expect(await t.database.dataVersion({ fresh: true })).toBe(version);
  });

  it('applying creates and updates the good rows, each all or nothing, a bad row changing nothing; public lists follow', async () => {
    const rows = await exportedRows();
    const published = rows.find((r) => Number(r.id) === ids.published)!;
    const draft = rows.find((r) => Number(r.id) === ids.draft)!;
    const scheduled = rows.find((r) => Number(r.id) === ids.scheduled)!;
    const countBefore = (await db().selectFrom('resources').select('id').execute()).length;
    const publicBefore = await t.app.inject({ method: 'GET', url: `${API.resources}?category=typography&sort=newest` });
    expect(publicBefore.statusCode, publicBefore.body).toBe(200);
    expect(publicBefore.json().items.map((r: { title: string }) => r.title)).not.toContain('Imported and public');
    const csv = csvOf([
      { ...published, title: 'Published pack, renamed', tags: 'Grain, Film, Dust' },
      { ...draft, status: 'published' },
      { ...scheduled, title: 'Scheduled, but with a bad link', download_url: 'ftp://nope' },
      { ...draft, id: '', title: 'Imported and public', status: 'published', tags: 'New' },
      { ...draft, id: '', title: 'Imported later', status: 'scheduled', publish_at: future() },
      { ...draft, id: '', title: 'Too long'.repeat(100) },
    ]);
    const res = await importCsv(csv, false);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as ImportReport;
    expect(report.dry_run).toBe(false);
    expect(report.rows.map((r) => r.action)).toEqual(['update', 'update', 'error', 'create', 'create', 'error']);
    expect(report.rows[2].errors).toHaveProperty('download_url');
    expect(report.rows[5].errors).toHaveProperty('title');
    const createdIds = report.rows.filter((r) => r.action === 'create').map((r) => r.id!);
    expect((await db().selectFrom('resources').select('id').execute()).length).toBe(countBefore + 2);
    const created = await db().selectFrom('resources').selectAll().where('id', 'in', createdIds).orderBy('id').execute();
    expect(created.map((r) => [r.title, r.status, r.admin_id])).toEqual([
      ['Imported and public', 'published', editor.admin.id],
      ['Imported later', 'scheduled', editor.admin.id],
    ]);
    // Created together, each row's report names its own resource, with its own tags.
    const titleOf = new Map(created.map((r) => [Number(r.id), r.title]));
    expect([titleOf.get(report.rows[3].id!), titleOf.get(report.rows[4].id!)]).toEqual(['Imported and public', 'Imported later']);
    const newTags = await db().selectFrom('resource_tags').select('tag').where('resource_id', '=', report.rows[3].id!).execute();
    expect(newTags.map((r) => r.tag)).toEqual(['new']);
    const tagRows = await db().selectFrom('resource_tags').select('tag').where('resource_id', '=', ids.published).orderBy('tag').execute();
    expect(tagRows.map((r) => r.tag)).toEqual(['dust', 'film', 'grain']);
    const sched = await db().selectFrom('resources').select(['title', 'download_url']).where('id', '=', ids.scheduled).executeTakeFirstOrThrow();
    expect(sched).toEqual({ title: 'Scheduled pack', download_url: 'https://dl.example.com/f.zip' });
    expect((await db().selectFrom('resources').select('status').where('id', '=', ids.draft).executeTakeFirstOrThrow()).status).toBe('published');
    // The public list is cached under the data version: it shows the import at once.
    const after = await t.app.inject({ method: 'GET', url: `${API.resources}?category=typography&sort=newest` });
    expect(after.json().items.map((r: { title: string }) => r.title)).toContain('Imported and public');
    expect(after.json().items.map((r: { title: string }) => r.title)).toContain('Draft pack');
  });

  it('hosted files by key: kept on a round trip, refused when another resource holds one, a detached one attached to a new resource', async () => {
    const rows = await exportedRows();
    const hosted = rows.find((r) => Number(r.id) === ids.hosted)!;
    const published = rows.find((r) => Number(r.id) === ids.published)!;
    const at = nowIso();
    const spare = await db()
      .insertInto('files')
      .values({ key: 'uploads/spare', kind: 'download', name: 'spare.zip', size: 5, sha256: SHA('d'), content_type: 'application/zip', image: null, created_at: at, detached_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const spareKey = fileKey(Number(spare.id), SHA('d'));
    const csv = csvOf([
      { ...hosted, title: 'Hosted pack, renamed' },
      { ...published, download_url: '', download_file: hosted.download_file },
      { ...published, id: '', title: 'Wrong kind', download_url: '', download_file: hosted.thumbnail_file },
      { ...published, id: '', title: 'Unknown key', download_url: '', download_file: fileKey(987654, SHA('e')) },
      { ...published, id: '', title: 'Both', download_file: spareKey },
      { ...published, id: '', title: 'Takes the spare', download_url: '', download_file: spareKey },
    ]);
    const res = await importCsv(csv, false);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as ImportReport;
    expect(report.rows.map((r) => r.action), JSON.stringify(report.rows)).toEqual(['update', 'error', 'error', 'error', 'error', 'create']);
    expect(report.rows[1].errors).toEqual({ download_file: `This file is resource ${ids.hosted}'s: a hosted file belongs to one resource` });
    expect(report.rows[2].errors).toEqual({ download_file: 'No hosted download file has this key' });
    expect(report.rows[3].errors).toEqual({ download_file: 'No hosted download file has this key' });
    expect(report.rows[4].errors).toEqual({ download_file: 'Give either a link or a file key, not both' });
    const kept = await db().selectFrom('resources').select(['title', 'download_file_id', 'thumbnail_file_id']).where('id', '=', ids.hosted).executeTakeFirstOrThrow();
    expect(kept).toEqual({ title: 'Hosted pack, renamed', download_file_id: fileIds.download, thumbnail_file_id: fileIds.thumbnail });
    const taker = await db().selectFrom('resources').select(['download_file_id', 'download_url']).where('id', '=', report.rows[5].id!).executeTakeFirstOrThrow();
    expect(taker).toEqual({ download_file_id: Number(spare.id), download_url: '' });
    expect((await db().selectFrom('files').select('detached_at').where('id', '=', Number(spare.id)).executeTakeFirstOrThrow()).detached_at).toBeNull();
    // A link in place of the hosted file: the file is let go (detached), as the form does.
    const again = (await exportedRows()).find((r) => Number(r.id) === ids.hosted)!;
    const back = await importCsv(csvOf([{ ...again, download_file: '', download_url: 'https://dl.example.com/back.zip' }]), false);
    expect((back.json() as ImportReport).rows[0].action).toBe('update');
    expect((await db().selectFrom('files').select('detached_at').where('id', '=', fileIds.download).executeTakeFirstOrThrow()).detached_at).not.toBeNull();
  });

  it('takes a subset of the columns: an update names only what it changes', async () => {
    const res = await importCsv(`id,title\r\n${ids.scheduled},Scheduled pack v2\r\n`, false);
    expect((res.json() as ImportReport).rows).toEqual([{ row: 2, action: 'update', id: ids.scheduled, title: 'Scheduled pack v2' }]);
    const row = await db().selectFrom('resources').select(['title', 'status']).where('id', '=', ids.scheduled).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Scheduled pack v2', status: 'scheduled' });
    // Publishing a scheduled resource from its exported row: the printed time goes with the old status.
    const { publish_at: at } = await db().selectFrom('resources').select('publish_at').where('id', '=', ids.scheduled).executeTakeFirstOrThrow();
    const publish = await importCsv(`id,status,publish_at\r\n${ids.scheduled},published,${at}\r\n${ids.hosted},published,${at}\r\n`, true);
    expect((publish.json() as ImportReport).rows.map((r) => [r.action, r.errors])).toEqual([
      ['update', undefined],
      ['error', { publish_at: 'A publish time goes with status scheduled' }],
    ]);
    const dup = await importCsv(`id,title\r\n${ids.scheduled},A\r\n${ids.scheduled},B\r\n`, true);
    expect((dup.json() as ImportReport).rows[1].errors).toEqual({ id: 'Row 2 names this resource already' });
  });

  it('leaves a resource in the trash out: not exported, and an import row naming it finds no resource', async () => {
    const trashed = await create({ title: 'Trashed pack' });
    expect((await t.app.inject({ method: 'DELETE', url: API.adminResource(trashed), headers: { cookie: editor.cookie } })).statusCode).toBe(200);
    expect((await exportedRows()).map((r) => Number(r.id))).not.toContain(trashed);
    expect((await exportAs('json')).json<{ id: number }[]>().map((r) => r.id)).not.toContain(trashed);
    const before = await state();
    const res = await importCsv(`id,title\r\n${trashed},Back again\r\n`, false);
    expect((res.json() as ImportReport).rows.map((r) => [r.action, r.errors])).toEqual([['error', { id: 'No resource has this id' }]]);
    expect(await state()).toEqual(before);
  });

  it.each([
    ['an unknown column', 'id,title,colour\r\n,A,red\r\n', 'Unknown column "colour"'],
    ['a repeated column', 'id,title,title\r\n,A,B\r\n', 'appears twice'],
    ['no id column', 'title\r\nA\r\n', 'needs an id column'],
    ['an unbalanced quote', 'id,title\r\n,"A\r\n', 'a quote is opened and never closed'],
    ['a quote inside a field', 'id,title\r\n,A"B\r\n', 'a quote inside an unquoted field'],
    ['a row with more fields', 'id,title\r\n,A,B\r\n', 'Row 2 has 3 fields; the header has 2'],
    ['only a header', 'id,title\r\n', 'no rows'],
    ['an empty file', '', 'The file is empty'],
  ])('bad CSV, %s: a clear 400, nothing changed', async (_name, csv, message) => {
    const before = await state();
    for (const dryRun of [true, false]) {
      const res = await importCsv(csv, dryRun);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toContain(message);
      expect(res.json().error.fields).toHaveProperty('file');
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a body over the limit (413) and one that is not CSV (415), changing nothing', async () => {
    const before = await state();
    const big = await importCsv(`id,title\r\n${',x\r\n'.repeat(Math.ceil(IMPORT_BODY_MAX_BYTES / 4) + 1)}`, false);
    expect(big.statusCode).toBe(413);
    const json = await importCsv('{"id":1}', false, 'application/json');
    expect(json.statusCode).toBe(400);
    const other = await importCsv('id,title', false, 'image/png');
    expect(other.statusCode).toBe(415);
    expect(await state()).toEqual(before);
  });

  it('pages through more rows than one keyset page: every resource once, in id order, in both formats', async () => {
    const at = nowIso();
    const many = Array.from({ length: 2100 }, (_, i) => ({
      title: `Bulk ${i}`,
      description: 'Bulk row',
      category: 'typography',
      thumbnail_url: '/thumbnails/1.svg',
      download_url: 'https://dl.example.com/bulk.zip',
      tags: '[]',
      is_premium: 0,
      created_at: at,
      updated_at: at,
      admin_id: null,
    }));
    await db().insertInto('resources').values(many).execute();
    const all = (await db().selectFrom('resources').select('id').where('status', '<>', 'trashed').orderBy('id').execute()).map((r) => Number(r.id));
    expect(all.length).toBeGreaterThan(2100);
    expect((await exportedRows()).map((r) => Number(r.id))).toEqual(all);
    expect((JSON.parse((await exportAs('json')).body) as { id: number }[]).map((r) => r.id)).toEqual(all);
  });
});
