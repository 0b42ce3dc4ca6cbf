/**
 * `npx tsx bench/seed.ts` (part of `npm run bench`; --no-seed skips it): the demo seed of a fresh
 * install (`seedDemoIfEmpty`: 1,134 resources with their search text and tags, announcements and
 * the per-day download history) on SQLite, beside a floor measured in the same run: the very rows
 * the seed wrote, read back and inserted into another fresh database of the same schema by
 * better-sqlite3 prepared statements in one transaction (the database's own cost of those rows,
 * its triggers and indexes included). The difference is what our code adds: building the data,
 * Kysely, the search text. Each side BENCH_SEED_RUNS times (default 3), alternating; medians.
 * Goal (issue 12): the seed under 2 s on SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { seedDemoIfEmpty } from '../src/server/demo/seed';

const RUNS = Math.max(1, Number(process.env.BENCH_SEED_RUNS ?? 3));
const GOAL_SECONDS = 2;
/** The tables the seed fills, in an order their foreign keys accept. */
const TABLES = ['resources', 'resource_tags', 'announcements', 'download_days', 'resource_download_days'] as const;

async function freshDatabase(dir: string, name: string) {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(dir, name) });
  await migrateToLatest(database.db, database.dialect);
  return database;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface SeedBench {
  rows: number;
  ours: number[];
  floor: number[];
}

export async function seedBench(): Promise<SeedBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-seed-'));
  const ours: number[] = [];
  const floor: number[] = [];
  let rows = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const seeded = await freshDatabase(dir, `ours-${run}.db`);
      const started = performance.now();
      if (!(await seedDemoIfEmpty(seeded))) throw new Error('the fresh database was not empty');
      ours.push((performance.now() - started) / 1000);
      await seeded.close();

      const bare = await freshDatabase(dir, `floor-${run}.db`);
      await bare.close();
      const source = new Sqlite(path.join(dir, `ours-${run}.db`), { readonly: true });
      const target = new Sqlite(path.join(dir, `floor-${run}.db`));
      const data = TABLES.map((table) => ({ table, rows: source.prepare(`select * from ${table}`).all() as Record<string, unknown>[] }));
      rows = data.reduce((n, d) => n + d.rows.length, 0);
      const begin = performance.now();
      target.transaction(() => {
        for (const { table, rows: list } of data) {
          if (list.length === 0) continue;
          const columns = Object.keys(list[0]);
          const insert = target.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
          for (const row of list) insert.run(row);
        }
      })();
      floor.push((performance.now() - begin) / 1000);
      source.close();
      target.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, ours, floor };
}

export function formatSeedBench(r: SeedBench): string {
  const ours = median(r.ours);
  const floor = median(r.floor);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
  return [
    `Demo seed on SQLite: ${r.rows.toLocaleString('en')} rows, median of ${r.ours.length}; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    '',
    '| measure | seconds (each run) | median | goal |',
    '| --- | --- | ---: | --- |',
    `| seedDemoIfEmpty (ours) | ${list(r.ours)} | ${ours.toFixed(2)} | < ${GOAL_SECONDS} s ${ours < GOAL_SECONDS ? 'ok' : 'MISSED'} |`,
    `| the same rows by prepared statements (floor) | ${list(r.floor)} | ${floor.toFixed(2)} | |`,
    `| ours / floor | | ${(ours / floor).toFixed(1)}× | |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatSeedBench(await seedBench()));
}
