import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { SystemStatus } from '../../../contract/system';
import type { AppContext } from '../../context';
import { backupJobState, listBackups } from '../backups/store';
import { countBrokenLinks } from '../links/store';
import { runningInstances, type ThisInstance } from './instances';

/** The project's package.json: the nearest above this module, whether it runs from src/ or from the bundle in dist/server/. */
function packageJsonFile(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error('package.json not found above the server');
  }
}

/** The version in package.json: what the System page and the instances list show. */
export const APP_VERSION: string = (JSON.parse(readFileSync(packageJsonFile(), 'utf8')) as { version: string }).version;

/** ffmpeg's `-version` first line, asked once per process (5 s at most); null when it cannot run. */
let ffmpegVersion: Promise<string | null> | undefined;
function askFfmpeg(path: string): Promise<string | null> {
  ffmpegVersion ??= new Promise((resolve) => {
    execFile(path, ['-hide_banner', '-version'], { timeout: 5_000, maxBuffer: 256 * 1024 }, (err, stdout) => {
      // "ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 …": the version, not the notice.
      resolve(err ? null : (String(stdout).split('\n')[0] ?? '').replace(/\s+Copyright.*$/, '').trim() || null);
    });
  });
  return ffmpegVersion;
}

async function databaseSize(ctx: AppContext): Promise<number | null> {
  const { db, dialect } = ctx.database;
  const q =
    dialect === 'sqlite'
      ? sql<{ size: number }>`select page_count * page_size as size from pragma_page_count(), pragma_page_size()`
      : sql<{ size: number }>`select pg_database_size(current_database()) as size`;
  const { rows } = await q.execute(db);
  return rows[0] ? Number(rows[0].size) : null;
}

/** Everything the System page shows, each part read now. */
export async function systemStatus(ctx: AppContext, me: ThisInstance): Promise<SystemStatus> {
  const { db, dialect } = ctx.database;
  const [size, migration, free, ffmpeg, jobs, oldest, broken, lastRun, instances, backups] = await Promise.all([
    databaseSize(ctx),
    sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db).then((r) => r.rows[0]?.name ?? null),
    ctx.files.freeBytes(),
    askFfmpeg(ctx.config.ffmpegPath),
    db.selectFrom('media_jobs').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute(),
    db.selectFrom('media_jobs').select((eb) => eb.fn.min('created_at').as('at')).where('state', '=', 'queued').executeTakeFirst(),
    countBrokenLinks(db),
    db.selectFrom('link_check_runs').select((eb) => eb.fn.max('created_at').as('at')).executeTakeFirst(),
    runningInstances(db),
    listBackups(ctx.files),
  ]);
  const backupJob = await backupJobState(ctx.database, backups[0]?.createdAt);
  const count = (state: string) => Number(jobs.find((j) => j.state === state)?.n ?? 0);
  return {
    version: APP_VERSION,
    node: process.version,
    uptime_seconds: Math.round(process.uptime()),
    database: { kind: dialect, size_bytes: size, migration },
    storage: { kind: ctx.config.storage.kind, free_bytes: free ?? null },
    ffmpeg: { version: ffmpeg },
    jobs: { queued: count('queued'), running: count('processing'), failed: count('failed'), oldest_waiting_at: oldest?.at ?? null },
    links: { broken, last_run_at: lastRun?.at ?? null },
    backups: { last_at: backups[0]?.createdAt.toISOString() ?? null, count: backups.length, running: backupJob.running },
    instances: instances.map((i) => ({ ...i, pid: Number(i.pid), this_one: i.id === me.id })),
  };
}
