import { sql, type Transaction } from 'kysely';
import { downloadsDb } from '../modules/downloads/queries';
import { tagKeys } from '../modules/resources/mappers';
import { resourceSearch } from '../modules/resources/search';
import { nowIso } from '../time';
import type { Database } from '../db/connection';
import type { Tables } from '../db/schema';
import { buildDemoData, type DemoOptions } from './demo-data';
import { writeStaleFacets } from '../modules/resources/search/facet-rows';

/** Written in the seed's transaction: a database is seeded at most once, even by two instances starting together. */
export const DEMO_MARKER_KEY = 'demo_seeded_at';

/** Under SQLite's 32,766 and PostgreSQL's 65,535 bind parameters per statement. */
const MAX_BIND_PARAMS = 30_000;

/**
 * Fills an empty database (no resources, no announcements, never seeded) with the demo
 * catalogue in one transaction. Returns whether it seeded.
 */
export async function seedDemoIfEmpty(database: Database, options: DemoOptions = {}): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const aResource = await trx.selectFrom('resources').select('id').limit(1).executeTakeFirst();
    const anAnnouncement = await trx.selectFrom('announcements').select('id').limit(1).executeTakeFirst();
    if (aResource || anAnnouncement) return false;

    // The primary key makes a concurrent seeder wait here, then find the marker and back off.
    const marked = await trx
      .insertInto('settings')
      .values({ key: DEMO_MARKER_KEY, value: JSON.stringify(nowIso()) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(marked.numInsertedOrUpdatedRows ?? 0) === 0) return false;

    // Ids are chosen here (the table is empty) so thumbnail URLs and tag rows need no second pass.
    const data = buildDemoData({ ...options, firstId: 1 });
    const resourceRows = data.resources.map((r) => ({ ...r, tags: JSON.stringify(r.tags), admin_id: null }));
    await insertChunked(resourceRows, (chunk) => trx.insertInto('resources').values(chunk).execute());
    await resourceSearch(database).writeStoredText(trx, data.resources);
    await writeStaleFacets(trx);
    const tagRows = data.resources.flatMap((r) => tagKeys(r.tags).map((tag) => ({ resource_id: r.id, tag })));
    await insertChunked(tagRows, (chunk) => trx.insertInto('resource_tags').values(chunk).execute());
    await insertChunked(data.announcements.map((a) => ({ ...a, admin_id: null })), (chunk) =>
      trx.insertInto('announcements').values(chunk).execute(),
    );
    await insertChunked(data.downloadDays, (chunk) =>
      trx
        .insertInto('download_days')
        .values(chunk)
        .onConflict((oc) => oc.column('day').doNothing())
        .execute(),
    );
    await insertChunked(data.resourceDownloadDays, (chunk) => downloadsDb(trx).insertInto('resource_download_days').values(chunk).execute());
    if (database.dialect === 'postgres') await resyncSequence(trx);
    return true;
  });
}

/** Explicit ids leave a PostgreSQL serial behind; the next admin-created resource must not collide. */
async function resyncSequence(trx: Transaction<Tables>) {
  await sql`select setval(pg_get_serial_sequence('resources', 'id'), (select max(id) from resources))`.execute(trx);
}

async function insertChunked<T extends object>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  if (rows.length === 0) return;
  const perRow = Object.keys(rows[0]).length;
  const size = Math.max(1, Math.floor(MAX_BIND_PARAMS / perRow));
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}
