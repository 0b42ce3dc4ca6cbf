import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../testing/test-config';
import type { Database } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { BROWSER, openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';
import { downloadsDb } from './queries';

/** The migration that brought per-visitor counting (018): the database is made as it was just before it. */
const COUNTING_MIGRATION = '018_download_visitors';

/** Counts as the app wrote them before per-visitor counting: every click added one. */
const OLD_COUNTS = [5476, 0, 1, 2_000_000_000];
const OLD_DAYS = [
  { day: '2024-03-01', count: 120 },
  { day: '2024-03-02', count: 5476 },
  { day: '2024-03-03', count: 7 },
];

describe.each(TEST_DATABASES)('the download-counting migration keeps existing counts on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, COUNTING_MIGRATION));
    for (const [i, count] of OLD_COUNTS.entries()) {
      const row = await database.db
        .insertInto('resources')
        .values({
          title: `Counted ${i}`,
          description: 'Downloaded before the upgrade',
          category: i % 2 ? 'sound_effects' : 'video_editing',
          thumbnail_url: '/thumbnails/1.svg',
          download_url: `https://files.example.com/${i}.zip`,
          is_premium: 0,
          download_count: count,
          tags: '[]',
          created_at: '2024-01-01T00:00:00.000Z',
          updated_at: '2024-01-01T00:00:00.000Z',
          admin_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    await database.db.insertInto('download_days').values(OLD_DAYS).execute();
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop();
  });

  it('totals and daily counts are as they were, and no per-resource history is invented', async () => {
    const rows = await database.db.selectFrom('resources').select(['id', 'download_count']).orderBy('id').execute();
    expect(rows.map((r) => [Number(r.id), Number(r.download_count)])).toEqual(ids.map((id, i) => [id, OLD_COUNTS[i]]));
    const days = await database.db.selectFrom('download_days').select(['day', 'count']).orderBy('day').execute();
    expect(days.map((d) => ({ day: d.day, count: Number(d.count) }))).toEqual(OLD_DAYS);
    const perResource = await downloadsDb(database.db).selectFrom('resource_download_days').selectAll().execute();
    expect(perResource).toEqual([]);
  });

  it('the app shows the kept totals and counts new downloads on top of them', async () => {
    const app = await buildApp(testConfig({ downloads: { counting: 'unique', rateLimit: 0 } }), database);
    try {
      const before = await app.inject({ method: 'GET', url: `/api/resources/${ids[0]}` });
      expect(before.json()).toMatchObject({ download_count: OLD_COUNTS[0] });
      const recorded = await app.inject({ method: 'POST', url: `/api/resources/${ids[0]}/download`, headers: BROWSER });
      expect(recorded.statusCode, recorded.body).toBe(200);
      expect(recorded.json()).toMatchObject({ download_count: OLD_COUNTS[0] + 1 });
      const row = await database.db.selectFrom('resources').select('download_count').where('id', '=', ids[0]).executeTakeFirstOrThrow();
      expect(Number(row.download_count)).toBe(OLD_COUNTS[0] + 1);
      // Yesterday's days are untouched; today's is added beside them.
      const old = await database.db.selectFrom('download_days').select(['day', 'count']).where('day', '<=', OLD_DAYS[2].day).orderBy('day').execute();
      expect(old.map((d) => ({ day: d.day, count: Number(d.count) }))).toEqual(OLD_DAYS);
    } finally {
      await app.close();
    }
  });
});
