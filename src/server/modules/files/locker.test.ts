import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilesTestApp, randomData, startFilesApp, tusUpload } from '../../testing/files-helpers';
import { TEST_DATABASES } from '../../testing/test-utils';
import { DbLocker } from './locker';

const TUS = { 'tus-resumable': '1.0.0' };

/**
 * The database refuses writes as on a full disk: SQLite through `query_only` (SQLITE_READONLY, the
 * class of error a full or read-only disk gives), PostgreSQL through a trigger on upload_locks
 * raising disk_full (53100), the code a full disk gives there. Returns the way back.
 */
async function refuseLockWrites(t: FilesTestApp): Promise<() => Promise<void>> {
  if (t.database.sqlite) {
    t.database.sqlite.pragma('query_only = ON');
    return async () => void t.database.sqlite!.pragma('query_only = OFF');
  }
  await sql`create function refuse_lock_writes() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device' using errcode = '53100'; end $$`.execute(t.database.db);
  await sql`create trigger refuse_lock_writes before insert or update or delete on upload_locks for each row execute function refuse_lock_writes()`.execute(t.database.db);
  return async () => {
    await sql`drop trigger refuse_lock_writes on upload_locks`.execute(t.database.db);
    await sql`drop function refuse_lock_writes()`.execute(t.database.db);
  };
}

describe.each(TEST_DATABASES)('upload locks when the database cannot write, on %s', (kind) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(kind, 'local');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers a tus request 503 in the error shape (not 500) when the lock cannot be written, and takes it again once writes pass', async () => {
    const begun = await tusUpload(t, randomData(2 * 1024 * 1024), { chunkSize: 1024 * 1024, stopAfterBytes: 1024 * 1024 });
    const restore = await refuseLockWrites(t);
    let patch: Response;
    try {
      patch = await fetch(begun.url, {
        method: 'PATCH',
        headers: { ...t.headers, ...TUS, 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(1024),
      });
    } finally {
      await restore();
    }
    expect(patch.status).toBe(503);
    expect(patch.headers.get('retry-after')).not.toBeNull();
    expect(((await patch.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE');
    const again = await fetch(begun.url, { method: 'HEAD', headers: { ...t.headers, ...TUS } });
    expect(again.status).toBe(200);
    expect(again.headers.get('upload-offset')).toBe(String(1024 * 1024));
  });

  it('lets go of a lock whose row could not be deleted: unlock does not fail, and the next request here takes the lock before its lease runs out', async () => {
    const locker = new DbLocker(t.database);
    const id = `lock-test-${kind}`;
    const held = locker.newLock(id);
    await held.lock(new AbortController().signal, async () => {});
    const restore = await refuseLockWrites(t);
    let unlocked: unknown;
    try {
      unlocked = await held.unlock().then(
        () => 'released',
        (err: unknown) => err,
      );
    } finally {
      await restore();
    }
    expect(unlocked).toBe('released');
    const left = await t.database.db.selectFrom('upload_locks').select('expires_at').where('id', '=', id).executeTakeFirst();
    const next = locker.newLock(id);
    await next.lock(new AbortController().signal, async () => {});
    // Taken while the old row's lease still ran (or after the retried delete removed it): not by waiting it out.
    if (left) expect(Date.now()).toBeLessThan(Date.parse(left.expires_at));
    await next.unlock();
    expect(await t.database.db.selectFrom('upload_locks').select('id').where('id', '=', id).execute()).toEqual([]);
  });
});
