import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';
import { isMediaOwned } from './owners';

/** Migration 021 gives existing resources the owners their ready preview and hosted thumbnail need (decision 330). */
const OWNERS_MIGRATION = '021_media_owners';
const key = (c: string, ext: string) => `media/${c.repeat(32)}.${ext}`;

describe.each(TEST_DATABASES)('the media-owners migration on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let ids: number[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openDatabaseBefore(kind, OWNERS_MIGRATION));
    const now = '2024-01-01T00:00:00.000Z';
    const image = { width: 480, height: 270, variants: [{ format: 'webp', width: 480, height: 270, fileName: `${'c'.repeat(32)}.webp` }], placeholder: { color: '#000', dataUri: '' } };
    const thumb = await database.db
      .insertInto('files')
      .values({ key: key('c', 'webp'), kind: 'thumbnail', name: 'c.png', size: 1, sha256: 'x', content_type: 'image/webp', image: JSON.stringify(image), created_at: now, detached_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const previews = [
      { kind: 'video', preview: { key: key('a', 'mp4'), fileName: 'x' }, poster: { variants: [{ key: key('b', 'webp') }] } },
      null,
    ];
    ids = [];
    for (const [i, preview] of previews.entries()) {
      const row = await database.db
        .insertInto('resources')
        .values({
          title: `Before ${i}`,
          description: 'x',
          category: 'motion_graphics',
          thumbnail_url: '',
          download_url: 'https://files.example.com/a.zip',
          is_premium: 0,
          tags: '[]',
          created_at: now,
          updated_at: now,
          admin_id: null,
          preview: preview && JSON.stringify(preview),
          thumbnail_file_id: i === 1 ? Number(thumb.id) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    await migrateToLatest(database.db, database.dialect);
  });
  afterAll(async () => {
    await drop?.();
  });

  it('records the files of each ready preview and hosted thumbnail, and nothing else', async () => {
    const rows = await database.db
      .withTables<{ media_owners: { resource_id: number; role: string; key: string } }>()
      .selectFrom('media_owners')
      .select(['resource_id', 'role', 'key'])
      .orderBy('key')
      .execute();
    expect(rows.map((r) => ({ ...r, resource_id: Number(r.resource_id) }))).toEqual([
      { resource_id: ids[0], role: 'preview', key: key('a', 'mp4') },
      { resource_id: ids[0], role: 'preview', key: key('b', 'webp') },
      { resource_id: ids[1], role: 'thumbnail', key: key('c', 'webp') },
    ]);
    expect(await isMediaOwned(database.db, key('a', 'mp4'))).toBe(true);
    expect(await isMediaOwned(database.db, key('d', 'mp4'))).toBe(false);
  });
});
