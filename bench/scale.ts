/**
 * Latency at scale: the real server on a SQLite database of N generated resources (generated once
 * into a cached file under the OS temp dir, reused by later runs), requests sent one at a time so
 * each figure is one request's latency. Every URL is distinct, so the public cache never answers:
 * these are database figures.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { generateResources } from '../scripts/generate-resources';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrations';
import { encodeCursor } from '../src/server/modules/resources/cursor';
import { type Server, startServer } from './harness';

export interface LatencyRow {
  measure: string;
  requests: number;
  p50: number;
  p95: number;
  goal: number;
}

/** A SQLite file with `count` generated resources; built on first use, then reused. */
export async function scaleDatabase(count: number): Promise<string> {
  const dir = path.join(os.tmpdir(), `rv-bench-scale-${count}`);
  const done = path.join(dir, 'complete');
  if (!existsSync(done)) {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'resource-vault.db');
    const database = await openDatabase({ kind: 'sqlite', file });
    try {
      await migrateToLatest(database.db, database.dialect);
      const have = Number((await database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      if (have < count) {
        process.stderr.write(`  generating ${(count - have).toLocaleString('en')} resources into ${file} (once)\n`);
        await generateResources(database, count - have, (s) => process.stderr.write(`${s}\n`));
      }
    } finally {
      await database.close();
    }
    writeFileSync(done, new Date().toISOString());
  }
  return dir;
}

const SORTS = ['popular', 'newest', 'downloads'] as const;
const ORDER: Record<(typeof SORTS)[number], string> = {
  popular: 'popularity desc, download_count desc, id desc',
  newest: 'created_at desc, id desc',
  downloads: 'download_count desc, id desc',
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeAll(base: string, urls: string[]): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (const u of urls) {
    const t0 = performance.now();
    const res = await fetch(base + u);
    if (!res.ok) throw new Error(`${u} answered ${res.status}`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** `seedDemo`: an empty dataDir gets the demo catalogue (1,134 resources) from the server's own start-up. */
export async function scaleLatency(dataDir: string, label: string, seedDemo = false): Promise<LatencyRow[]> {
  const server = await startServer('app-server.ts', { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: String(seedDemo), DATABASE_URL: undefined });
  try {
    return await measure(server, path.join(dataDir, 'resource-vault.db'), label);
  } finally {
    await server.stop();
  }
}

async function measure(server: Server, file: string, label: string): Promise<LatencyRow[]> {
  // Cursors at chosen depths, built from the rows that sit there (a read-only second connection).
  const sqlite = new SQLite(file, { readonly: true });
  const listUrls: Record<string, string[]> = {};
  let total: number;
  try {
    total = (sqlite.prepare("select count(*) as n from resources where category = 'video_editing'").get() as { n: number }).n;
    for (const sort of SORTS) {
      const urls: string[] = [`/api/resources?category=video-editing&sort=${sort}`];
      for (let k = 1; k <= 40; k++) {
        const depth = Math.floor((total * k) / 41);
        const row = sqlite
          .prepare(`select id, popularity, download_count, created_at from resources where category = 'video_editing' order by ${ORDER[sort]} limit 1 offset ?`)
          .get(depth) as { id: number; popularity: number; download_count: number; created_at: string };
        urls.push(`/api/resources?category=video-editing&sort=${sort}&cursor=${encodeURIComponent(encodeCursor(sort, row))}`);
      }
      listUrls[sort] = urls;
    }
  } finally {
    sqlite.close();
  }
  // Few: at a million rows a search is a full scan today (seconds), and the bench must stay bounded.
  const words = ['cinematic', 'grain', 'neon', 'logo'];
  const searchUrls = words.flatMap((w, i) => [
    `/api/resources?q=${w}&_=${i}`,
    `/api/resources?q=${w}&tags=LUTs&_=${i}`,
    `/api/resources?category=video-editing&q=${w}&_=${i}`,
  ]);

  const rows: LatencyRow[] = [];
  {
    // One pass to warm the page cache and the JIT, then the measured pass (distinct URLs again).
    await timeAll(server.url, [...Object.values(listUrls).flat(), searchUrls[0]].map((u) => `${u}&warm=1`));
    for (const sort of SORTS) {
      const r = await timeAll(server.url, listUrls[sort]);
      rows.push({ measure: `${label}: list a category, sort=${sort}, 41 depths of ${total.toLocaleString('en')}`, requests: listUrls[sort].length, ...r, goal: 10 });
    }
    const s = await timeAll(server.url, searchUrls);
    rows.push({ measure: `${label}: search (q; q + tags; q in a category)`, requests: searchUrls.length, ...s, goal: 30 });
  }
  return rows;
}

export function formatLatency(rows: LatencyRow[]): string {
  const header = ['measure', 'requests', 'p50 ms', 'p95 ms', 'goal p95 ms', 'result'];
  const body = rows.map((r) => [r.measure, String(r.requests), r.p50.toFixed(1), r.p95.toFixed(1), `< ${r.goal}`, r.p95 < r.goal ? 'pass' : 'FAIL']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}
