import type { Database } from '../../db/connection';
import type { FileStore } from '../../storage/file-store';

/** The backups in the file store (`backups/<time>.tar`) and the state of the job that writes them (job.ts). */

export const BACKUP_KIND = 'backup';

export const BACKUP_PREFIX = 'backups/';
const NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar$/;

/** `2026-11-27T03-00-00Z.tar`: a backup's file name, from its time (to the second). */
export function backupName(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.tar`;
}

/** The time a backup's name says, or undefined when the name is not a backup's. */
export function backupTime(name: string): Date | undefined {
  const m = NAME.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : undefined;
}

export interface StoredBackup {
  name: string;
  key: string;
  size: number;
  createdAt: Date;
}

/** The backups in the store, newest first. */
export async function listBackups(files: FileStore): Promise<StoredBackup[]> {
  const found: StoredBackup[] = [];
  for await (const stat of files.list(BACKUP_PREFIX)) {
    const name = stat.key.slice(BACKUP_PREFIX.length);
    const createdAt = backupTime(name);
    if (createdAt) found.push({ name, key: stat.key, size: stat.size, createdAt });
  }
  return found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** Whether a backup is queued or running, and the last failed one's reason (when no backup came after it). */
export async function backupJobState(database: Database, newest: Date | undefined): Promise<{ running: boolean; failed: { at: string; error: string } | null }> {
  const { db } = database;
  const [pending, failed] = await Promise.all([
    db.selectFrom('media_jobs').select('id').where('kind', '=', BACKUP_KIND).where('state', 'in', ['queued', 'processing']).limit(1).executeTakeFirst(),
    db.selectFrom('media_jobs').select(['finished_at', 'error']).where('kind', '=', BACKUP_KIND).where('state', '=', 'failed').orderBy('id', 'desc').limit(1).executeTakeFirst(),
  ]);
  const failedAt = failed?.finished_at ?? null;
  const recent = failedAt !== null && (!newest || Date.parse(failedAt) > newest.getTime());
  return { running: pending !== undefined, failed: recent ? { at: failedAt, error: failed?.error ?? 'The backup failed' } : null };
}
