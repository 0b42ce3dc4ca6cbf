import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/connection';
import { migrateToLatest } from '../../../db/migrate';
import { openDatabaseBefore, TEST_DATABASES } from '../../../testing/test-utils';
import { insertResource } from '../../../testing/resource-fixtures';
import { createResourceSearch } from '.';

/** Rows as the app wrote them before migration 009 (folding by lower() / FTS5). */
const OLD_ROWS = [
  { title: 'İstanbul skyline', description: 'Night over the Bosphorus', tags: ['Straße', 'ΟΔΟΣ'] },
  { title: 'cafe\u0301 chatter', description: 'Cups and spoons', tags: ['Ambience'] },
  { title: 'Plain ASCII row', description: 'Nothing special', tags: ['Film', 'Grain'] },
];

describe.each(TEST_DATABASES)('migration 009 upgrades an existing database in place on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let ids: number[];

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, '009_search_folded_text'));
    ids = [];
    for (const [i, r] of OLD_ROWS.entries()) {
      const row = await database.db
        .insertInto('resources')
        .values({
          title: r.title,
          description: r.description,
          category: 'video_editing',
          thumbnail_url: '/thumbnails/1.svg',
          download_url: `https://files.example.com/${i}.zip`,
          is_premium: 0,
          tags: JSON.stringify(r.tags),
          created_at: `2024-01-0${i + 1}T00:00:00.000Z`,
          updated_at: `2024-01-0${i + 1}T00:00:00.000Z`,
          admin_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
      // Tag keys as the app wrote them before: toLowerCase.
      await database.db
        .insertInto('resource_tags')
        .values(r.tags.map((t) => ({ resource_id: Number(row.id), tag: t.toLowerCase() })))
        .execute();
    }
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop();
  });

  const find = async (filters: { q?: string; tags?: string[] }) => {
    const page = await createResourceSearch(database).list({ filters, sort: 'newest', limit: 50 });
    return page.rows.map((r) => Number(r.id)).sort();
  };

  it('finds the rows written before it by the one fold rule, on every path', async () => {
    expect(await find({ q: 'ISTANBUL' })).toEqual([ids[0]]);
    expect(await find({ q: 'café' })).toEqual([ids[1]]);
    expect(await find({ q: 'é' })).toEqual([ids[1]]);
    expect(await find({ q: 'ascii' })).toEqual([ids[2]]);
    expect(await find({ tags: ['STRASSE'] })).toEqual([ids[0]]);
    expect(await find({ tags: ['οδος'] })).toEqual([ids[0]]);
    expect(await find({ q: 'bosphorus', tags: ['strasse'] })).toEqual([ids[0]]);
    expect(await find({ tags: ['film'] })).toEqual([ids[2]]);
  });

  it('re-keys the tags and stores the text itself from now on', async () => {
    const keys = await database.db.selectFrom('resource_tags').select('tag').where('resource_id', '=', ids[0]).orderBy('tag').execute();
    expect(keys.map((k) => k.tag)).toEqual(['strasse', 'οδοσ']);
    if (database.dialect === 'postgres') {
      const { rows } = await sql<{ column_name: string; is_generated: string }>`select column_name, is_generated from information_schema.columns
        where table_schema = current_schema() and table_name = 'resources' and column_name in ('search_text', 'tag_keys') order by column_name`.execute(database.db);
      expect(rows).toEqual([
        { column_name: 'search_text', is_generated: 'NEVER' },
        { column_name: 'tag_keys', is_generated: 'NEVER' },
      ]);
    }
    const added = await insertResource(database, { title: 'ΣΊΣΥΦΟΣ after the upgrade', tags: ['ẞ-Tag'] });
    expect(await find({ q: 'σίσυφος' })).toEqual([added]);
    expect(await find({ tags: ['ss-tag'] })).toEqual([added]);
  });
});
