import type { Selectable } from 'kysely';
import type { ResourcesTable } from '../../db/schema';

/** What a visitor may see of a resource: everything but download_url and admin_id (the URL is handed out only by recording a download); the files ids are read to show the hosted file and thumbnail. */
export const PUBLIC_COLUMNS = [
  'id',
  'title',
  'description',
  'category',
  'thumbnail_url',
  'thumbnail_choice',
  'is_premium',
  'download_count',
  'popularity',
  'tags',
  'created_at',
  'updated_at',
  'licence_kind',
  'licence_text',
  'preview',
  'apps',
  'download_file_id',
  'thumbnail_file_id',
] as const;

/** What an admin sees: every column the contract has, and the preview's job (for its state). */
export const ADMIN_COLUMNS = [...PUBLIC_COLUMNS, 'download_url', 'admin_id', 'preview_job_id', 'status', 'publish_at'] as const;

export type PublicRow = Pick<Selectable<ResourcesTable>, (typeof PUBLIC_COLUMNS)[number]>;
export type AdminRow = Pick<Selectable<ResourcesTable>, (typeof ADMIN_COLUMNS)[number]>;
