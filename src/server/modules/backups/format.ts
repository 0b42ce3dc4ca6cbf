import { z } from 'zod';
import { MIGRATIONS } from '../../db/migrations';

/**
 * The backup archive's layout, shared by the writer (backup.ts) and the reader (restore.ts);
 * docs/decisions/440-backup-archive.md says why it is this way. A tar of, in this order:
 *   backup.json                      the header (BackupHeader)
 *   tables/<table>/<00001>.ndjson    each table's rows, one JSON object a line, in BACKED_UP_TABLES order
 *   files/<key>                      every hosted file the rows name, by its store key
 *   manifest.json                    LAST: row counts, and the size and SHA-256 of every other entry
 * A table is cut into parts of at most TABLE_PART_BYTES: a tar entry's size is written before its
 * bytes, so a part is held in memory until it is complete (memory stays flat, nothing is spooled).
 */

export const FORMAT = 'resource-vault-backup';
export const FORMAT_VERSION = 1;
export const HEADER_ENTRY = 'backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
export const TABLE_PART_BYTES = 8 * 1024 * 1024;

export const tablePartEntry = (table: string, part: number) => `tables/${table}/${String(part).padStart(5, '0')}.ndjson`;
export const FILE_ENTRY_PREFIX = 'files/';
export const fileEntry = (key: string) => `${FILE_ENTRY_PREFIX}${key}`;
const TABLE_PART = /^tables\/([a-z_]+)\/\d{5}\.ndjson$/;
/** The table a table part's entry holds, or undefined when the entry is not one. */
export function tableOfEntry(name: string): string | undefined {
  return TABLE_PART.exec(name)?.[1];
}

/**
 * Every table whose rows are kept, parents before children (foreign keys), each with its primary
 * key (the order rows are read in, a page at a time after the last key read); `serial`: its id is
 * generated (a PostgreSQL sequence to move past the restored ids).
 */
export const BACKED_UP_TABLES: readonly { name: string; key: readonly string[]; serial?: true }[] = [
  { name: 'admins', key: ['id'], serial: true },
  { name: 'files', key: ['id'], serial: true },
  { name: 'file_entries', key: ['file_id', 'position'] },
  { name: 'media_jobs', key: ['id'], serial: true },
  { name: 'resources', key: ['id'], serial: true },
  { name: 'resource_tags', key: ['resource_id', 'tag'] },
  { name: 'media_owners', key: ['resource_id', 'role', 'key'] },
  { name: 'resource_links', key: ['resource_id', 'link'] },
  { name: 'resource_download_days', key: ['resource_id', 'day'] },
  { name: 'download_visitors', key: ['day', 'resource_id', 'visitor'] },
  { name: 'download_days', key: ['day'] },
  { name: 'announcements', key: ['id'], serial: true },
  { name: 'sessions', key: ['id'] },
  { name: 'admin_totp', key: ['admin_id'] },
  { name: 'admin_recovery_codes', key: ['id'], serial: true },
  { name: 'passkeys', key: ['id'], serial: true },
  { name: 'security_settings', key: ['key'] },
  { name: 'settings', key: ['key'] },
  { name: 'settings_versions', key: ['id'], serial: true },
  { name: 'site_media_owners', key: ['role', 'key'] },
  { name: 'server_secrets', key: ['name'] },
  { name: 'audit_log', key: ['id'], serial: true },
  { name: 'link_check_runs', key: ['slot'] },
];

/**
 * Tables left out, and why (decision 440): what migrations and triggers make, and state that
 * means nothing on another site or after minutes. A table in neither list stops a backup, so a
 * new migration's table is never silently left out.
 */
export const LEFT_OUT_TABLES: Readonly<Record<string, string>> = {
  kysely_migration: 'the migration level is in the header; the target is migrated to it',
  kysely_migration_lock: 'the migrator’s lock',
  data_version: 'a cache counter; the restore’s writes bump it',
  search_categories: 'SQLite search bookkeeping, rebuilt by triggers as rows are restored',
  resources_fts: 'the SQLite search index, rebuilt by triggers from the stored search text',
  rate_limits: 'counters that expire within minutes',
  upload_locks: 'leases of uploads in progress',
  uploads: 'uploads in progress or never attached: their bytes are not in the archive, and the sweep would remove them',
  instances: 'heartbeats of the old site’s processes',
  sign_in_challenges: 'sign-in steps that expire within minutes',
  webauthn_challenges: 'passkey challenges that expire within minutes',
  resource_facets: 'what the list filters read, derived from the preview, apps and listing: computed again by the restore',
  resource_facets_stale: 'the facets’ work list, filled by triggers as resources are restored',
};

/** Columns the app derives from others: not archived, recomputed on restore (restore.ts: the tag keys on PostgreSQL, the facet profiles with the facet rows). */
export const DERIVED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  resources: ['tag_keys', 'facet_profile'],
};

/** Whether a table the database holds is one SQLite makes for an FTS5 index (resources_fts_data …). */
export const isFtsShadowTable = (name: string) => /^resources_fts_(data|idx|content|docsize|config)$/.test(name);

export const MIGRATION_NAMES = MIGRATIONS.map(([name]) => name);

/** 1-based position of a migration in this app's list; 0 when it is not one of ours. */
export function migrationLevel(name: string): number {
  return MIGRATION_NAMES.indexOf(name) + 1;
}

export const backupHeaderSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int(),
  appVersion: z.string(),
  /** The last migration the database had (kysely_migration's name). */
  migration: z.string(),
  dialect: z.enum(['sqlite', 'postgres']),
  createdAt: z.string(),
  tables: z.array(z.string()),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

export const manifestEntrySchema = z.object({ name: z.string(), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  /** Every entry before this one, in archive order. */
  entries: z.array(manifestEntrySchema),
  rows: z.record(z.string(), z.number().int().min(0)),
  files: z.number().int().min(0),
  fileBytes: z.number().int().min(0),
  /** How many keys the rows name that the store did not have when the backup read it (absent before 2026-11-27: missingFiles' length). */
  missingFileCount: z.number().int().min(0).optional(),
  /** The first of those keys (backup.ts MISSING_LISTED; before 2026-11-27, all of them). */
  missingFiles: z.array(z.string()),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** A row value as archived: numbers, strings and null as they are; bytes as { $base64 }. */
export function encodeValue(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  throw new Error(`cannot archive a value of type ${typeof value}`);
}

export function decodeValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$base64' in value) return Buffer.from(String((value as { $base64: string }).$base64), 'base64');
  return value;
}

/** Thrown for an archive that cannot be restored: the message is for the person running the restore. */
export class BackupFormatError extends Error {}
