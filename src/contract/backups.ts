import { z } from 'zod';

/** A backup in the file store (backups/<time>.tar), as the System page lists it. */
export const backupSchema = z.object({
  /** Its file name, e.g. `2026-11-27T03-00-00Z.tar`. */
  name: z.string(),
  size: z.number(),
  created_at: z.string(),
  /** A signed link (a few minutes) that downloads the archive. */
  download_url: z.string(),
});

/** GET /api/admin/backups (super admins): the backups, newest first, and the backup job's state. */
export const backupListSchema = z.object({
  items: z.array(backupSchema),
  /** A backup is queued or being written. */
  running: z.boolean(),
  /** The last backup job that ended in failure after the newest backup, with its reason, or null. */
  failed: z.object({ at: z.string(), error: z.string() }).nullable(),
});

/** POST /api/admin/backups: the job writing the backup (the one already queued or running, if any). */
export const backupQueuedSchema = z.object({ job_id: z.number() });

export type Backup = z.infer<typeof backupSchema>;
export type BackupList = z.infer<typeof backupListSchema>;
