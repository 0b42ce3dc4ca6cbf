import { PassThrough } from 'node:stream';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Database } from '../../db/connection';
import type { Tables } from '../../db/schema';
import { defineJob, enqueueJob, wakeJobRunners } from '../../jobs/queue';
import { resolveSessionSecret } from '../auth/secret';
import { writeBackup } from './backup';
import { BACKUP_KIND, BACKUP_PREFIX, backupName, listBackups } from './store';

/**
 * The server's own backups (docs/decisions/441-scheduled-backups.md): a `backup` job, queued by
 * BACKUP_SCHEDULE or "Back up now", once across instances, writes the archive (backup.ts) into the
 * file store at `backups/<time>.tar` — a store's put is whole or nothing, so a backup cut short
 * leaves nothing under that name — then keeps the newest BACKUP_KEEP.
 */

export const backupJob = { kind: BACKUP_KIND, payload: z.object({}), maxAttempts: 2 };
/** A backup's longest run (a large catalogue's files take a while to stream). */
export const BACKUP_TIME_LIMIT_MS = 6 * 60 * 60_000;
/** The largest archive the job writes; also sets an S3 upload's part size (this / 10,000 parts: 10 MiB). */
export const BACKUP_MAX_BYTES = 100 * 1024 ** 3;

/** Writes one backup into the store, then removes the oldest beyond `keep`. */
export async function backupIntoStore(ctx: AppContext, options: { signal?: AbortSignal; now?: Date } = {}) {
  const at = options.now ?? new Date();
  const key = `${BACKUP_PREFIX}${backupName(at)}`;
  const sessionSecret = await resolveSessionSecret(ctx.config, ctx.database);
  const body = new PassThrough();
  const put = ctx.files.put(key, body, { maxBytes: BACKUP_MAX_BYTES, contentType: 'application/x-tar', signal: options.signal });
  // The put may fail first (no room): the writer then stops on the stream's error.
  put.catch((err: unknown) => body.destroy(err as Error));
  const [summary, stored] = await Promise.all([writeBackup({ database: ctx.database, files: ctx.files, sessionSecret }, body, { now: at }), put]);
  const pruned: string[] = [];
  for (const old of (await listBackups(ctx.files)).slice(ctx.config.backups.keep)) {
    await ctx.files.delete(old.key);
    pruned.push(old.name);
  }
  return { key, size: stored.size, rows: summary.rows, files: summary.files, missing_files: summary.missingFileCount, pruned };
}

export function backupJobs(ctx: AppContext) {
  return defineJob({
    ...backupJob,
    timeLimitMs: BACKUP_TIME_LIMIT_MS,
    run: (_payload, { signal }) => backupIntoStore(ctx, { signal }),
  });
}

/** Takes the backup queue for the rest of `trx` ("none queued? then queue one" as one step across instances). */
async function lockBackupQueue(trx: Transaction<Tables>, dialect: Database['dialect']): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('rv:backup-queue'))`.execute(trx);
}

async function backupJobWith(trx: Transaction<Tables>, filter: { pending?: true; subject?: string }): Promise<number | undefined> {
  const row = await trx
    .selectFrom('media_jobs')
    .select('id')
    .where('kind', '=', BACKUP_KIND)
    .$if(filter.pending === true, (q) => q.where('state', 'in', ['queued', 'processing']))
    .$if(filter.subject !== undefined, (q) => q.where('subject', '=', filter.subject!))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row && Number(row.id);
}

/**
 * Queues a backup unless one is queued or running (then answers that one); `slot`, a scheduled
 * time: only the first instance to ask for that time queues it (the job's subject names the slot).
 * `then(trx, jobId, queued)` runs in the same transaction (the audit entry of "Back up now").
 */
export async function queueBackup(
  database: Database,
  options: { slot?: string; then?: (trx: Transaction<Tables>, jobId: number, queued: boolean) => Promise<void> } = {},
): Promise<{ jobId: number | null; queued: boolean }> {
  const subject = options.slot ? `scheduled:${options.slot}` : 'manual';
  const result = await database.db.transaction().execute(async (trx) => {
    await lockBackupQueue(trx, database.dialect);
    if (options.slot && (await backupJobWith(trx, { subject })) !== undefined) return { jobId: null, queued: false };
    const pending = await backupJobWith(trx, { pending: true });
    const jobId = pending ?? (await enqueueJob(database, backupJob, {}, { trx, subject })).id;
    await options.then?.(trx, jobId, pending === undefined);
    return { jobId, queued: pending === undefined };
  });
  if (result.queued) wakeJobRunners(database);
  return result;
}
