import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';

/** Migration 029 (the trash): existing resources keep their status, publish time and public answers; the new status is accepted, others are not. */
const TRASH_MIGRATION = '029_resource_trash';
/** Each test migrates a database of its own from the start: slow on in-process PGlite on a busy machine. */
const MIGRATING_MS = 120_000;

describe.each(TEST_DATABASES)('the trash migration on %s', (kind) => {
  it('leaves every existing row as it was and accepts status trashed only', async () => {
    const { database, drop } = await openDatabaseBefore(kind, TRASH_MIGRATION);
    try {
      const { db } = database;
      const now = '2025-01-01T00:00:00.000Z';
      const base = { description: 'x', category: 'typography', thumbnail_url: '', download_url: 'https://f.example.com/a.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null };
      await db
        .insertInto('resources')
        .values([
          { ...base, title: 'Published', status: 'published' },
          { ...base, title: 'Draft', status: 'draft' },
          { ...base, title: 'Scheduled', status: 'scheduled', publish_at: '2030-01-01T00:00:00.000Z' },
        ])
        .execute();
      const before = await db.selectFrom('resources').select(['id', 'title', 'status', 'publish_at', 'created_at']).orderBy('id').execute();
      await migrateToLatest(db, database.dialect);

      const after = await db.selectFrom('resources').select(['id', 'title', 'status', 'publish_at', 'created_at', 'trashed_at', 'status_before_trash']).orderBy('id').execute();
      expect(after).toEqual(before.map((r) => ({ ...r, trashed_at: null, status_before_trash: null })));

      const [published] = after;
      await db.updateTable('resources').set({ status: 'trashed', status_before_trash: 'published', trashed_at: now }).where('id', '=', published!.id).execute();
      await expect(db.updateTable('resources').set({ status: 'gone' }).where('id', '=', published!.id).execute()).rejects.toThrow();
      await expect(db.updateTable('resources').set({ status_before_trash: 'trashed' }).where('id', '=', published!.id).execute()).rejects.toThrow();
      // The indexes 027 made (SQLite recreates them with the column) and the trash's own.
      const names =
        database.dialect === 'postgres'
          ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'resources' and schemaname = current_schema()`.execute(db)).rows
          : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'resources'`.execute(db)).rows;
      expect(names.map((n) => n.name)).toEqual(expect.arrayContaining(['resources_public_count', 'resources_due', 'resources_trashed']));
      // Writing the status still bumps the data version (027's trigger, recreated on SQLite).
      const version = async () => Number((await sql<{ version: number }>`select version from data_version where id = 1`.execute(db)).rows[0]!.version);
      const v = await version();
      await db.updateTable('resources').set({ status: 'draft' }).where('id', '=', published!.id).execute();
      expect(await version()).toBeGreaterThan(v);
    } finally {
      await drop();
    }
  }, MIGRATING_MS);
});
