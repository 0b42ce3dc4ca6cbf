/**
 * Latency at scale: the real server on a database of N generated resources, requests sent one
 * at a time so each figure is one request's latency. Every URL is distinct, so the public cache
 * never answers: these are database figures. SQLite: generated once into a cached file under the
 * OS temp dir; PostgreSQL (BENCH_DATABASE_URL): the database rv_bench_scale on that server, filled
 * once by restoring a backup of the SQLite one (the README's move: the same rows on both, in ~10
 * minutes at 1M where generating into PostgreSQL took 70+). Both are reused by later runs and brought to the latest schema first
 * (migrations run on the cached copy before measuring, e.g. migration 003 builds the search index).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { generateResources } from '../scripts/generate-resources';
import { type Database, openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { resourcePath } from '../src/contract/resource-page';
import { encodeCursor } from '../src/server/modules/resources/cursor';
import { PUBLIC_CACHE_MAX_AGE_MS } from '../src/server/public-cache';
import { type Server, startServer, vacuumAnalyze } from './harness';

export interface LatencyRow {
  measure: string;
  requests: number;
  p50: number;
  p95: number;
  goal: number;
}

/**
 * Whether a cached database was generated with files' facts (since issue 33: previews and listed
 * downloads, whose facet rows migration 039 computes): one generated before has none, and is
 * generated again rather than measured without them.
 */
async function generatedWithFacts(database: Database): Promise<boolean> {
  await migrateToLatest(database.db, database.dialect);
  const { rows } = await sql<{ resources: number; facets: number }>`select (select count(*) from (select 1 from resources limit 1) r) as resources,
    (select count(*) from (select 1 from resource_facets limit 1) f) as facets`.execute(database.db);
  return Number(rows[0]?.resources) === 0 || Number(rows[0]?.facets) > 0;
}

/** Migrates (a no-op when current; timed when not), then tops the resources up to `count`. */
async function prepare(database: Database, count: number, where: string): Promise<void> {
  const started = Date.now();
  await migrateToLatest(database.db, database.dialect);
  const took = Date.now() - started;
  if (took > 2000) {
    process.stderr.write(`  migrated ${where} to the latest schema in ${(took / 1000).toFixed(0)} s\n`);
    // A migration that rewrote the table leaves no visibility map: vacuum, as autovacuum would soon (index-only counts).
    if (database.dialect === 'postgres') await sql`vacuum analyze resources`.execute(database.db);
  }
  const have = Number((await database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (have < count) {
    process.stderr.write(`  generating ${(count - have).toLocaleString('en')} resources into ${where} (once)\n`);
    await generateResources(database, count - have, (s) => process.stderr.write(`${s}\n`));
  }
}

/** A SQLite file with `count` generated resources; built on first use, then reused (and migrated). */
export async function scaleDatabase(count: number): Promise<string> {
  const dir = path.join(os.tmpdir(), `rv-bench-scale-${count}`);
  const file = path.join(dir, 'resource-vault.db');
  mkdirSync(dir, { recursive: true });
  let database = await openDatabase({ kind: 'sqlite', file });
  if (!(await generatedWithFacts(database))) {
    process.stderr.write(`  ${file} was generated without files' facts: generating it again\n`);
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    database = await openDatabase({ kind: 'sqlite', file });
  }
  try {
    await prepare(database, count, file);
  } finally {
    await database.close();
  }
  return dir;
}

/** `name` on the server of `url` (created if missing), as a URL. */
async function pgDatabase(url: string, name: string, fresh: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${name} with (force)`);
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount! > 0;
    if (!exists) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The PostgreSQL database rv_bench_scale with `count` generated resources: generated once, then reused (and migrated). */
export async function scalePgDatabase(url: string, count: number): Promise<string> {
  let scaleUrl = await pgDatabase(url, 'rv_bench_scale', false);
  let database = await openDatabase({ kind: 'postgres', url: scaleUrl });
  if (!(await generatedWithFacts(database))) {
    process.stderr.write(`  rv_bench_scale was generated without files' facts: generating it again\n`);
    await database.close();
    scaleUrl = await pgDatabase(url, 'rv_bench_scale', true);
    database = await openDatabase({ kind: 'postgres', url: scaleUrl });
  }
  try {
    const have = Number((await database.db.selectFrom('resources').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    if (have === 0) await restoreSqliteScale(count, scaleUrl);
    await prepare(database, count, 'PostgreSQL rv_bench_scale');
  } finally {
    await database.close();
  }
  return scaleUrl;
}

/** A fixed secret: the backup CLI then writes no session-secret file into the cached SQLite folder. */
const SCALE_SECRET = 'bench-scale-secret-0123456789abcdefghijkl';

/** Fills the empty PostgreSQL database at `url` with the SQLite scale database's rows: `npm run backup`, then `npm run restore`. */
async function restoreSqliteScale(count: number, url: string): Promise<void> {
  const sqliteDir = await scaleDatabase(count);
  const work = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-scale-move-'));
  try {
    const archive = path.join(work, 'scale.tar');
    process.stderr.write(`  filling PostgreSQL rv_bench_scale from ${sqliteDir}: backup, then restore (once)\n`);
    const run = (script: string, args: string[], env: Record<string, string | undefined>) => {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, SESSION_SECRET: SCALE_SECRET, STORAGE: undefined, ...env };
      for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
      const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed (${r.status})`);
    };
    run('scripts/backup.ts', ['--out', archive], { DATA_DIR: sqliteDir, DATABASE_URL: undefined });
    run('scripts/restore.ts', [archive], { DATABASE_URL: url, DATA_DIR: path.join(work, 'data') });
    await vacuumAnalyze(url);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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

/**
 * Each URL in turn, timed from the request to the answer's last byte, asked as a browser or a
 * crawler asks (`Accept-Encoding: br, gzip`) and read as sent: decompressing is the client's work
 * (fetch() would do it inside the timing, in the process that shares the machine with the server).
 */
async function timeAll(base: string, urls: string[], before?: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (const u of urls) {
    await before?.();
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get(base + u, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${u} answered ${res.statusCode}`));
          res.on('data', () => {}).on('end', resolve).on('error', reject);
        })
        .on('error', reject);
    });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

interface KeyRow {
  id: number;
  popularity: number;
  download_count: number;
  created_at: string;
}

/** A write as an admin's would be (popularity rewritten as it is): its triggers bump the data version and, on PostgreSQL, announce it. */
const TOUCH = 'update resources set popularity = popularity where id = (select min(id) from resources)';

/** Where a measure runs: how to start the server on it and how to read the row at a depth (for cursors). */
interface Target {
  label: string;
  env: Record<string, string | undefined>;
  open(): Promise<{
    rowAt(sort: (typeof SORTS)[number], depth: number): Promise<KeyRow>;
    categorySize(): Promise<number>;
    /** The first resource at or after `id` (for resource pages spread over the table). */
    resourceFrom(id: number): Promise<{ id: number; title: string } | undefined>;
    maxId(): Promise<number>;
    /**
     * A write that bumps the data version (migration 002): what the server remembered of the data is no longer
     * current. Without it the write is the server's own (`server.run`).
     */
    bumpDataVersion?(): Promise<void>;
    close(): Promise<void>;
  }>;
}

function sqliteTarget(label: string, dataDir: string, seedDemo: boolean): Target {
  return {
    label,
    env: { DATA_DIR: dataDir, SEED_DEMO: String(seedDemo), DATABASE_URL: undefined },
    async open() {
      const sqlite = new SQLite(path.join(dataDir, 'resource-vault.db'));
      return {
        rowAt: async (sort, depth) =>
          sqlite
            .prepare(`select id, popularity, download_count, created_at from resources where category = 'video_editing' order by ${ORDER[sort]} limit 1 offset ?`)
            .get(depth) as KeyRow,
        categorySize: async () => (sqlite.prepare("select count(*) as n from resources where category = 'video_editing'").get() as { n: number }).n,
        resourceFrom: async (id) => sqlite.prepare('select id, title from resources where id >= ? order by id limit 1').get(id) as { id: number; title: string } | undefined,
        maxId: async () => (sqlite.prepare('select max(id) as m from resources').get() as { m: number }).m,
        close: async () => {
          sqlite.close();
        },
      };
    },
  };
}

function pgTarget(label: string, url: string, seedDemo: boolean, dataDir: string): Target {
  return {
    label,
    env: { DATA_DIR: dataDir, SEED_DEMO: String(seedDemo), DATABASE_URL: url },
    async open() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        rowAt: async (sort, depth) => {
          const r = await client.query(
            `select id, popularity, download_count, created_at from resources where category = 'video_editing' order by ${ORDER[sort]} limit 1 offset $1`,
            [depth],
          );
          return r.rows[0] as KeyRow;
        },
        categorySize: async () => Number((await client.query("select count(*) as n from resources where category = 'video_editing'")).rows[0].n),
        resourceFrom: async (id) => (await client.query('select id, title from resources where id >= $1 order by id limit 1', [id])).rows[0] as { id: number; title: string } | undefined,
        maxId: async () => Number((await client.query('select max(id) as m from resources')).rows[0].m),
        bumpDataVersion: async () => {
          await client.query(TOUCH);
          // The server learns of it by NOTIFY, a moment after the commit (db/data-version.ts): before that it would answer from its cache.
          await delay(100);
        },
        close: () => client.end(),
      };
    },
  };
}

/** Texts of many frequencies in the generated catalogue (from a few rows to a fifth of them). */
const WORDS = ['cinematic', 'grain', 'neon', 'logo', 'commercial', 'transitions', 'sakuga', 'liquid', 'water', 'monospaced', 'interviews', 'film grain'];
const TAGS = ['LUTs', 'Film', 'Vintage', 'Transitions', 'Cinematic', 'Nature'];
const SHORT = ['ne', 'or', 'lu', '4k', 'zq', 'qx', 'e', '#'];
const NO_MATCH = ['xylophonez', 'qqqzz', 'zzyzx', 'nothing-at-all', 'gr4in', 'neonz'];

/** For the warm-up pass: the same kinds of search with other texts, so the measured filters are still counted afresh. */
const WARM = { words: ['pack', 'font', 'looks', 'speed'], short: ['ab', 'x'], none: ['qwxq'] };

/** Search URLs: one per text, sorts in turn, each filter distinct (so every one is counted afresh). */
function searchUrls(words = WORDS, short = SHORT, none = NO_MATCH): [string, string[]][] {
  const sortOf = (i: number) => SORTS[i % SORTS.length];
  const enc = encodeURIComponent;
  return [
    [`search q (${words.length} texts, 3–10 characters)`, words.map((w, i) => `/api/resources?q=${enc(w)}&sort=${sortOf(i)}`)],
    ['search q + tags', words.map((w, i) => `/api/resources?q=${enc(w)}&tags=${enc(TAGS[i % TAGS.length])}&sort=${sortOf(i)}`)],
    ['search q in a category', words.map((w, i) => `/api/resources?category=video-editing&q=${enc(w)}&sort=${sortOf(i)}`)],
    ['search 1–2 character q', short.map((w, i) => `/api/resources?q=${enc(w)}&sort=${sortOf(i)}`)],
    ['search q with no match', none.map((w, i) => `/api/resources?q=${enc(w)}&sort=${sortOf(i)}`)],
  ];
}

/** Fact filters of many shares (issue 33), each with facet counts: a category page's, the site's, with a text or tags. */
const FILTERED = [
  'category=video-editing&app=premiere-pro',
  'app=after-effects&min_height=1080',
  'category=motion-graphics&orientation=portrait&duration_max=15',
  'q=cinematic&app=after-effects',
  'category=sound-effects&duration_min=1&duration_max=30',
  'format=mov',
  'category=color-grading&app=any-editor',
  'tags=LUTs&format=cube',
  'orientation=square&min_height=720',
  'category=typography&format=otf',
  'q=neon&min_height=2160',
  'duration_min=300',
];
/** For the warm-up pass: other filters, so the measured ones are still counted afresh. */
const WARM_FILTERED = ['category=anime-edits&app=after-effects', 'format=wav', 'orientation=landscape&duration_max=60', 'q=grain&app=premiere-pro'];

function filteredUrls(filters: string[]): string[] {
  return filters.map((q, i) => `/api/resources?${q}&facets=true&sort=${SORTS[i % SORTS.length]}`);
}

/** Which scale measures run: all, or only the resource pages and the sitemap (`--scale-pages`). */
export type ScaleScope = 'all' | 'pages';

async function measureTarget(target: Target, scope: ScaleScope): Promise<LatencyRow[]> {
  // Cursors at chosen depths, built from the rows that sit there (a second connection, kept to bump the data version).
  const reader = await target.open();
  const listUrls: Record<string, string[]> = {};
  const pageUrls: string[] = [];
  let total: number;
  try {
    // Resource pages spread over the whole table, each at its canonical address (no redirect).
    const max = await reader.maxId();
    for (let k = 0; k < RESOURCE_PAGES; k++) {
      const r = await reader.resourceFrom(Math.max(1, Math.floor((max * k) / RESOURCE_PAGES)));
      if (r) pageUrls.push(resourcePath({ id: Number(r.id), title: r.title }));
    }
    // Others, each asked after a quiet moment (none of them rendered before).
    const quietUrls: string[] = [];
    for (let k = 0; k < QUIET_PAGES; k++) {
      const r = await reader.resourceFrom(Math.floor((max * (2 * k + 1)) / (2 * QUIET_PAGES)) + 1);
      if (r) quietUrls.push(resourcePath({ id: Number(r.id), title: r.title }));
    }
    total = await reader.categorySize();
    for (const sort of SORTS) {
      const urls: string[] = [`/api/resources?category=video-editing&sort=${sort}`];
      for (let k = 1; k <= 40; k++) {
        const row = await reader.rowAt(sort, Math.floor((total * k) / 41));
        urls.push(`/api/resources?category=video-editing&sort=${sort}&cursor=${encodeURIComponent(encodeCursor(sort, row))}`);
      }
      listUrls[sort] = urls;
    }
    const server = await startServer('app-server.ts', { ...target.env, LOG_LEVEL: 'warn', MEDIA_JOBS_CONCURRENCY: '0' });
    try {
      // SQLite: the write is made by the server, as every write of a site on SQLite is (one process, one connection).
      // Another connection's write would also make SQLite drop its memory map of the file at the server's next
      // read (pager.c), ~5–30 ms at 1M that no visitor of such a site meets (decision 464).
      const bump = reader.bumpDataVersion ?? (() => server.run(TOUCH));
      return await measure(server, target.label, listUrls, total, { pageUrls, quietUrls }, scope, bump);
    } finally {
      await server.stop();
    }
  } finally {
    await reader.close();
  }
}

/**
 * Resource pages rendered per database (distinct resources: every render is uncached); half warm the
 * server, half are measured. 120 measured, so the p95 is not one slow answer out of 30.
 */
const RESOURCE_PAGES = 240;
/**
 * Resource pages asked each after QUIET_MS without a request, when the public answers every render reads
 * (the site's, the categories') have expired: a sparse site's visitor. At 1M these recomputed counts over
 * every resource, 0.5–0.7 s a page, which the pages asked back to back never showed (decision 457).
 */
const QUIET_PAGES = 5;
const QUIET_MS = PUBLIC_CACHE_MAX_AGE_MS + 1000;

async function measure(
  server: Server,
  label: string,
  listUrls: Record<string, string[]>,
  total: number,
  { pageUrls, quietUrls }: { pageUrls: string[]; quietUrls: string[] },
  scope: ScaleScope,
  bumpDataVersion: () => Promise<void>,
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  if (scope === 'all') {
    const searches = searchUrls();
    // One pass to warm the page cache and the JIT (URLs made distinct by &warm=1, and other texts), then the measured pass.
    const warm = searchUrls(WARM.words, WARM.short, WARM.none).flatMap(([, urls]) => urls);
    await timeAll(server.url, [...Object.values(listUrls).flat(), ...warm, ...filteredUrls(WARM_FILTERED)].map((u) => `${u}&warm=1`));
    for (const sort of SORTS) {
      const r = await timeAll(server.url, listUrls[sort]);
      rows.push({ measure: `${label}: list a category, sort=${sort}, 41 depths of ${total.toLocaleString('en')}`, requests: listUrls[sort].length, ...r, goal: 10 });
    }
    for (const [name, urls] of searches) {
      const r = await timeAll(server.url, urls);
      rows.push({ measure: `${label}: ${name}`, requests: urls.length, ...r, goal: 30 });
    }
    // Each filter counted afresh: a scope's scan, a filter's matches and counts are remembered per data version (search/filters.ts).
    const filtered = filteredUrls(FILTERED);
    const f = await timeAll(server.url, filtered, bumpDataVersion);
    rows.push({ measure: `${label}: filtered search with facet counts (${filtered.length} filters)`, requests: filtered.length, ...f, goal: 30 });
  }
  // Resource pages: the first half warms the renderer (JIT), the second half is measured; each resource once.
  const half = Math.floor(pageUrls.length / 2);
  await timeAll(server.url, pageUrls.slice(0, half));
  const pages = await timeAll(server.url, pageUrls.slice(half));
  rows.push({ measure: `${label}: resource page rendered on the server (uncached, head + markup + data)`, requests: pageUrls.length - half, ...pages, goal: 20 });
  const quiet = await timeAll(server.url, quietUrls, () => delay(QUIET_MS));
  rows.push({ measure: `${label}: the same, each after ${QUIET_MS / 1000} s without a request`, requests: quietUrls.length, ...quiet, goal: 20 });
  // The sitemap: the index (or the one list) and each of its pages.
  const root = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const sitemapUrls = ['/sitemap.xml', ...[...root.matchAll(/<sitemap><loc>[^<]*?(\/sitemaps\/[^<]+)<\/loc>/g)].map((m) => m[1])];
  const sitemap = await timeAll(server.url, sitemapUrls);
  rows.push({ measure: `${label}: sitemap.xml and each of its pages (${sitemapUrls.length})`, requests: sitemapUrls.length, ...sitemap, goal: 200 });
  return rows;
}

/**
 * Every scale measure: the demo catalogue (1,134) and `count` generated resources, on SQLite
 * and, with `pgUrl`, on PostgreSQL (demo: a fresh database rv_bench_scale_demo; generated: rv_bench_scale, kept).
 */
export async function scaleLatencyAll(count: number, pgUrl?: string, scope: ScaleScope = 'all'): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const countLabel = count.toLocaleString('en');
  const demoDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-demo-'));
  try {
    // The server seeds an empty database at start; the cursor reader needs the rows first.
    const seeded = await startServer('app-server.ts', { DATA_DIR: demoDir, SEED_DEMO: 'true', DATABASE_URL: undefined, LOG_LEVEL: 'warn', MEDIA_JOBS_CONCURRENCY: '0' });
    await seeded.stop();
    rows.push(...(await measureTarget(sqliteTarget('SQLite 1,134 (demo)', demoDir, true), scope)));
    rows.push(...(await measureTarget(sqliteTarget(`SQLite ${countLabel}`, await scaleDatabase(count), false), scope)));
    if (pgUrl) {
      const demoUrl = await pgDatabase(pgUrl, 'rv_bench_scale_demo', true);
      const seededPg = await startServer('app-server.ts', { DATA_DIR: demoDir, SEED_DEMO: 'true', DATABASE_URL: demoUrl, LOG_LEVEL: 'warn', MEDIA_JOBS_CONCURRENCY: '0' });
      await seededPg.stop();
      rows.push(...(await measureTarget(pgTarget('PostgreSQL 1,134 (demo)', demoUrl, true, demoDir), scope)));
      rows.push(...(await measureTarget(pgTarget(`PostgreSQL ${countLabel}`, await scalePgDatabase(pgUrl, count), false, demoDir), scope)));
    }
  } finally {
    rmSync(demoDir, { recursive: true, force: true });
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
