/**
 * Fills the database with many generated resources, for measuring at scale. Not part of npm test.
 *
 *   npm run generate -- --count 1000000            # SQLite in DATA_DIR (default ./data)
 *   DATABASE_URL=postgres://… npm run generate -- --count 1000000
 *
 * Resources are the demo catalogue's (same vocabulary, categories, tags, dates), repeated with
 * fresh seeds and numbered titles, appended after the highest existing id. Rows go in by
 * batched multi-row inserts, many batches per transaction: about a minute for a million.
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { buildDemoData } from '../src/server/demo/demo-data';
import { tagKeys } from '../src/server/modules/resources/mappers';
import { resourceSearch } from '../src/server/modules/resources/search';
import { computeStaleFacets } from '../src/server/modules/resources/search/facet-rows';
import { generatedFacts } from './generated-facts';

/** Rows per INSERT statement: 12 columns stays under SQLite's 32,766 bind parameters. */
const ROWS_PER_STATEMENT = 2000;
/** Rows per transaction: big enough to amortise commits, small enough to show progress. */
const ROWS_PER_TRANSACTION = 50_000;

function parseCount(argv: string[]): number {
  const i = argv.indexOf('--count');
  const n = Number(i >= 0 ? argv[i + 1] : NaN);
  if (!Number.isInteger(n) || n <= 0 || n > 50_000_000) {
    console.error('usage: npm run generate -- --count <1..50000000>');
    process.exit(2);
  }
  return n;
}

export async function generateResources(database: Database, count: number, log: (s: string) => void = () => {}): Promise<void> {
  const { db } = database;
  const maxRow = await db.selectFrom('resources').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  let nextId = Number(maxRow?.max ?? 0) + 1;
  let made = 0;
  let seed = nextId;
  const now = new Date();
  const started = Date.now();
  while (made < count) {
    const inThisTransaction = Math.min(ROWS_PER_TRANSACTION, count - made);
    await db.transaction().execute(async (trx) => {
      let done = 0;
      while (done < inThisTransaction) {
        // One demo catalogue per seed; a batch takes as many of its resources as it needs.
        const demo = buildDemoData({ now, seed: seed++, firstId: nextId }).resources.slice(0, Math.min(ROWS_PER_STATEMENT, inThisTransaction - done));
        // A realistic share of them has a preview's facts and a listed ZIP download (generated-facts.ts).
        const facts = demo.map((r, i) => generatedFacts(r.category, nextId + i, now));
        const fileRows = facts.flatMap((f) => (f.file ? [f.file] : []));
        const fileIds: number[] = [];
        for (let k = 0; k < fileRows.length; k += ROWS_PER_STATEMENT / 2) {
          const inserted = await trx.insertInto('files').values(fileRows.slice(k, k + ROWS_PER_STATEMENT / 2)).returning('id').execute();
          fileIds.push(...inserted.map((f) => Number(f.id)));
        }
        let nextFile = 0;
        const rows = demo.map((r, i) => ({
          ...r,
          preview: facts[i].preview,
          download_file_id: facts[i].file ? fileIds[nextFile++] : null,
          id: nextId + i,
          title: `${r.title} #${nextId + i}`,
          thumbnail_url: `/thumbnails/${nextId + i}.svg`,
          download_url: r.download_url.replace(/-\d+\.zip$/, `-${nextId + i}.zip`),
          tags: JSON.stringify(r.tags),
          // Apps from the files only (generated-facts.ts), as the benchmarks' catalogues have always had.
          apps: null,
          admin_id: null,
        }));
        await trx.insertInto('resources').values(rows).execute();
        await resourceSearch(database).writeStoredText(trx, rows.map((r, i) => ({ id: r.id, title: r.title, description: r.description, tags: demo[i].tags })));
        const tagRows = demo.flatMap((r, i) => tagKeys(r.tags).map((tag) => ({ resource_id: nextId + i, tag })));
        for (let k = 0; k < tagRows.length; k += ROWS_PER_STATEMENT * 4) {
          await trx.insertInto('resource_tags').values(tagRows.slice(k, k + ROWS_PER_STATEMENT * 4)).execute();
        }
        // The facet rows, by the app's one derivation (the insert trigger marked these resources).
        while ((await computeStaleFacets(trx, 5000)) > 0);
        nextId += rows.length;
        done += rows.length;
      }
    });
    made += inThisTransaction;
    log(`  ${made.toLocaleString('en')} / ${count.toLocaleString('en')} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  if (database.dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('resources', 'id'), (select max(id) from resources))`.execute(db);
    // VACUUM too: it sets the visibility map, without which counts cannot be index-only scans
    // (autovacuum would get there later; a benchmark right after generating should not wait).
    await sql`vacuum analyze resources`.execute(db);
    await sql`vacuum analyze resource_tags`.execute(db);
    await sql`vacuum analyze resource_facets`.execute(db);
    await sql`vacuum analyze files`.execute(db);
  } else {
    await sql`analyze`.execute(db);
  }
}

if (process.argv[1]?.endsWith('generate-resources.ts')) {
  const count = parseCount(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect);
    console.log(`Generating ${count.toLocaleString('en')} resources into ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`);
    await generateResources(database, count, console.log);
  } finally {
    await database.close();
  }
}
