import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { SESSION_MAX_DAYS_DEFAULT } from '../contract/constants';
import { UPLOAD_MAX_BYTES_DEFAULT } from '../contract/files';
import { DEFAULT_TRASH_DAYS } from '../contract/trash';
import { DEFAULT_AUDIT_DAYS } from '../contract/audit';
import { MEDIA_NICE } from './media/ffmpeg';

/** PUBLISH_CHECK_INTERVAL's default: a scheduled resource is public at most this long after its time. */
export const PUBLISH_CHECK_INTERVAL_MS_DEFAULT = 10_000;

/** How often each instance purges the trash of what is past TRASH_DAYS (a purge is due to the hour, not the second). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** How often each instance sweeps the audit log of entries older than AUDIT_DAYS (decision 422). */
export const AUDIT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** LINK_CHECK_SCHEDULE's default: every day at 03:00 (server time). */
export const LINK_CHECK_SCHEDULE_DEFAULT = '0 3 * * *';

/** How external links are checked (modules/links, docs/decisions/430-link-checks.md). */
export interface LinkCheckSettings {
  /** A cron expression (croner), or null: no scheduled checks (LINK_CHECK_SCHEDULE=off). */
  schedule: string | null;
  /** LINK_CHECK_ALLOW_PRIVATE: reach loopback, private and link-local addresses too (tests, intranets). */
  allowPrivate: boolean;
  /** Tests only: these addresses are reached although private (their own server on 127.0.0.1). */
  allowAddresses?: readonly string[];
  /** One link's deadline (10 s). */
  timeoutMs: number;
  /** The least time between two requests to one host (1 s). */
  hostIntervalMs: number;
}

/** BACKUP_KEEP's default: the scheduled backups kept in the store (the oldest beyond go). */
export const BACKUP_KEEP_DEFAULT = 7;

/** Backups the server makes itself (modules/backups, docs/decisions/441-scheduled-backups.md). */
export interface BackupSettings {
  /** A cron expression (croner), or null: no scheduled backups (BACKUP_SCHEDULE unset or off). */
  schedule: string | null;
  /** How many backups the store keeps (BACKUP_KEEP). */
  keep: number;
}

/** LINK_CHECK_SCHEDULE: `off`, or a cron expression croner understands (5 or 6 fields). */
const cronSchedule = z
  .string()
  .trim()
  .transform((raw, ctx): string | null => {
    if (raw.toLowerCase() === 'off') return null;
    try {
      new Cron(raw, { paused: true }).stop();
      return raw;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be a cron expression such as "0 3 * * *" (every day at 03:00), or off (${(err as Error).message})` });
      return z.NEVER;
    }
  });

/** How long a client may take, in ms (read from the environment below; request-limits.ts enforces them). */
export interface Timeouts {
  /** From the connection's first byte (or the previous response) to the end of the headers. */
  headersMs: number;
  /** A whole request on ordinary routes; also the longest a request body may stall on any route. */
  requestMs: number;
  /** A whole request on routes that take large bodies (an upload chunk). */
  uploadRequestMs: number;
  /** An idle keep-alive connection between requests. */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  // A 50 MB chunk at 1 Mbit/s takes about 400 s.
  uploadRequestMs: 600_000,
  keepAliveMs: 72_000,
};

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Names proxy-addr (Fastify's trustProxy) understands beside addresses and CIDR ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  const [ip, bits, extra] = entry.split('/');
  const family = isIP(ip);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false` (default), `true` (trust every hop: any client can forge X-Forwarded-For,
 * so only for a proxy that overwrites it), a hop count (`1` = the one proxy in front), or a
 * comma-separated list of proxy addresses / CIDR ranges (and loopback, linklocal, uniquelocal).
 */
const trustProxy = z.string().transform((raw, ctx): boolean | number | string[] => {
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no' || v === '0' || v === '') return false;
  if (/^\d+$/.test(v) && Number(v) <= 100) return Number(v);
  const list = v.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = list.find((e) => !PROXY_NAMES.has(e) && !isAddressOrCidr(e));
  if (list.length === 0 || bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be true, false, a hop count or a list of proxy addresses/CIDR ranges (bad: "${(bad ?? raw).slice(0, 60)}")` });
    return z.NEVER;
  }
  return list;
});

/** A duration in seconds (decimals allowed), read into milliseconds. */
const seconds = (defaultMs: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: 'must be a number of seconds' })
    .transform((v) => Math.round(Number(v) * 1000))
    .refine((ms) => ms >= 100 && ms <= 86_400_000, { error: 'must be between 0.1 and 86400 seconds' })
    .default(defaultMs);

/** The shortest session secret accepted, from SESSION_SECRET or a secret file. */
export const SESSION_SECRET_MIN = 32;
/** The longest SESSION_MAX_DAYS accepted: ten years, beyond which "absolute" means nothing. */
const SESSION_MAX_DAYS_LIMIT = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The fewest distinct bytes a session secret's key material may hold (docs/decisions/310-session-secret-entropy.md). */
export const SESSION_SECRET_DISTINCT_MIN = 16;

/**
 * Why a session secret of the accepted length still carries too little entropy to key anything
 * (64 NUL bytes, `xxxx…`), or undefined. A secret written in hex is judged by the bytes it
 * encodes: hex has only 16 symbols, so random hex of the shortest length rarely shows all of
 * them, while the bytes it encodes are nearly all distinct; a short one needs half of its
 * bytes distinct. See docs/decisions/310-session-secret-entropy.md.
 */
export function weakSecretReason(value: string): string | undefined {
  const bytes = /^(?:[0-9a-f]{2})+$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'utf8');
  const distinct = new Set(bytes).size;
  if (distinct >= Math.min(SESSION_SECRET_DISTINCT_MIN, Math.ceil(bytes.length / 2))) return undefined;
  const what = distinct === 1 ? 'one byte repeated' : `only ${distinct} distinct bytes`;
  return `is not random (${what}); use a random value such as the output of \`openssl rand -hex 32\``;
}

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must start with postgres:// or postgresql://' })
    .optional(),
  SITE_NAME: z.string().trim().min(1).max(80).default('Resource Vault'),
  SEED_DEMO: boolish.default(true),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SESSION_SECRET: z
    .string()
    .min(SESSION_SECRET_MIN, { error: `must be at least ${SESSION_SECRET_MIN} characters` })
    .superRefine((v, ctx) => {
      const reason = weakSecretReason(v);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    })
    .optional(),
  /** Days a session lasts from sign-in, however active (docs/decisions/311-session-absolute-lifetime.md). */
  SESSION_MAX_DAYS: z
    .string()
    .regex(/^\d{1,4}$/, { error: `must be a whole number of days from 1 to ${SESSION_MAX_DAYS_LIMIT}` })
    .transform(Number)
    .refine((days) => days >= 1 && days <= SESSION_MAX_DAYS_LIMIT, { error: `must be a whole number of days from 1 to ${SESSION_MAX_DAYS_LIMIT}` })
    .default(SESSION_MAX_DAYS_DEFAULT),
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serves /metrics to `Authorization: Bearer <token>`; unset, there is no /metrics (docs/operations.md). */
  METRICS_TOKEN: z
    .string()
    .min(16, { error: 'must be at least 16 characters (a random token: openssl rand -hex 24)' })
    .max(256, { error: 'must be at most 256 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' })
    .optional(),
  /** json: one JSON object per line (for log collectors); pretty: readable lines. Default: pretty on a terminal. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  PUBLIC_URL: z.string().url({ error: 'must be a URL' }).optional(),
  /** Where the built client is (default dist/client). */
  CLIENT_DIR: z.string().min(1).default('dist/client'),
  HEADERS_TIMEOUT: seconds(DEFAULT_TIMEOUTS.headersMs),
  REQUEST_TIMEOUT: seconds(DEFAULT_TIMEOUTS.requestMs),
  UPLOAD_REQUEST_TIMEOUT: seconds(DEFAULT_TIMEOUTS.uploadRequestMs),
  KEEP_ALIVE_TIMEOUT: seconds(DEFAULT_TIMEOUTS.keepAliveMs),
  /** unique: once per visitor per resource per UTC day; every: each recorded download (docs/decisions/260). */
  DOWNLOAD_COUNTING: z.enum(['unique', 'every'], { error: 'must be unique or every' }).default('unique'),
  /** Downloads one client may record per minute; 0 turns the limit off. */
  DOWNLOAD_RATE_LIMIT: z
    .string()
    .regex(/^\d{1,7}$/, { error: 'must be a whole number of downloads per minute (0 = no limit)' })
    .transform(Number)
    .default(30),
  /** How often each instance publishes the scheduled resources that are due (seconds, 0.1–30: within 30 s of their time). */
  PUBLISH_CHECK_INTERVAL: z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: 'must be a number of seconds from 0.1 to 30' })
    .transform((v) => Math.round(Number(v) * 1000))
    .refine((ms) => ms >= 100 && ms <= 30_000, { error: 'must be a number of seconds from 0.1 to 30' })
    .default(PUBLISH_CHECK_INTERVAL_MS_DEFAULT),
  /** Days a deleted resource stays in the trash before the purge removes it for good (decision 399). */
  TRASH_DAYS: z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a whole number of days from 1 to 3650' })
    .transform(Number)
    .refine((d) => d >= 1 && d <= 3650, { error: 'must be a whole number of days from 1 to 3650' })
    .default(DEFAULT_TRASH_DAYS),
  /** Days an audit log entry is kept before the sweep removes it (decision 422). */
  AUDIT_DAYS: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'must be a whole number of days from 1 to 36500' })
    .transform(Number)
    .refine((d) => d >= 1 && d <= 36500, { error: 'must be a whole number of days from 1 to 36500' })
    .default(DEFAULT_AUDIT_DAYS),
  /** When external links are checked: a cron expression, or off (docs/decisions/430-link-checks.md). */
  LINK_CHECK_SCHEDULE: cronSchedule.default(LINK_CHECK_SCHEDULE_DEFAULT),
  LINK_CHECK_ALLOW_PRIVATE: boolish.default(false),
  /** When the server backs itself up into the file store: a cron expression, or off (the default). */
  BACKUP_SCHEDULE: cronSchedule.default(null),
  /** Backups kept in the store; older ones are removed after each new one. */
  BACKUP_KEEP: z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a whole number from 1 to 1000' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, { error: 'must be a whole number from 1 to 1000' })
    .default(BACKUP_KEEP_DEFAULT),
  /** Media jobs (previews) this instance runs at once; 0: it runs none (another instance does). */
  MEDIA_JOBS_CONCURRENCY: z.coerce.number({ error: 'must be a whole number from 0 to 16' }).int({ error: 'must be a whole number from 0 to 16' }).min(0).max(16).default(1),
  MEDIA_NICE: z.coerce.number({ error: 'must be a whole number from 0 to 19' }).int({ error: 'must be a whole number from 0 to 19' }).min(0).max(19).default(MEDIA_NICE),
  FFMPEG_PATH: z.string().min(1).default('/usr/bin/ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('/usr/bin/ffprobe'),
  /** Where hosted files live: `local` (DATA_DIR/files) or `s3` (an S3-compatible bucket, S3_* below). */
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** For anything but AWS itself: R2, MinIO, B2 (https://…). */
  S3_ENDPOINT: z.string().url({ error: 'must be a URL' }).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolish.default(false),
  /** The largest file an admin may upload, in bytes. */
  UPLOAD_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int({ error: 'must be a whole number of bytes' })
    .min(1024 * 1024, { error: 'must be at least 1048576 (1 MiB)' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' })
    .default(UPLOAD_MAX_BYTES_DEFAULT),
});

/** Where hosted files are kept (STORAGE and S3_*). */
/** An S3-compatible bucket (storage/s3.ts). */
export interface S3Settings {
  bucket: string;
  region: string;
  /** Set for anything but AWS itself (R2, MinIO, B2, a test server). */
  endpoint?: string;
  /** Without keys the SDK's default credential chain applies (environment, instance role…). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`: MinIO and most test servers need it. */
  forcePathStyle?: boolean;
}

export type StorageConfig = { kind: 'local' } | { kind: 's3'; s3: S3Settings };

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string }
  /** In-process PostgreSQL: tests only, opened by src/server/testing/pglite.ts (openDatabase refuses it). */
  | { kind: 'pglite' };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  siteName: string;
  seedDemo: boolean;
  adminUsername?: string;
  adminPassword?: string;
  /**
   * SESSION_SECRET, or on SQLite the one generated into DATA_DIR (read here, so a bad file stops
   * the start before the database is touched). Unset on PostgreSQL: the auth module takes the
   * one kept in the database, shared by every instance (modules/auth/secret.ts).
   */
  sessionSecret?: string;
  /** How long a session lasts from sign-in, however active (SESSION_MAX_DAYS). */
  sessionMaxMs: number;
  /** Passed to Fastify's trustProxy: all hops, none, a hop count, or trusted proxy addresses/ranges. */
  trustProxy: boolean | number | string[];
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /** METRICS_TOKEN: /metrics is served only when set, and only to it. */
  metricsToken?: string;
  /** Public origin used in sitemap.xml and canonical links; derived from the request when unset. */
  publicUrl?: string;
  /** Directory holding the built client (index.html + assets). */
  clientDir: string;
  /** How long a client may take to send a request, and to hold an idle connection. */
  timeouts: Timeouts;
  /** What counts as a download (modules/downloads). */
  downloads: DownloadSettings;
  /** How often this instance publishes the scheduled resources that are due (PUBLISH_CHECK_INTERVAL). */
  publishCheckMs: number;
  /** Days a deleted resource stays in the trash (TRASH_DAYS). */
  trashDays: number;
  /** How often this instance purges what has been in the trash longer than trashDays (decision 399). */
  trashPurgeMs: number;
  /** Days an audit log entry is kept (AUDIT_DAYS). */
  auditDays: number;
  /** How often this instance sweeps the audit log of what is older than auditDays (decision 422). */
  auditSweepMs: number;
  /** Media jobs this instance runs at once (0: none). */
  mediaJobsConcurrency: number;
  /** The niceness ffmpeg and ffprobe run at (decision 350). */
  mediaNice: number;
  /** ffmpeg and ffprobe (Debian's `ffmpeg` package); when missing, video and audio previews fail with a reason. */
  ffmpegPath: string;
  ffprobePath: string;
  /** Hosted files: on the local disk (DATA_DIR/files) or in an S3-compatible bucket. */
  storage: StorageConfig;
  /** The largest upload accepted (UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** Link checks (LINK_CHECK_SCHEDULE, LINK_CHECK_ALLOW_PRIVATE). */
  linkChecks: LinkCheckSettings;
  /** Scheduled backups (BACKUP_SCHEDULE, BACKUP_KEEP). */
  backups: BackupSettings;
}

export interface DownloadSettings {
  counting: 'unique' | 'every';
  /** Recorded downloads per client per minute; 0 = no limit. */
  rateLimit: number;
}

export class ConfigError extends Error {}

/** Environment → typed config. A bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.STORAGE === 's3' && !e.S3_BUCKET) throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE=s3');
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (set both, or neither for the default credential chain)');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'resource-vault.db') },
    siteName: e.SITE_NAME,
    seedDemo: e.SEED_DEMO,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    sessionSecret: e.SESSION_SECRET ?? (e.DATABASE_URL ? undefined : loadOrCreateSecret(dataDir)),
    sessionMaxMs: e.SESSION_MAX_DAYS * DAY_MS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    clientDir: path.resolve(e.CLIENT_DIR),
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT,
      requestMs: e.REQUEST_TIMEOUT,
      uploadRequestMs: e.UPLOAD_REQUEST_TIMEOUT,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT,
    },
    downloads: { counting: e.DOWNLOAD_COUNTING, rateLimit: e.DOWNLOAD_RATE_LIMIT },
    publishCheckMs: e.PUBLISH_CHECK_INTERVAL,
    trashDays: e.TRASH_DAYS,
    trashPurgeMs: TRASH_PURGE_INTERVAL_MS,
    auditDays: e.AUDIT_DAYS,
    auditSweepMs: AUDIT_SWEEP_INTERVAL_MS,
    mediaJobsConcurrency: e.MEDIA_JOBS_CONCURRENCY,
    mediaNice: e.MEDIA_NICE,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            s3: {
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              endpoint: e.S3_ENDPOINT,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            },
          }
        : { kind: 'local' },
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    linkChecks: { schedule: e.LINK_CHECK_SCHEDULE, allowPrivate: e.LINK_CHECK_ALLOW_PRIVATE, timeoutMs: 10_000, hostIntervalMs: 1000 },
    backups: { schedule: e.BACKUP_SCHEDULE, keep: e.BACKUP_KEEP },
  };
}

/**
 * The session secret kept in `DATA_DIR/session-secret`, generated on first use. Created whole or
 * not at all (written aside, then linked into place), so a crash never leaves half a secret and
 * two processes on one folder end with the same one. A file that breaks the SESSION_SECRET rule
 * stops the start with one line naming it.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  const read = () => checkedSecret(readFileSync(file, 'utf8').trim(), file);
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw asConfigError(err, file);
  }
  mkdirSync(dataDir, { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(aside, randomBytes(32).toString('hex'), { mode: 0o600 });
    linkSync(aside, file);
  } catch (err) {
    // Another process linked its own first: use that one.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw asConfigError(err, file);
  } finally {
    rmSync(aside, { force: true });
  }
  return read();
}

/** A stored secret, checked by the rule SESSION_SECRET follows; `source` names where it came from. */
export function checkedSecret(value: string, source: string): string {
  if (value.length < SESSION_SECRET_MIN) {
    throw new ConfigError(
      `Invalid configuration: ${source} must hold a session secret of at least ${SESSION_SECRET_MIN} characters (remove it to have one generated, or set SESSION_SECRET)`,
    );
  }
  const weak = weakSecretReason(value);
  if (weak) throw new ConfigError(`Invalid configuration: the session secret in ${source} ${weak} (remove it to have one generated, or set SESSION_SECRET)`);
  return value;
}

function asConfigError(err: unknown, file: string): Error {
  if (err instanceof ConfigError) return err;
  const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new ConfigError(`Invalid configuration: cannot use the session secret file ${file} (${reason})`);
}
