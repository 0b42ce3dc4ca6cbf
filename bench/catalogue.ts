/**
 * The catalogue's export and import (issue 30): the real server in its own process.
 * Export: every resource of the cached 1,000,000-resource SQLite database (bench/scale.ts, built
 * once) as CSV and as JSON, read by a client as fast as it takes it; time and the server's peak RSS
 * over its idle RSS (sampled every 100 ms), beside a bare read of the same table in this process
 * (better-sqlite3 iterating every row into a CSV line without quoting): the floor.
 * Import: 10,000 new rows from a CSV (dry run, then applied), then the same 10,000 exported and
 * imported back with every title changed (updates), on a fresh SQLite database and, with
 * BENCH_DATABASE_URL, on PostgreSQL. Goal: applying 10,000 rows < 10 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { API } from '../src/contract/api-paths';
import type { ImportReport } from '../src/contract/catalogue';
import { csvRecord, parseCsv } from '../src/server/modules/catalogue/csv';
import { freshPgDatabase, startServer, type Server } from './harness';
import { scaleDatabase } from './scale';

const MB = 1024 * 1024;
const IMPORT_ROWS = 10_000;
export const CATALOGUE_GOALS = { importSeconds: 10 };
const ADMIN = { username: 'bench', password: 'bench-password-long-enough' };

export interface ExportMeasure {
  label: string;
  rows: number;
  bytes: number;
  seconds: number;
  /** Peak RSS over the idle RSS before the run, bytes. */
  rssGrowth: number;
}
export interface ImportMeasure {
  label: string;
  seconds: number;
  report: ImportReport['counts'];
}
export interface CatalogueBench {
  count: number;
  idleRss: number;
  exports: ExportMeasure[];
  imports: ImportMeasure[];
}

/** Each figure as soon as it is measured (a long run that fails late keeps what it measured). */
const progress = (m: { label: string; seconds: number }) => process.stderr.write(`  ${m.label}: ${m.seconds.toFixed(1)} s ${JSON.stringify(m)}\n`);

async function signIn(server: Server): Promise<string> {
  const res = await fetch(`${server.url}${API.login}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (res.status !== 200) throw new Error(`bench sign-in failed: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

/** Peak RSS of `server` while `run` runs (sampled every 100 ms), over `idle`. */
async function sampled<T>(server: Server, idle: number, run: () => Promise<T>): Promise<{ value: T; growth: number }> {
  let max = idle;
  let on = true;
  const sampler = (async () => {
    while (on) {
      max = Math.max(max, await server.rssBytes());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { value: await run(), growth: max - idle };
  } finally {
    on = false;
    await sampler;
  }
}

async function exportOnce(server: Server, cookie: string, format: 'csv' | 'json', idle: number, count: number): Promise<ExportMeasure> {
  const started = performance.now();
  const { value: bytes, growth } = await sampled(server, idle, async () => {
    const res = await fetch(`${server.url}${API.adminResourcesExport}?format=${format}`, { headers: { cookie, 'accept-encoding': 'identity' } });
    if (res.status !== 200 || !res.body) throw new Error(`export ${format}: ${res.status}`);
    const reader = res.body.getReader();
    let n = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.byteLength;
    return n;
  });
  return { label: `export ${format.toUpperCase()} (ours, over HTTP)`, rows: count, bytes, seconds: (performance.now() - started) / 1000, rssGrowth: growth };
}

/** The floor: every row of the table read bare and written as an unquoted CSV line, in this process. */
function bareRead(file: string): ExportMeasure {
  const idle = process.memoryUsage.rss();
  let max = idle;
  const db = new Sqlite(file, { readonly: true });
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  for (const row of db.prepare('select * from resources order by id').iterate() as Iterable<Record<string, unknown>>) {
    bytes += Buffer.byteLength(`${Object.values(row).join(',')}\r\n`);
    if (++rows % 50_000 === 0) max = Math.max(max, process.memoryUsage.rss());
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { label: 'bare read of the table (floor, in process)', rows, bytes, seconds, rssGrowth: max - idle };
}

async function importCsv(server: Server, cookie: string, csv: string, dryRun: boolean): Promise<{ seconds: number; report: ImportReport }> {
  const started = performance.now();
  const res = await fetch(`${server.url}${API.adminResourcesImport}${dryRun ? '?dry_run=true' : ''}`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'text/csv' },
    body: csv,
  });
  if (res.status !== 200) throw new Error(`import: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const report = (await res.json()) as ImportReport;
  return { seconds: (performance.now() - started) / 1000, report };
}

function newRowsCsv(): string {
  const header = ['id', 'title', 'description', 'category', 'status', 'is_premium', 'tags', 'licence_kind', 'licence_text', 'thumbnail_url', 'download_url'];
  let out = csvRecord(header);
  for (let i = 1; i <= IMPORT_ROWS; i++) {
    out += csvRecord([
      '',
      `Imported pack ${i}`,
      `Pack ${i}, imported by the benchmark: presets, "looks" and\nnotes.`,
      ['video_editing', 'photo_editing', 'sound_effects', 'typography'][i % 4],
      i % 10 === 0 ? 'draft' : 'published',
      String(i % 7 === 0),
      `Bench, Tag ${i % 50}, Batch ${i % 3}`,
      i % 5 === 0 ? 'attribution' : 'free-commercial',
      i % 5 === 0 ? `By creator ${i}` : '',
      `/thumbnails/${i}.svg`,
      `https://downloads.example.com/pack-${i}.zip`,
    ]);
  }
  return out;
}

async function importRuns(label: string, env: Record<string, string | undefined>): Promise<ImportMeasure[]> {
  const server = await startServer('app-server.ts', { ...env, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, MEDIA_JOBS_CONCURRENCY: '0' });
  try {
    const cookie = await signIn(server);
    const out: ImportMeasure[] = [];
    const csv = newRowsCsv();
    for (const dryRun of [true, false]) {
      const r = await importCsv(server, cookie, csv, dryRun);
      out.push({ label: `${label}: ${IMPORT_ROWS.toLocaleString('en')} new rows, ${dryRun ? 'dry run' : 'applied'}`, seconds: r.seconds, report: r.report.counts });
      progress(out.at(-1)!);
    }
    // The same rows exported, every title changed: 10,000 updates.
    const exported = await (await fetch(`${server.url}${API.adminResourcesExport}?format=csv`, { headers: { cookie } })).text();
    const [header, ...records] = parseCsv(exported);
    const title = header.indexOf('title');
    const changed = csvRecord(header) + records.map((r) => csvRecord(r.map((v, i) => (i === title ? `${v} (v2)` : v)))).join('');
    const skip = await importCsv(server, cookie, exported, true);
    out.push({ label: `${label}: the export imported back, dry run (all unchanged)`, seconds: skip.seconds, report: skip.report.counts });
    progress(out.at(-1)!);
    for (const dryRun of [true, false]) {
      const r = await importCsv(server, cookie, changed, dryRun);
      out.push({ label: `${label}: the export with every title changed, ${dryRun ? 'dry run' : 'applied'}`, seconds: r.seconds, report: r.report.counts });
      progress(out.at(-1)!);
    }
    return out;
  } finally {
    await server.stop();
  }
}

export async function catalogueBench(pgUrl?: string): Promise<CatalogueBench> {
  const count = Number(process.env.BENCH_SCALE_COUNT ?? 1_000_000);
  const dir = await scaleDatabase(count);
  const exports: ExportMeasure[] = [];
  let idleRss: number;
  const server = await startServer('app-server.ts', {
    DATA_DIR: dir,
    DATABASE_URL: undefined,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    MEDIA_JOBS_CONCURRENCY: '0',
  });
  try {
    const cookie = await signIn(server);
    idleRss = await server.rssBytes();
    for (const format of ['csv', 'json'] as const) {
      exports.push(await exportOnce(server, cookie, format, await server.rssBytes(), count));
      progress(exports.at(-1)!);
    }
  } finally {
    await server.stop();
  }
  exports.push(bareRead(path.join(dir, 'resource-vault.db')));
  progress(exports.at(-1)!);

  const work = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-catalogue-'));
  try {
    const imports = await importRuns('SQLite', { DATA_DIR: path.join(work, 'sqlite'), DATABASE_URL: undefined });
    if (pgUrl) imports.push(...(await importRuns('PostgreSQL', { DATA_DIR: path.join(work, 'pg'), DATABASE_URL: await freshPgDatabase(pgUrl, 'rv_bench_catalogue') })));
    return { count, idleRss, exports, imports };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function formatCatalogueBench(r: CatalogueBench): string {
  const floor = r.exports.find((e) => e.label.startsWith('bare'))!;
  const goal = CATALOGUE_GOALS.importSeconds;
  return [
    `Catalogue export: ${r.count.toLocaleString('en')} resources (SQLite); server idle RSS ${(r.idleRss / MB).toFixed(0)} MiB; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    '',
    '| measure | seconds | MiB | rows/s | peak RSS growth | time / floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...r.exports.map(
      (e) =>
        `| ${e.label} | ${e.seconds.toFixed(1)} | ${(e.bytes / MB).toFixed(0)} | ${Math.round(e.rows / e.seconds).toLocaleString('en')} | ${(e.rssGrowth / MB).toFixed(0)} MiB | ${(e.seconds / floor.seconds).toFixed(1)}× |`,
    ),
    '',
    `Catalogue import (goal: ${IMPORT_ROWS.toLocaleString('en')} rows applied < ${goal} s)`,
    '',
    '| measure | seconds | create / update / skip / error | goal |',
    '| --- | ---: | --- | --- |',
    ...r.imports.map(
      (i) =>
        `| ${i.label} | ${i.seconds.toFixed(1)} | ${i.report.create} / ${i.report.update} / ${i.report.skip} / ${i.report.error} | ${i.label.endsWith('applied') ? (i.seconds < goal ? 'ok' : 'MISSED') : ''} |`,
    ),
  ].join('\n');
}
