/**
 * `npm run bench`: page budgets on a fresh client build, then the real server against a bare
 * Fastify ceiling, one measure at a time, each server in its own process: on SQLite (temp
 * DATA_DIR, demo data) and, when BENCH_DATABASE_URL (or DATABASE_URL) is set, on PostgreSQL in a
 * fresh database `rv_bench` on that server (dropped and re-created each run).
 * BENCH_DURATION (seconds, default 5) and BENCH_CONNECTIONS (default 10) tune the load;
 * BENCH_ONLY=text runs only the API measures whose name contains it (e.g. `unique counting`);
 * --scale adds one-at-a-time latencies on the demo data and on 1,000,000 generated resources
 * (BENCH_SCALE_COUNT changes the size; generated once into a cached temp file for SQLite and into
 * the database rv_bench_scale for PostgreSQL, both migrated before use).
 * --scale-pages runs only the scale measures of resource pages and the sitemap (nothing else).
 * --no-pages skips the client build and browser checks; --no-lighthouse skips only Lighthouse.
 * Hosted files (bench/files.ts): upload and download of BENCH_FILE_BYTES (1 GiB) beside the disk's
 * copy speed, with the server's RSS; --no-files skips it.
 * Bulk upload (bench/bulk-upload.ts): 100 files of 5 MiB as tus uploads made drafts, beside tus
 * alone; --no-bulk-upload skips it.
 * Demo seed (bench/seed.ts): a fresh install's seed beside the same rows inserted bare; --no-seed skips it.
 * Preview processing (bench/media.ts): a 60 s 1080p clip and a 60 s WAV through the server's
 * derivations beside the bare ffmpeg commands for the same outputs, and the category list's latency
 * with and without a preview being made; --no-media skips both.
 * Catalogue (bench/catalogue.ts): export of 1,000,000 resources (time, peak RSS) beside a bare read
 * of the table, and import of 10,000 rows; --no-catalogue skips it, --only-catalogue runs only it.
 * Backup and restore (bench/backup.ts): npm run backup / restore of BENCH_BACKUP_COUNT (1,000,000)
 * generated resources beside sqlite3 .backup and pg_dump / pg_restore, with peak RSS; --no-backup
 * skips it, --only-backup runs only it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildClient, formatBudgets, pageBudgets } from './budgets';
import { bulkUploadBench, formatBulkUploadBench } from './bulk-upload';
import { filesBench, formatFilesBench } from './files';
import { compare, formatTable, freshPgDatabase, startServer, type BenchOptions, type Row, type Server } from './harness';
import { API_MEASURES, type Measure } from './measures';
import { formatLatencyBench, formatMediaBench, latencyBench, mediaBench } from './media';
import { catalogueBench, formatCatalogueBench } from './catalogue';
import { backupBench, formatBackupBench } from './backup';
import { formatLatency, scaleLatencyAll } from './scale';
import { formatSeedBench, seedBench } from './seed';

const options: BenchOptions = {
  duration: Number(process.env.BENCH_DURATION ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  warmup: 1,
};
const args = new Set(process.argv.slice(2));
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;

if (args.has('--scale-pages')) {
  // Only the resource page and sitemap measures at scale (issue 16), on the client already built in CLIENT_DIR / dist/client.
  const count = Number(process.env.BENCH_SCALE_COUNT ?? 1_000_000);
  const latency = await scaleLatencyAll(count, pgUrl, 'pages');
  console.log(`Resource pages and sitemap at scale: one request at a time, every URL distinct; load average ${os.loadavg()[0].toFixed(1)}\n\n${formatLatency(latency)}\n`);
  process.exit(0);
}

if (args.has('--only-catalogue')) {
  console.log(`${formatCatalogueBench(await catalogueBench(pgUrl))}\n`);
  process.exit(0);
}

if (args.has('--only-backup')) {
  console.log(`${formatBackupBench(await backupBench(pgUrl))}\n`);
  process.exit(0);
}

if (!args.has('--no-pages')) {
  const outDir = buildClient();
  try {
    const rows = await pageBudgets(outDir, { lighthouse: !args.has('--no-lighthouse') });
    console.log(`\nPage budgets: fresh client build, real server (SQLite, demo data), Chromium; load average ${os.loadavg()[0].toFixed(1)}\n\n${formatBudgets(rows)}\n`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-'));
const servers: Server[] = [];
try {
  const bare = await startServer('bare-server.ts');
  servers.push(bare);
  console.log(
    `\nAPI benchmark: demo data, ${options.connections} connections, ${options.duration} s per run ` +
      `(after ${options.warmup} s warm-up); ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at start\n` +
      'ceiling = bare Fastify answering a constant body of the same size; ratio = ours / ceiling;\n' +
      'CPU µs/req = server process CPU per request (robust when other work shares the cores); CPU ratio = ceiling CPU / ours\n',
  );
  const targets: { label: string; env: Record<string, string | undefined> }[] = [
    { label: 'SQLite', env: { DATA_DIR: dataDir, DATABASE_URL: undefined } },
  ];
  if (pgUrl) targets.push({ label: 'PostgreSQL', env: { DATA_DIR: dataDir, DATABASE_URL: await freshPgDatabase(pgUrl, 'rv_bench') } });
  const rows: Row[] = [];
  // Measures that need other settings (serverEnv) get a server of their own, one per distinct set.
  const groups = new Map<string, Measure[]>();
  for (const m of API_MEASURES.filter((m) => !process.env.BENCH_ONLY || m.name.includes(process.env.BENCH_ONLY))) {
    const key = JSON.stringify(m.serverEnv ?? {});
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  for (const t of targets) {
    for (const [serverEnv, measures] of groups) {
      // TRUST_PROXY: distinct-visitor measures name each client by X-Forwarded-For.
      const app = await startServer('app-server.ts', {
        ...t.env,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'true',
        TRUST_PROXY: 'true',
        // The seed queues the demo previews; making them in this process would be measured with the API.
        MEDIA_JOBS_CONCURRENCY: '0',
        ...JSON.parse(serverEnv),
      });
      try {
        for (const r of await compare(app, bare, measures, options)) {
          // The downloads goal is set for SQLite; on PostgreSQL every increment of one row waits for the previous commit.
          const goal = t.label === 'SQLite' || !r.measure.startsWith('record') ? r.goal : undefined;
          rows.push({ ...r, goal, measure: `${t.label}: ${r.measure}` });
        }
      } finally {
        await app.stop();
      }
    }
  }
  console.log(`${formatTable(rows)}\n`);

  if (!args.has('--no-files')) console.log(`${formatFilesBench(await filesBench())}\n`);
  if (!args.has('--no-bulk-upload')) console.log(`${formatBulkUploadBench(await bulkUploadBench())}\n`);
  if (!args.has('--no-seed')) console.log(`${formatSeedBench(await seedBench())}\n`);
  if (!args.has('--no-catalogue')) console.log(`${formatCatalogueBench(await catalogueBench(pgUrl))}\n`);
  if (!args.has('--no-backup')) console.log(`${formatBackupBench(await backupBench(pgUrl))}\n`);
  if (!args.has('--no-media')) {
    console.log(`${formatMediaBench(await mediaBench())}\n`);
    console.log(`${formatLatencyBench(await latencyBench())}\n`);
  }

  if (args.has('--scale')) {
    const count = Number(process.env.BENCH_SCALE_COUNT ?? 1_000_000);
    const latency = await scaleLatencyAll(count, pgUrl);
    console.log(`Latency at scale: one request at a time, every URL distinct (no cache hit)\n\n${formatLatency(latency)}\n`);
  }
} finally {
  for (const s of servers) await s.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
