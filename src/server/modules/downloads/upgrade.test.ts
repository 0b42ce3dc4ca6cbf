import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { type Database, openDatabase } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';
import { BROWSER, TEST_DATABASES } from '../../test-utils';
import { downloadsDb } from './queries';

/** The migration that brought per-visitor counting (018): the database is made as it was just before it. */
const COUNTING_MIGRATION = '018_download_visitors';

/** A fresh database migrated up to (not including) `until`, on its own schema for PostgreSQL. */
async function openBefore(kind: (typeof TEST_DATABASES)[number], until: string): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  let database: Database;
  let dropSchema = async () => {};
  if (kind === 'sqlite') database = await openDatabase({ kind: 'sqlite', file: ':memory:' });
  else if (!url) database = await openDatabase({ kind: 'pglite' });
  else {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    database = await openDatabase({ kind: 'postgres', url: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` });
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  const index = MIGRATIONS.findIndex(([name]) => name === until);
  if (index < 0) throw new Error(`no migration ${until}`);
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.slice(0, index).map(([name, m]) => [name, { up: (trx: Kysely<unknown>) => m.up(trx, database.dialect) }]),
  );
  const schema = database.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]?.s : undefined;
  const { error } = await new Migrator({ db: database.db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema }).migrateToLatest();
  if (error) throw error;
  return {
    database,
    async drop() {
      await database.close();
      await dropSchema();
    },
  };
}

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
    ({ database, drop } = await openBefore(kind, COUNTING_MIGRATION));
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
