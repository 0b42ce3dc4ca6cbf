import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../connection';
import { migrateToLatest } from '../migrate';
import { openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';

/** Migration 031 keeps the sessions it finds, each with a public id of its own; admins need not change their password (decision 415). */
describe.each(TEST_DATABASES)('the session-details migration on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, '031_session_details'));
    const now = '2026-01-01T00:00:00.000Z';
    const later = '2026-02-01T00:00:00.000Z';
    const { id } = await sql<{ id: number }>`insert into admins (username, username_key, password_hash, is_super_user, created_at)
      values ('old_admin', 'old_admin', 'x', 1, ${now}) returning id`
      .execute(database.db)
      .then((r) => r.rows[0]);
    for (const s of ['old-session-1', 'old-session-2', 'old-session-3']) {
      await sql`insert into sessions (id, admin_id, created_at, last_seen_at, expires_at) values (${s}, ${id}, ${now}, ${now}, ${later})`.execute(database.db);
    }
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop?.();
  });

  it('gives every existing session a distinct public id, no address or browser, and keeps it', async () => {
    const rows = await database.db.selectFrom('sessions').selectAll().orderBy('id').execute();
    expect(rows.map((r) => r.id)).toEqual(['old-session-1', 'old-session-2', 'old-session-3']);
    for (const r of rows) {
      expect(r.public_id).toMatch(/^[0-9a-f]{32}$/);
      expect(r).toMatchObject({ ip: null, user_agent: null });
    }
    expect(new Set(rows.map((r) => r.public_id)).size).toBe(3);
  });

  it('refuses a duplicate public id, and leaves existing admins free of a password change', async () => {
    const [first] = await database.db.selectFrom('sessions').select(['admin_id', 'public_id']).execute();
    const now = new Date().toISOString();
    await expect(
      database.db.insertInto('sessions').values({ id: 'dup', public_id: first.public_id, admin_id: first.admin_id, created_at: now, last_seen_at: now, expires_at: now }).execute(),
    ).rejects.toThrow();
    const admin = await database.db.selectFrom('admins').select('must_change_password').executeTakeFirstOrThrow();
    expect(Number(admin.must_change_password)).toBe(0);
  });
});
