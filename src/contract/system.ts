import { z } from 'zod';

/** How long an instance's last beat keeps it "running" on the System page. */
export const INSTANCE_SEEN_SECONDS = 60;

export const instanceSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  pid: z.number(),
  version: z.string(),
  started_at: z.string(),
  seen_at: z.string(),
  /** The instance that answered this request. */
  this_one: z.boolean(),
});

/** GET /api/admin/system (super admins): the health of every part. */
export const systemStatusSchema = z.object({
  version: z.string(),
  node: z.string(),
  uptime_seconds: z.number(),
  database: z.object({ kind: z.enum(['sqlite', 'postgres']), size_bytes: z.number().nullable(), migration: z.string().nullable() }),
  storage: z.object({ kind: z.enum(['local', 's3']), free_bytes: z.number().nullable() }),
  /** ffmpeg's first line of `-version`, or null when it is missing (video and audio previews cannot be made). */
  ffmpeg: z.object({ version: z.string().nullable() }),
  jobs: z.object({ queued: z.number(), running: z.number(), failed: z.number(), oldest_waiting_at: z.string().nullable() }),
  links: z.object({ broken: z.number(), last_run_at: z.string().nullable() }),
  /** The backups in the file store (modules/backups): the newest one's time, how many, and whether one is being made. */
  backups: z.object({ last_at: z.string().nullable(), count: z.number(), running: z.boolean() }),
  instances: z.array(instanceSchema),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;
export type SystemInstance = z.infer<typeof instanceSchema>;
