import { z } from 'zod';
import { str } from './common';

/**
 * The catalogue's export and import (issue #30, docs/decisions/405-catalogue-export-and-import.md).
 * The export prints every resource, whatever its status; the import takes a CSV in the export's
 * columns and answers a report per row, as a dry run or applied.
 */

/** The export's CSV columns, in order; the import takes any of them (with `id`) in any order. */
export const CATALOGUE_COLUMNS = [
  'id',
  'title',
  'description',
  'category',
  'status',
  'publish_at',
  'is_premium',
  'tags',
  'licence_kind',
  'licence_text',
  'thumbnail_url',
  'thumbnail_choice',
  'thumbnail_file',
  'thumbnail_file_name',
  'download_url',
  'download_file',
  'download_file_name',
  'download_count',
  'popularity',
  'created_at',
  'updated_at',
] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];

/** Columns the export prints for reading only: an import accepts them and ignores what they say. */
export const READ_ONLY_COLUMNS: readonly CatalogueColumn[] = [
  'thumbnail_file_name',
  'download_file_name',
  'download_count',
  'popularity',
  'created_at',
  'updated_at',
];

/** How tags are joined in a CSV cell (a tag holds no comma: docs/decisions/104-auth-commas-in-tags.md). */
export const TAG_SEPARATOR = ', ';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }).default('csv'),
});

/** The largest CSV an import takes, in bytes. */
export const IMPORT_BODY_MAX_BYTES = 20 * 1024 * 1024;
/** The most data rows one import takes. */
export const IMPORT_ROWS_MAX = 50_000;

export const importQuerySchema = z.object({
  dry_run: str('dry_run')
    .max(5, { error: 'dry_run must be true or false' })
    .refine((v) => v === 'true' || v === 'false', { error: 'dry_run must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
});

export const IMPORT_ACTIONS = ['create', 'update', 'skip', 'error'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/**
 * One data row's outcome. `row` is its line in a spreadsheet (the header is row 1). A dry run says
 * what applying would do; an applied import says what it did (`id`: the resource created or
 * updated). `errors`: by CSV column; such a row changed nothing.
 */
export const importRowSchema = z.object({
  row: z.number().int(),
  action: z.enum(IMPORT_ACTIONS),
  id: z.number().int().nullable(),
  title: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importReportSchema = z.object({
  dry_run: z.boolean(),
  rows: z.array(importRowSchema),
  counts: z.object({ create: z.number().int(), update: z.number().int(), skip: z.number().int(), error: z.number().int() }),
});
export type ImportReport = z.infer<typeof importReportSchema>;
