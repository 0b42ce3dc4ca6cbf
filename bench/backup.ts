/**
 * Backup and restore (issue 32): `npm run backup` and `npm run restore` of the generated catalogue
 * (bench/scale.ts: BENCH_BACKUP_COUNT resources, 1,000,000 by default) beside the databases' own
 * tools on the same data in the same run: `sqlite3 .backup` (a page copy, no portability) and
 * `pg_dump -Fc` / `pg_restore` (with BENCH_DATABASE_URL: the SQLite backup is first restored into a new
 * PostgreSQL database, which is the PostgreSQL side's data). Each command runs in its own process under
 * /usr/bin/time: wall time and that process's peak RSS. Restores go into new, empty databases.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freshPgDatabase, vacuumAnalyze } from './harness';
import { scaleDatabase } from './scale';

export interface BackupMeasure {
  label: string;
  seconds: number;
  /** Peak RSS of the process, bytes. */
  peakRss: number;
  /** The archive's or dump's size, bytes (restores: 0). */
  bytes: number;
}

export interface BackupBench {
  count: number;
  measures: BackupMeasure[];
}

const TSX_IMPORT = ['--import', 'tsx'];
/** A fixed secret: the CLI then writes no session-secret file into the cached scale folder. */
const SECRET = 'bench-backup-secret-0123456789abcdefghij';

/** Runs `command` under /usr/bin/time: its wall time and peak RSS. */
function timed(label: string, command: string, args: readonly string[], env: Record<string, string | undefined>, output?: string): BackupMeasure {
  const r = spawnSync('/usr/bin/time', ['-f', '__time %e %M', command, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const m = /__time ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${label} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const measure = { label, seconds: Number(m[1]), peakRss: Number(m[2]) * 1024, bytes: output ? statSync(output).size : 0 };
  process.stderr.write(`  ${label}: ${measure.seconds.toFixed(1)} s, peak RSS ${(measure.peakRss / MB).toFixed(0)} MiB\n`);
  return measure;
}

const node = (script: string, args: string[]) => ['node', [...TSX_IMPORT, script, ...args]] as const;
const MB = 1024 * 1024;

async function dropPg(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

export async function backupBench(pgUrl?: string, count = Number(process.env.BENCH_BACKUP_COUNT ?? 1_000_000)): Promise<BackupBench> {
  const work = mkdtempSync(path.join(process.env.BENCH_BACKUP_DIR ?? os.tmpdir(), 'rv-bench-backup-'));
  const measures: BackupMeasure[] = [];
  const local = { DATABASE_URL: undefined, STORAGE: undefined, SESSION_SECRET: SECRET };
  try {
    const scaleDir = await scaleDatabase(count);
    const archive = path.join(work, 'sqlite.tar');
    measures.push(timed('SQLite: npm run backup (ours)', ...node('scripts/backup.ts', ['--out', archive]), { ...local, DATA_DIR: scaleDir }, archive));
    const copy = path.join(work, 'copy.db');
    measures.push(timed('SQLite: sqlite3 .backup (page copy)', 'sqlite3', [path.join(scaleDir, 'resource-vault.db'), `.backup '${copy}'`], {}, copy));
    rmSync(copy, { force: true });
    const target = path.join(work, 'restored');
    measures.push(timed('SQLite: npm run restore (ours, into a new SQLite)', ...node('scripts/restore.ts', [archive]), { ...local, DATA_DIR: target }));
    rmSync(target, { recursive: true, force: true });

    if (pgUrl) {
      // The same data on PostgreSQL: the SQLite backup restored into a new database (the README's move).
      const source = await freshPgDatabase(pgUrl, 'rv_bench_backup_src');
      measures.push(timed('SQLite → PostgreSQL: npm run restore of the SQLite backup', ...node('scripts/restore.ts', [archive]), { ...local, DATABASE_URL: source, DATA_DIR: path.join(work, 'moved') }));
      await vacuumAnalyze(source);
      const pgArchive = path.join(work, 'postgres.tar');
      measures.push(timed('PostgreSQL: npm run backup (ours)', ...node('scripts/backup.ts', ['--out', pgArchive]), { ...local, DATABASE_URL: source }, pgArchive));
      const dump = path.join(work, 'postgres.dump');
      measures.push(timed('PostgreSQL: pg_dump -Fc', 'pg_dump', ['-Fc', '-f', dump, source], {}, dump));
      const ours = await freshPgDatabase(pgUrl, 'rv_bench_restore');
      measures.push(timed('PostgreSQL: npm run restore (ours, into a new database)', ...node('scripts/restore.ts', [pgArchive]), { ...local, DATABASE_URL: ours, DATA_DIR: path.join(work, 'pg-data') }));
      const theirs = await freshPgDatabase(pgUrl, 'rv_bench_pg_restore');
      measures.push(timed('PostgreSQL: pg_restore', 'pg_restore', ['--no-owner', '-d', theirs, dump], {}));
      for (const name of ['rv_bench_backup_src', 'rv_bench_restore', 'rv_bench_pg_restore']) await dropPg(pgUrl, name);
    }
    return { count, measures };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function formatBackupBench(r: BackupBench): string {
  const head = `Backup and restore: ${r.count.toLocaleString('en')} generated resources, the same data on both databases; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`;
  const rows = r.measures.map((m) => `| ${m.label} | ${m.seconds.toFixed(1)} s | ${(m.peakRss / MB).toFixed(0)} MiB | ${m.bytes ? `${(m.bytes / MB).toFixed(0)} MiB` : '—'} |`);
  return [head, '', '| | time | peak RSS | size |', '|---|---|---|---|', ...rows].join('\n');
}
