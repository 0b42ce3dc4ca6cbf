import { execFileSync } from 'node:child_process';
import fs, { appendFileSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../testing/test-config';
import type { App } from '../context';
import { openDatabase, type Database } from '../db/connection';
import { createAndSignIn } from '../testing/auth-helpers';
import { prepareDatabase } from '../setup';
import { insertResource } from '../testing/resource-fixtures';
import { BROWSER, createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';
import { json, signIn, startServer, stopServer, type ServerProcess } from '../../../scripts/stress/server-process';
import { isErrorShape } from '../testing/hostile-input';

/**
 * A database that cannot take writes (full disk, read-only) keeps the site serving reads; each
 * write gets a clear 503 in the error shape, /readyz says 503 with the reason, and the log carries
 * the database's own error (not a rollback error that hid it).
 */

/**
 * Makes the test database refuse writes the way a full disk or a read-only server does, without
 * touching the disk: SQLite with `max_page_count` at the current size answers SQLITE_FULL
 * ("database or disk is full"); PostgreSQL with `default_transaction_read_only` answers 25006.
 * Returns an app over that database and a way back.
 */
async function refuseWrites(t: TestApp): Promise<{ app: App; restore(): Promise<void>; close(): Promise<void> }> {
  if (t.database.sqlite) {
    const sqlite = t.database.sqlite;
    // Use up the free pages too, so any write that needs room finds none.
    sqlite.exec('create table if not exists fill_up (x blob)');
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
    const fill = sqlite.prepare('insert into fill_up values (zeroblob(500))');
    try {
      for (;;) fill.run();
    } catch {
      // SQLITE_FULL: full.
    }
    return { app: t.app, restore: async () => void sqlite.pragma('max_page_count = 4294967294'), close: async () => {} };
  }
  if (t.config.database.kind === 'pglite') {
    await sql`set default_transaction_read_only = on`.execute(t.database.db);
    return { app: t.app, restore: async () => void (await sql`set default_transaction_read_only = off`.execute(t.database.db)), close: async () => {} };
  }
  // A real server: a second pool over the same schema whose sessions are read-only.
  if (t.config.database.kind !== 'postgres') throw new Error('unexpected database');
  const url = new URL(t.config.database.url);
  url.searchParams.set('options', `${url.searchParams.get('options') ?? ''} -c default_transaction_read_only=on`);
  const readOnly: Database = await openDatabase({ kind: 'postgres', url: url.toString() });
  const app = await buildApp(t.config, readOnly);
  return {
    app,
    restore: async () => {},
    close: async () => {
      await app.close();
      await readOnly.close();
    },
  };
}

const newResource = (title: string) => ({
  title,
  // Longer than a page: it needs a new page whatever room the tables have left.
  description: 'd'.repeat(4900),
  category: 'typography',
  thumbnail_url: '/thumbnails/1.svg',
  download_url: 'https://example.com/x.zip',
  tags: ['Full'],
});

describe.each(TEST_DATABASES)('a database that refuses writes, on %s', (kind) => {
  let t: TestApp;
  let cookie = '';
  beforeAll(async () => {
    t = await createTestApp(kind);
    await insertResource(t.database, { title: 'Before the disk filled' });
    ({ cookie } = await createAndSignIn(t.app, t.database, 'full_disk_admin'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers writes 503 in the error shape, keeps serving reads, says so on /readyz and logs the real error', async () => {
    const refused = await refuseWrites(t);
    try {
      // (What the server logs is checked on the real server below: the logger writes to fd 1.)
      const result = await (async () => {
        const create = await refused.app.inject({ method: 'POST', url: '/api/admin/resources', headers: { cookie }, payload: newResource('No room') });
        const ready = await refused.app.inject({ url: '/readyz' });
        const list = await refused.app.inject({ url: '/api/resources' });
        // A Kysely transaction (what admin writes use) whose statement fails inside it.
        const trx = await insertResource(t.database, { description: 'd'.repeat(4900) }).then(
          () => 'no error',
          (err: Error) => err.message,
        );
        return { create, ready, list, trx };
      })();
      expect(result.create.statusCode).toBe(503);
      expect(isErrorShape(result.create.json())).toBe(true);
      expect(result.create.json().error.code).toBe('UNAVAILABLE');
      expect(result.ready.statusCode).toBe(503);
      expect(result.ready.json().error.message).toMatch(kind === 'sqlite' ? /database or disk is full/ : /read-only/);
      expect(result.list.statusCode).toBe(200);
      expect(result.list.json().items.map((r: { title: string }) => r.title)).toContain('Before the disk filled');
      if (kind === 'sqlite' || t.config.database.kind === 'pglite') {
        // The transaction fails with the database's own error, not with "cannot rollback".
        expect(result.trx).toMatch(kind === 'sqlite' ? /database or disk is full/ : /read-only transaction/);
      }
    } finally {
      await refused.restore();
      await refused.close();
    }
    // Once the database takes writes again, so does the site, and /readyz says so.
    const create = await t.app.inject({ method: 'POST', url: '/api/admin/resources', headers: { cookie }, payload: newResource('Room again') });
    expect(create.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

const TUS_UPLOAD_BYTES = 64 * 1024;

/** Plain tus 1.0 requests to a running server, as an admin's browser sends them. */
function tusClient(base: string, cookie: string) {
  const headers = { cookie, origin: base, 'tus-resumable': '1.0.0' };
  const meta = Object.entries({ filename: 'pack.zip', filetype: 'application/zip', purpose: 'download' })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  return {
    create: () =>
      fetch(`${base}/api/admin/uploads`, { method: 'POST', headers: { ...headers, 'upload-length': String(TUS_UPLOAD_BYTES), 'upload-metadata': meta } }),
    head: (url: string) => fetch(url, { method: 'HEAD', headers }),
    patch: (url: string, offset: number) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: Buffer.alloc(TUS_UPLOAD_BYTES - offset, 7),
      }),
  };
}

/**
 * The real thing: the server as production runs it (a child process) on a small tmpfs that
 * fills up. Mounting needs root; elsewhere this one case says why it did not run.
 */
describe('the server on a full disk (tmpfs)', () => {
  let mountPoint = '';
  let mounted = false;
  let reason = '';
  let server: ServerProcess | undefined;
  beforeAll(() => {
    if (process.getuid?.() !== 0) {
      reason = 'not running as root (mounting a tmpfs needs root)';
      return;
    }
    mountPoint = mkdtempSync(path.join(os.tmpdir(), 'rv-full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=100m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      reason = `could not mount a tmpfs: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
    }
  });
  afterEach(async () => {
    if (server) await stopServer(server);
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [mountPoint]);
    if (mountPoint) rmSync(mountPoint, { recursive: true, force: true });
  });

  // A server process started, seeded and driven to a full disk: well past the default test time on a busy machine.
  it('keeps serving reads, answers writes 503, reports not ready with the reason, and recovers when space returns', { timeout: 180_000 }, async (ctx) => {
    if (!mounted) {
      console.warn(`SKIPPED the tmpfs full-disk case: ${reason}`);
      ctx.skip();
    }
    // No media jobs: the demo previews would write into the same small disk while it is being filled.
    server = await startServer({ DATA_DIR: mountPoint, SEED_DEMO: 'true', LOG_LEVEL: 'info', MEDIA_JOBS_CONCURRENCY: '0', DOWNLOAD_RATE_LIMIT: '0' });
    const cookie = await signIn(server.base);
    expect((await json(server.base, 'POST', '/api/admin/resources', newResource('room to spare'), { cookie })).status).toBe(201);
    // An upload begun while there is room, to be continued on the full disk (issue 27, item 6).
    const tus = tusClient(server.base, cookie);
    const begun = await tus.create();
    expect(begun.status).toBe(201);
    const uploadUrl = new URL(begun.headers.get('location')!, server.base).toString();

    // Fill the disk to the last byte.
    const filler = path.join(mountPoint, 'filler');
    const free = () => {
      const s = statfsSync(mountPoint);
      return s.bavail * s.bsize;
    };
    // The server may still write (its log, the database's journal) while the filler grows: write until the disk refuses.
    try {
      writeFileSync(filler, Buffer.alloc(free()));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    }
    for (let tries = 0; tries < 100 && free() > 0; tries++) {
      try {
        appendFileSync(filler, Buffer.alloc(free()));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
    expect(free()).toBe(0);

    const statuses: number[] = [];
    const bodies: unknown[] = [];
    for (let i = 0; i < 300 && !statuses.includes(503); i++) {
      for (const r of await Promise.all([
        json(server.base, 'POST', '/api/admin/resources', newResource(`no room ${i}`), { cookie }),
        json(server.base, 'POST', '/api/resources/1/download'),
      ])) {
        statuses.push(r.status);
        if (r.status >= 400) bodies.push(JSON.parse(r.body));
      }
    }
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s !== 201 && s !== 200 && s !== 503)).toEqual([]);
    expect(bodies.every((b) => isErrorShape(b) && (b as { error: { code: string } }).error.code === 'UNAVAILABLE')).toBe(true);

    const ready = await json(server.base, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body).error.message).toMatch(/database or disk is full/);
    expect((await json(server.base, 'GET', '/api/resources?category=typography')).status).toBe(200);
    expect((await json(server.base, 'GET', '/api/site')).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(server.output()).toMatch(/database or disk is full/);
    expect(server.output()).not.toMatch(/cannot rollback/);

    // tus on the full disk: its lock row or its bytes cannot be written. A clear 503 or 507 in the
    // error shape, never a 500, for a new upload and for the one begun before.
    for (const refused of [await tus.patch(uploadUrl, 0), await tus.create()]) {
      expect([503, 507]).toContain(refused.status);
      expect(isErrorShape(await refused.json())).toBe(true);
    }

    // Space comes back: writes go through, and the server is ready again.
    rmSync(filler);
    expect((await json(server.base, 'POST', '/api/admin/resources', newResource('room again'), { cookie })).status).toBe(201);
    expect((await json(server.base, 'GET', '/readyz')).status).toBe(200);
    // The refused PATCH released what it took: the upload continues from where its bytes are and ends.
    const offset = Number((await tus.head(uploadUrl)).headers.get('upload-offset'));
    const resumed = await tus.patch(uploadUrl, offset);
    expect(resumed.status).toBe(204);
    expect(resumed.headers.get('upload-offset')).toBe(String(TUS_UPLOAD_BYTES));
    expect(await stopServer(server)).toBe(0);
    server = undefined;
  });
});

/**
 * A read-only SQLite database under a running server. We run as root, which file permission bits
 * do not stop, and a filesystem cannot be remounted read-only while the server holds the database
 * open for writing (mount: "mount point is busy"). So the connection itself is made read-only, as
 * SQLite does for a file it may not write: `query_only`, which refuses every write with
 * SQLITE_READONLY ("attempt to write a readonly database"). The log is captured from fd 1, where
 * the server's logger writes.
 */
describe('a read-only SQLite database under a running server', () => {
  let t: TestApp;
  let cookie = '';
  beforeAll(async () => {
    // Errors only: what a refused write logs.
    t = await createTestApp('sqlite', { logLevel: 'error' });
    await insertResource(t.database, { title: 'Written before read-only' });
    ({ cookie } = await createAndSignIn(t.app, t.database, 'read_only_admin'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers writes 503 with a clear message, serves reads, says why on /readyz and logs the SQLite error', async () => {
    // The logger writes to fd 1 with fs.write or fs.writeSync: those writes are kept here (not
    // printed); every other write passes through.
    const logged: string[] = [];
    const text = (data: unknown) => (Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
    const write = fs.write.bind(fs) as (...args: unknown[]) => void;
    const writeSync = fs.writeSync.bind(fs) as (...args: unknown[]) => number;
    const spies = [
      vi.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
        if (fd !== 1) return write(fd, data, ...rest);
        logged.push(text(data));
        (rest.find((x) => typeof x === 'function') as ((err: null, n: number) => void) | undefined)?.(null, Buffer.byteLength(text(data)));
      }) as never),
      vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
        if (fd !== 1) return writeSync(fd, data, ...rest);
        logged.push(text(data));
        return Buffer.byteLength(text(data));
      }) as never),
    ];
    t.database.sqlite!.pragma('query_only = ON');
    try {
      const id = (await t.database.db.selectFrom('resources').select('id').where('title', '=', 'Written before read-only').executeTakeFirstOrThrow()).id;
      const writes = [
        await t.app.inject({ method: 'POST', url: '/api/admin/resources', headers: { cookie }, payload: newResource('No writing') }),
        await t.app.inject({ method: 'POST', url: `/api/resources/${id}/download`, headers: BROWSER }),
      ];
      for (const w of writes) {
        expect(w.statusCode, w.body).toBe(503);
        expect(isErrorShape(w.json())).toBe(true);
        expect(w.json().error).toEqual({ code: 'UNAVAILABLE', message: 'The service is temporarily unavailable. Please try again later.' });
      }
      const list = await t.app.inject({ url: '/api/resources' });
      expect(list.statusCode).toBe(200);
      expect(list.json().items.map((r: { title: string }) => r.title)).toContain('Written before read-only');
      expect((await t.app.inject({ url: '/api/site' })).statusCode).toBe(200);

      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error.message).toBe('The database cannot take writes: attempt to write a readonly database');
      const log = logged.join('');
      expect(log).toMatch(/"code":"SQLITE_READONLY"/);
      expect(log).toMatch(/attempt to write a readonly database/);
      expect(log).not.toMatch(/cannot rollback/);
    } finally {
      t.database.sqlite!.pragma('query_only = OFF');
      for (const spy of spies) spy.mockRestore();
    }
    // Writable again: writes go through and /readyz is green.
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/resources', headers: { cookie }, payload: newResource('Writable again') })).statusCode).toBe(201);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

/**
 * A server started on a read-only volume (a read-only bind mount of its data folder; needs root,
 * elsewhere this case says why it did not run): SQLite cannot open its database there, and the
 * server says so on one line and exits non-zero — a supervisor sees the failure — rather than
 * starting half-working.
 */
describe('the server started on a read-only volume (read-only bind mount)', () => {
  const SESSION_SECRET = 'read-only-case-session-secret-0123456789';
  let writable = '';
  let readOnly = '';
  let mounted = false;
  let reason = '';
  beforeAll(() => {
    if (process.getuid?.() !== 0) {
      reason = 'not running as root (a read-only bind mount needs root, and chmod does not stop root)';
      return;
    }
    writable = mkdtempSync(path.join(os.tmpdir(), 'rv-ro-data-'));
    readOnly = mkdtempSync(path.join(os.tmpdir(), 'rv-ro-view-'));
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [readOnly]);
    for (const dir of [readOnly, writable]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exits non-zero with the cause on one line', { timeout: 180_000 }, async (ctx) => {
    if (!writable) {
      console.warn(`SKIPPED the read-only volume case: ${reason}`);
      ctx.skip();
    }
    // A data folder with its database, migrated, as a server leaves it.
    const { database } = await prepareDatabase(
      testConfig({ dataDir: writable, database: { kind: 'sqlite', file: path.join(writable, 'resource-vault.db') }, seedDemo: false }),
    );
    await insertResource(database, { title: 'Written before read-only' });
    await database.close();
    try {
      execFileSync('mount', ['--bind', writable, readOnly], { stdio: 'pipe' });
      mounted = true;
      execFileSync('mount', ['-o', 'remount,bind,ro', readOnly], { stdio: 'pipe' });
    } catch (err) {
      console.warn(`SKIPPED the read-only volume case: could not bind-mount read-only: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
      ctx.skip();
    }
    expect(() => writeFileSync(path.join(readOnly, 'probe'), 'x')).toThrow(/EROFS/);

    const started = startServer({ SEED_DEMO: 'false', MEDIA_JOBS_CONCURRENCY: '0', SESSION_SECRET, DATA_DIR: readOnly });
    await expect(started).rejects.toThrow(/server exited \(1\) before listening:\nFailed to start: unable to open database file: \S+ \(the database file and its folder must be writable\)\n$/);
  });
});
