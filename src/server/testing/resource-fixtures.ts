import type { CategoryValue } from '../../contract/categories';
import type { Sort } from '../../contract/resources';
import type { Database } from '../db/connection';
import { normalizeTags, tagKeys } from '../modules/resources/mappers';
import { resourceSearch } from '../modules/resources/search';

/** Test-only: a resource with exactly the sort keys a test needs (the admin API always writes "now" and zero counts). */
export interface FixtureResource {
  title?: string;
  description?: string;
  category?: CategoryValue;
  tags?: string[];
  popularity?: number;
  download_count?: number;
  created_at?: string;
  is_premium?: boolean;
}

let n = 0;

export async function insertResource(database: Database, f: FixtureResource = {}): Promise<number> {
  n += 1;
  const created = f.created_at ?? new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
  const tags = normalizeTags(f.tags ?? []);
  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('resources')
      .values({
        ...resourceSearch(database).storedValues({ title: f.title ?? `Fixture resource ${n}`, description: f.description ?? `Fixture description ${n}`, tags }),
        title: f.title ?? `Fixture resource ${n}`,
        description: f.description ?? `Fixture description ${n}`,
        category: f.category ?? 'video_editing',
        thumbnail_url: 'https://img.example.com/t.png',
        download_url: `https://files.example.com/fixture-${n}.zip`,
        is_premium: f.is_premium ? 1 : 0,
        download_count: f.download_count ?? 0,
        popularity: f.popularity ?? 0,
        tags: JSON.stringify(tags),
        created_at: created,
        updated_at: created,
        admin_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const keys = tagKeys(tags);
    if (keys.length > 0) {
      await trx
        .insertInto('resource_tags')
        .values(keys.map((tag) => ({ resource_id: row.id, tag })))
        .execute();
    }
    return Number(row.id);
  });
}

/** Everything that a failed request must leave untouched. */
export async function snapshot(database: Database) {
  const db = database.db;
  const resources = await db
    .selectFrom('resources')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('download_count').as('downloads')])
    .executeTakeFirstOrThrow();
  const days = await db.selectFrom('download_days').select(['day', 'count']).orderBy('day').execute();
  const tags = await db.selectFrom('resource_tags').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return {
    resources: Number(resources.n),
    downloads: Number(resources.downloads ?? 0),
    tags: Number(tags.n),
    days: days.map((d) => `${d.day}:${d.count}`).join(','),
  };
}

/** Test-only: a resource as the reference checks read it back from the database. */
export interface ReferenceRow {
  id: number;
  category: string;
  title: string;
  description: string;
  tags: string[];
  popularity: number;
  download_count: number;
  created_at: string;
}

/** Test-only: the order the API promises for each sort, computed independently of the SQL. */
export const REFERENCE_ORDER: Record<Sort, (a: ReferenceRow, b: ReferenceRow) => number> = {
  popular: (a, b) => b.popularity - a.popularity || b.download_count - a.download_count || b.id - a.id,
  newest: (a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id),
  downloads: (a, b) => b.download_count - a.download_count || b.id - a.id,
};
