import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { App } from '../context';
import { openDatabase, type Database } from '../db/connection';
import { createAndSignIn } from '../modules/auth/test-helpers';
import { insertResource } from '../modules/resources/test-fixtures';
import { createTestApp, TEST_DATABASES, type TestApp } from '../test-utils';
import { json, signIn, startServer, stopServer, type ServerProcess } from '../../../scripts/stress/server-process';
import { isErrorShape } from './hostile-input';

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
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint], { stdio: 'pipe' });
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
    server = await startServer({ DATA_DIR: mountPoint, SEED_DEMO: 'true', LOG_LEVEL: 'info', MEDIA_JOBS_CONCURRENCY: '0' });
    const cookie = await signIn(server.base);
    expect((await json(server.base, 'POST', '/api/admin/resources', newResource('room to spare'), { cookie })).status).toBe(201);

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

    // Space comes back: writes go through, and the server is ready again.
    rmSync(filler);
    expect((await json(server.base, 'POST', '/api/admin/resources', newResource('room again'), { cookie })).status).toBe(201);
    expect((await json(server.base, 'GET', '/readyz')).status).toBe(200);
    expect(await stopServer(server)).toBe(0);
    server = undefined;
  });
});
