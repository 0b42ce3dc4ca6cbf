import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionOf } from '../../../contract/apps';
import type { Database } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { LocalFileStore } from '../../storage/local';
import { openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';
import { zipOf } from '../../testing/zip-writer';
import { LIST_FILES_JOB, listPendingDownloads, queueUnlisted } from './listings';

/**
 * After the upgrade to migration 035, the downloads hosted before it are not listed: the start
 * queues one files.list job, which lists them (and bumps the data version so public answers show it).
 */
describe.each(TEST_DATABASES)('listing the downloads hosted before migration 035 on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  const root = mkdtempSync(path.join(os.tmpdir(), 'rv-listing-upgrade-'));
  const files = new LocalFileStore(root);
  let fileIds: number[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, '035_file_listings'));
    const now = '2024-01-01T00:00:00.000Z';
    const zip = await zipOf([{ name: 'Pack/Title.mogrt', data: 'x'.repeat(100) }, { name: 'Pack/Read me.txt', data: 'hi' }]);
    const stored = await files.put('uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', Readable.from([zip]), { maxBytes: zip.length, contentType: 'application/zip' });
    await files.put('uploads/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', Readable.from([Buffer.from('not an archive')]), { maxBytes: 100, contentType: 'application/octet-stream' });
    fileIds = [];
    for (const [key, name, size] of [
      ['uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'Titles.zip', stored.size],
      ['uploads/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'Pack.rar', 14],
    ] as const) {
      const row = await database.db
        .insertInto('files')
        .values({ key, kind: 'download', name, size, sha256: 'x', content_type: name.endsWith('.zip') ? 'application/zip' : 'application/octet-stream', image: null, created_at: now, detached_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      fileIds.push(Number(row.id));
    }
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop?.();
    rmSync(root, { recursive: true, force: true });
  });

  it('queues one job at start and lists them: the ZIP’s entries, the other as not a ZIP', async () => {
    const before = await database.db.selectFrom('files').select(['id', 'listing_status']).orderBy('id').execute();
    expect(before.map((f) => f.listing_status)).toEqual([null, null]);

    await queueUnlisted(database);
    await queueUnlisted(database); // a second start while it waits queues no second job
    const jobs = await database.db.selectFrom('media_jobs').select(['kind', 'state']).where('kind', '=', LIST_FILES_JOB.kind).execute();
    expect(jobs).toEqual([{ kind: 'files.list', state: 'queued' }]);

    const version = async () => Number((await sql<{ version: number }>`select version from data_version where id = 1`.execute(database.db)).rows[0]!.version);
    const v0 = await version();
    expect(await listPendingDownloads(database, files)).toBe(2);
    expect(await version()).toBeGreaterThan(v0);

    const after = await database.db.selectFrom('files').select(['listing_status', 'listing_count', 'listing_extensions']).orderBy('id').execute();
    expect(after.map((f) => [f.listing_status, f.listing_count === null ? null : Number(f.listing_count), f.listing_extensions])).toEqual([
      ['listed', 2, JSON.stringify({ mogrt: 1, txt: 1 })],
      ['not-zip', null, null],
    ]);
    const entries = await database.db.selectFrom('file_entries').select(['position', 'path']).where('file_id', '=', fileIds[0]!).orderBy('position').execute();
    expect(entries.map((e) => [Number(e.position), e.path])).toEqual([
      [0, 'Pack/Title.mogrt'],
      [1, 'Pack/Read me.txt'],
    ]);
    // Listed once: nothing left to do.
    expect(await listPendingDownloads(database, files)).toBe(0);
  });
});

/**
 * Migration 043: listings written before the listing left out system files (decision 467) are
 * cleared, and the start's job lists those downloads again without them; others are kept.
 */
describe.each(TEST_DATABASES)('listing again the downloads whose listing held system files (migration 043) on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  const root = mkdtempSync(path.join(os.tmpdir(), 'rv-listing-043-'));
  const files = new LocalFileStore(root);
  const ids: Record<'mac' | 'windows' | 'clean', number> = { mac: 0, windows: 0, clean: 0 };

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, '043_relist_system_files'));
    const now = '2024-01-01T00:00:00.000Z';
    const packs = {
      mac: [{ name: 'Pack/Title.mogrt', data: 'x'.repeat(100) }, { name: '__MACOSX/Pack/._Title.mogrt', data: 'a'.repeat(20) }, { name: 'Pack/.DS_Store', data: 'd'.repeat(30) }],
      windows: [{ name: 'Looks/Look.cube', data: 'LUT_3D_SIZE 2\n' }, { name: 'Looks/Thumbs.db', data: 't'.repeat(40) }],
      clean: [{ name: 'Pack/_Intro.mogrt', data: 'y'.repeat(50) }, { name: 'Pack/MACOSX.txt', data: 'n' }],
    };
    for (const [name, entries] of Object.entries(packs) as [keyof typeof packs, { name: string; data: string }[]][]) {
      const zip = await zipOf(entries);
      const key = `uploads/${name.padEnd(32, '0')}`;
      const stored = await files.put(key, Readable.from([zip]), { maxBytes: zip.length, contentType: 'application/zip' });
      // Listed as before decision 467: every entry, its extensions and total.
      const extensions: Record<string, number> = {};
      for (const e of entries) extensions[extensionOf(e.name)] = (extensions[extensionOf(e.name)] ?? 0) + 1;
      const row = await database.db
        .insertInto('files')
        .values({ key, kind: 'download', name: `${name}.zip`, size: stored.size, sha256: stored.sha256, content_type: 'application/zip', image: null, created_at: now, detached_at: null,
          listing_status: 'listed', listing_reason: null, listing_count: entries.length, listing_total: entries.reduce((n, e) => n + e.data.length, 0), listing_extensions: JSON.stringify(extensions) })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name] = Number(row.id);
      await database.db.insertInto('file_entries').values(entries.map((e, i) => ({ file_id: ids[name], position: i, path: e.name, size: e.data.length }))).execute();
    }
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop?.();
    rmSync(root, { recursive: true, force: true });
  });

  const paths = async (id: number) => (await database.db.selectFrom('file_entries').select('path').where('file_id', '=', id).orderBy('position').execute()).map((e) => e.path);

  it('clears the listings that hold system files, keeps the others, and the start lists them again without', async () => {
    const status = async () => Object.fromEntries((await database.db.selectFrom('files').select(['id', 'listing_status']).execute()).map((f) => [Number(f.id), f.listing_status]));
    expect(await status()).toEqual({ [ids.mac]: null, [ids.windows]: null, [ids.clean]: 'listed' });
    expect(await paths(ids.mac)).toEqual([]);
    expect(await paths(ids.clean)).toEqual(['Pack/_Intro.mogrt', 'Pack/MACOSX.txt']);

    await queueUnlisted(database);
    expect(await database.db.selectFrom('media_jobs').select('kind').where('kind', '=', LIST_FILES_JOB.kind).where('state', '=', 'queued').execute()).toHaveLength(1);
    expect(await listPendingDownloads(database, files)).toBe(2);
    expect(await status()).toEqual({ [ids.mac]: 'listed', [ids.windows]: 'listed', [ids.clean]: 'listed' });
    expect(await paths(ids.mac)).toEqual(['Pack/Title.mogrt']);
    expect(await paths(ids.windows)).toEqual(['Looks/Look.cube']);
    const mac = await database.db.selectFrom('files').select(['listing_count', 'listing_total', 'listing_extensions']).where('id', '=', ids.mac).executeTakeFirstOrThrow();
    expect([Number(mac.listing_count), Number(mac.listing_total), mac.listing_extensions]).toEqual([1, 100, JSON.stringify({ mogrt: 1 })]);
  });
});
