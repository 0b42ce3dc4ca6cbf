import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { buildApp } from '../../app';
import { loadOrCreateSecret, type Config } from '../../config';
import type { App } from '../../context';
import type { Database } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { MIGRATION_NAMES } from './format';
import { openFileStore } from '../../storage/open';
import { type FileStore, StorageFullError } from '../../storage/file-store';
import { login, sessionCookie } from '../../testing/auth-helpers';
import { type FilesTestApp, randomData, sha256, startFilesApp, type StoreKind, tusUpload } from '../../testing/files-helpers';
import { startS3TestServer } from '../../testing/s3-test-server';
import { testConfig } from '../../testing/test-config';
import { BROWSER, openDatabaseBefore, type TestDatabaseKind } from '../../testing/test-utils';
import { backupToFile, type BackupSummary, MISSING_LISTED } from './backup';
import { restoreArchive, verifyArchive } from './restore';
import { BackupFormatError, FORMAT, fileEntry } from './format';

type Row = Record<string, unknown>;

const resource = (over: Record<string, unknown>) => ({ title: 'Hosted pack', description: 'A pack hosted here', category: 'video_editing', tags: ['Hosted', 'Été'], ...over });

/** A source site with hosted downloads, a hosted thumbnail (variants under media/), a link resource and an announcement. */
async function fillSite(t: FilesTestApp): Promise<void> {
  const h = { cookie: t.admin.cookie };
  for (let i = 0; i < 2; i++) {
    const up = await tusUpload(t, randomData(150_000 + i), { name: `pack-${i}.zip` });
    const created = await t.app.inject({ method: 'POST', url: API.adminResources, headers: h, payload: resource({ title: `Hosted ${i}`, thumbnail_url: '/thumbnails/1.svg', download_upload_id: up.id }) });
    expect(created.statusCode, created.body).toBe(201);
  }
  const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const thumb = await tusUpload(t, png, { name: 'cover.png', purpose: 'thumbnail' });
  const linked = await t.app.inject({
    method: 'POST',
    url: API.adminResources,
    headers: h,
    payload: resource({ title: 'Linked', download_url: 'https://example.com/a.zip', thumbnail_upload_id: thumb.id, is_premium: true }),
  });
  expect(linked.statusCode, linked.body).toBe(201);
  expect((await t.app.inject({ method: 'POST', url: API.adminAnnouncements, headers: h, payload: { message: 'Backed up ✓' } })).statusCode).toBe(201);
  for (const id of [1, 2]) await t.app.inject({ method: 'POST', url: API.download(id), headers: BROWSER });
}

/** Every table's rows in an archive, in key order (as the backup reads them). */
async function archiveTables(file: string): Promise<Record<string, Row[]>> {
  const tables: Record<string, Row[]> = {};
  const extract = tar.extract();
  createReadStream(file).pipe(extract);
  for await (const entry of extract) {
    const bytes = await buffer(entry);
    const m = /^tables\/([a-z_]+)\//.exec(entry.header.name);
    if (!m) continue;
    const rows = bytes.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
    (tables[m[1]!] ??= []).push(...rows);
  }
  return tables;
}

/**
 * Rows compared across databases: the columns in one order, and without the session secret's time
 * (SQLite keeps the secret in a file: its row is made at each backup).
 */
function comparable(tables: Record<string, Row[]>): Record<string, Row[]> {
  const sorted = (r: Row) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
  const secretTimeless = (t: string, r: Row) => (t === 'server_secrets' && r.name === 'session' ? { ...r, created_at: undefined } : r);
  return Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.map((r) => sorted(secretTimeless(t, r)))]));
}

/** An empty database of `kind` (no migration run) and, for restores, a data folder and a store. */
async function emptyTarget(kind: TestDatabaseKind, store: StoreKind) {
  const { database, drop } = await openDatabaseBefore(kind, MIGRATION_NAMES[0]!);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rv-restore-'));
  const s3 = store === 's3' ? await startS3TestServer() : undefined;
  const storage: Config['storage'] = s3
    ? { kind: 's3', s3: { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, ...s3.credentials } }
    : { kind: 'local' };
  const config = testConfig({ dataDir, storage, sessionSecret: undefined });
  const opened = openFileStore(config);
  return {
    database,
    files: opened.files,
    dataDir,
    config,
    s3,
    /** The restored site: its session secret where it keeps it (SQLite: DATA_DIR; PostgreSQL: the database). */
    async app(): Promise<App> {
      const dbConfig: Config['database'] = kind === 'sqlite' ? { kind: 'sqlite', file: ':memory:' } : { kind: 'pglite' };
      return buildApp({ ...config, database: dbConfig, sessionSecret: kind === 'sqlite' ? loadOrCreateSecret(dataDir) : undefined }, database);
    },
    async close() {
      opened.close();
      await drop();
      await s3?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
type Target = Awaited<ReturnType<typeof emptyTarget>>;

/** What a visitor and an admin read, through the API. */
async function answers(app: App, cookie: string): Promise<Record<string, unknown>> {
  const urls = [API.resources, `${API.resources}?q=hosted`, `${API.resources}?facets=true`, API.resource(1), API.resource(3), API.activeAnnouncements, API.site, API.adminResources, API.adminAnnouncements, API.adminAdmins, API.me];
  const out: Record<string, unknown> = {};
  for (const url of urls) {
    const res = await app.inject({ url, headers: { cookie } });
    out[url] = { status: res.statusCode, body: res.json() };
  }
  return out;
}

/** The database's indexes and triggers as defined (PostgreSQL's without the test's schema name): a restore drops and rebuilds them. */
async function indexesAndTriggers(database: Database): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ d: string }>`select type || ' ' || name || ' ' || coalesce(sql, '') as d from sqlite_master where type in ('index', 'trigger') order by name`.execute(database.db);
    return rows.map((r) => r.d);
  }
  const { rows } = await sql<{ d: string }>`select replace(indexdef, current_schema() || '.', '') as d from pg_indexes where schemaname = current_schema()
    union all select trigger_name || ' ' || event_manipulation || ' ' || action_statement from information_schema.triggers where trigger_schema = current_schema() order by 1`.execute(database.db);
  return rows.map((r) => r.d);
}

async function filesOf(database: Database): Promise<Row[]> {
  return database.db.selectFrom('files').select(['key', 'sha256', 'kind']).orderBy('id').execute();
}

async function storedSha(files: FileStore, key: string): Promise<string> {
  return sha256(await buffer((await files.get(key)).body));
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'rv-backups-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('SQLite → PostgreSQL → SQLite gives the same answers, rows and files; the old session and password still work', async () => {
    const source = await startFilesApp('sqlite', 'local', { sessionSecret: 'backup-secret-0123456789-abcdefghijklmnop' });
    const targets: Target[] = [];
    try {
      await fillSite(source);
      const sourceStore = openFileStore(source.config).files;
      const before = await answers(source.app, source.admin.cookie);
      const first = path.join(work, 'first.tar');
      const summary = await backupToFile({ database: source.database, files: sourceStore, sessionSecret: source.config.sessionSecret! }, first);
      expect(summary.missingFiles).toEqual([]);
      expect(summary.rows.resources).toBe(3);
      expect(summary.files).toBeGreaterThanOrEqual(3); // two downloads and the thumbnail's images

      let archive = first;
      for (const [kind, store] of [['postgres', 's3'], ['sqlite', 'local']] as const) {
        const target = await emptyTarget(kind, store);
        targets.push(target);
        const lines: string[] = [];
        const restored = await restoreArchive(archive, target, { log: (l) => lines.push(l) });
        expect(restored.rows).toEqual((await verifyArchive(archive)).manifest.rows);
        expect(lines.join('\n')).toMatch(/Restored \d+ rows/);
        // Every index and trigger is back as a new database has it (the load drops and rebuilds them).
        const fresh = await emptyTarget(kind, store);
        targets.push(fresh);
        await migrateToLatest(fresh.database.db, kind);
        expect(await indexesAndTriggers(target.database)).toEqual(await indexesAndTriggers(fresh.database));
        const app = await target.app();
        try {
          expect(await answers(app, source.admin.cookie)).toEqual(before);
          const signIn = await login(app, source.admin.admin.username, source.admin.password);
          expect(signIn.statusCode).toBe(200);
          expect((await app.inject({ url: API.me, headers: { cookie: sessionCookie(signIn) } })).statusCode).toBe(200);
          // A hosted download answers the same bytes.
          for (const row of await filesOf(target.database)) expect(await storedSha(target.files, row.key as string)).toBe(await storedSha(sourceStore, row.key as string));
        } finally {
          await app.close();
        }
        const again = path.join(work, `again-${kind}.tar`);
        await backupToFile({ database: target.database, files: target.files, sessionSecret: 'backup-secret-0123456789-abcdefghijklmnop' }, again);
        const a = comparable(await archiveTables(first));
        const b = comparable(await archiveTables(again));
        // The sign-in just made adds a session and an audit entry: the rest is the same.
        for (const t of ['sessions', 'audit_log', 'admins']) {
          expect(b[t]!.length).toBeGreaterThanOrEqual(a[t]?.length ?? 0);
          delete a[t];
          delete b[t];
        }
        expect(b).toEqual(a);
        archive = again;
      }
    } finally {
      for (const t of targets) await t.close();
      await source.close();
    }
  }, 120_000);

  for (const [from, to] of [
    [['sqlite', 'local'], ['postgres', 's3']],
    [['postgres', 's3'], ['sqlite', 'local']],
  ] as const) {
    it(`a backup taken on ${from.join('/')} while downloads and uploads run restores byte-identical on ${to.join('/')}`, async () => {
      const source = await startFilesApp(from[0], from[1]);
      const target = await emptyTarget(to[0], to[1]);
      try {
        await fillSite(source);
        let running = true;
        const load = (async () => {
          let n = 0;
          while (running) {
            const up = await tusUpload(source, randomData(40_000 + n), { name: `busy-${n}.zip` });
            await source.app.inject({ method: 'POST', url: API.adminResources, headers: { cookie: source.admin.cookie }, payload: resource({ title: `Busy ${n++}`, thumbnail_url: '/t.svg', download_upload_id: up.id }) });
            await source.app.inject({ method: 'POST', url: API.download(1), headers: BROWSER });
          }
          return n;
        })();
        const file = path.join(work, `busy-${from[0]}.tar`);
        let summary: BackupSummary;
        try {
          summary = await backupToFile({ database: source.database, files: openFileStore(source.config).files, sessionSecret: source.config.sessionSecret! }, file);
        } finally {
          running = false;
        }
        expect(await load).toBeGreaterThan(0);
        await restoreArchive(file, target);
        const restored = await filesOf(target.database);
        expect(restored.length).toBe(summary.rows.files);
        const sourceStore = openFileStore(source.config).files;
        for (const row of restored) {
          const sha = await storedSha(target.files, row.key as string);
          // (A thumbnail's row keeps its upload's SHA-256; its key names the stored image made from it.)
          if (row.kind === 'download') expect(sha).toBe(row.sha256);
          expect(sha).toBe(await storedSha(sourceStore, row.key as string));
        }
        // The rows restored are the snapshot's, whatever ran after it.
        const again = path.join(work, `busy-again-${from[0]}.tar`);
        await backupToFile({ database: target.database, files: target.files, sessionSecret: source.config.sessionSecret! }, again);
        expect(comparable(await archiveTables(again))).toEqual(comparable(await archiveTables(file)));
      } finally {
        await target.close();
        await source.close();
      }
    }, 120_000);
  }
});

describe.each(['sqlite', 'postgres'] as const)('the files a backup names, on %s', (kind) => {
  it('each key once whatever number of rows name it; missing ones counted, the first thousand listed in key order', async () => {
    const t = await startFilesApp(kind, 'local');
    try {
      await fillSite(t);
      const store = openFileStore(t.config).files;
      const shared = 'media/shared-by-two.webp';
      await store.put(shared, Readable.from([Buffer.from('shared bytes')]), { maxBytes: 100 });
      const now = new Date().toISOString();
      for (const id of [1, 2]) await sql`insert into media_owners (resource_id, role, key) values (${id}, 'preview', ${shared})`.execute(t.database.db);
      const missing = Array.from({ length: MISSING_LISTED + 5 }, (_, i) => `uploads/missing-${String(i).padStart(5, '0')}`);
      for (let i = 0; i < missing.length; i += 200) {
        const batch = missing.slice(i, i + 200).map((key) => ({ key, kind: 'download' as const, name: 'gone.zip', size: 1, sha256: '0'.repeat(64), content_type: 'application/zip', image: null, created_at: now, detached_at: null }));
        await t.database.db.insertInto('files').values(batch).execute();
      }
      const file = path.join(work, `named-${kind}.tar`);
      const summary = await backupToFile({ database: t.database, files: store, sessionSecret: 'backup-secret-0123456789-abcdefghijklmnop' }, file);
      expect(summary.missingFileCount).toBe(missing.length);
      expect(summary.missingFiles).toEqual(missing.slice(0, MISSING_LISTED));
      const { manifest } = await verifyArchive(file);
      expect(manifest.missingFileCount).toBe(missing.length);
      expect(manifest.missingFiles).toEqual(missing.slice(0, MISSING_LISTED));
      const names = manifest.entries.map((e) => e.name);
      expect(names.filter((n) => n === fileEntry(shared))).toHaveLength(1);
      expect(new Set(names).size).toBe(names.length);
      expect(summary.files).toBe(names.filter((n) => n.startsWith(fileEntry(''))).length);
    } finally {
      await t.close();
    }
  });
});

describe('restore refuses', () => {
  let archive: string;
  let source: FilesTestApp;
  beforeAll(async () => {
    source = await startFilesApp('sqlite', 'local');
    await fillSite(source);
    archive = path.join(work, 'good.tar');
    await backupToFile({ database: source.database, files: openFileStore(source.config).files, sessionSecret: source.config.sessionSecret! }, archive);
  }, 60_000);
  afterAll(async () => {
    await source?.close();
  });

  const damaged: [string, (bytes: Buffer) => Promise<Buffer>, RegExp][] = [
    [
      'one flipped byte in a table entry',
      async (bytes) => {
        const at = bytes.indexOf(Buffer.from('"title":"Hosted 0"')) + 10;
        const copy = Buffer.from(bytes);
        copy[at] = copy[at]! ^ 1;
        return copy;
      },
      /tables\/resources\/00001\.ndjson is damaged/,
    ],
    ['a truncated file', async (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)), /damaged or incomplete|no manifest/],
    [
      'no manifest',
      async (bytes) => {
        // The archive as a killed writer could leave it: every entry but the manifest, properly ended.
        const pack = tar.pack();
        const extract = tar.extract();
        const done = buffer(pack);
        const input = (async function* () {
          yield bytes;
        })();
        (async () => {
          for await (const chunk of input) extract.write(chunk);
          extract.end(() => {});
        })();
        for await (const entry of extract) {
          const data = await buffer(entry);
          if (entry.header.name !== 'manifest.json') pack.entry({ name: entry.header.name }, data);
        }
        pack.finalize();
        return done;
      },
      /no manifest/,
    ],
  ];
  for (const kind of ['sqlite', 'postgres'] as const) {
    for (const [what, damage, message] of damaged) {
      it(`${what}, before writing anything (${kind})`, async () => {
        const file = path.join(work, `bad-${kind}-${what.replace(/\W+/g, '-')}.tar`);
        await writeFile(file, await damage(await readFile(archive)));
        const target = await emptyTarget(kind, 'local');
        try {
          await expect(verifyArchive(file)).rejects.toThrow(message);
          const err = await restoreArchive(file, target).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(BackupFormatError);
          expect(String(err)).toMatch(message);
          const migrated = await target.database.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
          expect(migrated).toEqual([]);
          for await (const stored of target.files.list('')) expect.fail(`${stored.key} was written`);
        } finally {
          await target.close();
        }
      });
    }
  }

  it('a target that is not empty, unless forced; forced, it holds the backup only', async () => {
    const target = await emptyTarget('sqlite', 'local');
    try {
      await restoreArchive(archive, target);
      await target.database.db.insertInto('announcements').values({ message: 'Not in the backup', is_active: 1, admin_id: null, created_at: new Date().toISOString(), starts_at: null, ends_at: null }).execute();
      await expect(restoreArchive(archive, target)).rejects.toThrow(/not empty \(it has admins\).*--force/);
      expect(await target.database.db.selectFrom('announcements').select('message').execute()).toHaveLength(2);
      await restoreArchive(archive, target, { force: true });
      expect((await target.database.db.selectFrom('announcements').select('message').execute()).map((r) => r.message)).toEqual(['Backed up ✓']);
    } finally {
      await target.close();
    }
  });

  it('a store that fails while the files are put: the error says the rows are in and to restore again with --force', async () => {
    const target = await emptyTarget('sqlite', 'local');
    try {
      const put = target.files.put.bind(target.files);
      let puts = 0;
      target.files.put = async (key, body, options) => {
        if (++puts > 1) throw new StorageFullError();
        return put(key, body, options);
      };
      await expect(restoreArchive(archive, target)).rejects.toThrow(
        /^the rows are restored, but putting the files failed after 1 of them \(.+\): fix that, then restore again with --force$/,
      );
      target.files.put = put;
      await restoreArchive(archive, target, { force: true });
      expect(await target.database.db.selectFrom('resources').select('id').execute()).not.toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('an archive from a newer version', async () => {
    const file = path.join(work, 'newer.tar');
    const pack = tar.pack();
    const done = buffer(pack);
    pack.entry({ name: 'backup.json' }, JSON.stringify({ format: FORMAT, formatVersion: 1, appVersion: '9.0.0', migration: '999_future', dialect: 'sqlite', createdAt: '', tables: [] }));
    pack.finalize();
    await writeFile(file, await done);
    await expect(verifyArchive(file)).rejects.toThrow(/newer Resource Vault \(9\.0\.0/);
  });
});

describe.each(['sqlite', 'postgres'] as const)('an older backup on %s', (kind) => {
  it('restores at its level and is migrated forward', async () => {
    const older = MIGRATION_NAMES[MIGRATION_NAMES.length - 2]!;
    const { database, drop } = await openDatabaseBefore(kind, MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!);
    const target = await emptyTarget(kind === 'sqlite' ? 'postgres' : 'sqlite', 'local');
    try {
      const now = new Date().toISOString();
      await database.db
        .insertInto('resources')
        .values({ title: 'Old one', description: 'From before', category: 'video_editing', thumbnail_url: '/t.svg', download_url: 'https://example.com/o.zip', is_premium: 0, tags: '["Old"]', created_at: now, updated_at: now, admin_id: null, licence_text: null, preview_job_id: null, preview: null, publish_at: null, status_before_trash: null, trashed_at: null })
        .execute();
      const file = path.join(work, `older-${kind}.tar`);
      const summary = await backupToFile({ database, files: target.files, sessionSecret: 'older-secret-0123456789-abcdefghijklmnop' }, file);
      expect(summary.migration).toBe(older);
      const restored = await restoreArchive(file, target);
      expect(restored.migrated).toBe(1);
      const applied = await target.database.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
      expect(applied).toHaveLength(MIGRATION_NAMES.length);
      const app = await target.app();
      try {
        const list = (await app.inject({ url: `${API.resources}?q=from before` })).json();
        expect(list.items.map((r: { title: string }) => r.title)).toEqual(['Old one']);
      } finally {
        await app.close();
      }
    } finally {
      await target.close();
      await drop();
    }
  });
});
