import { z } from 'zod';
import { APP_IDS } from './apps';

/**
 * What is inside a resource's download, and what it works in (issue 33).
 *
 * - `contents` on a resource: null for a download that is a link or not yet read; else the
 *   listing's state. A hosted ZIP is `listed` (its `count` files, `total_size` bytes unpacked),
 *   `too-large` or `broken` (with `reason`: never opened further); any other file is `not-zip`
 *   (a .rar or .7z shows as its name and size: `file`).
 * - `GET /api/resources/{id}/contents?cursor=` pages through a listed ZIP's files, in the
 *   archive's order (public resources only).
 * - `apps`: deduced from the extensions inside and the preview's kind (contract/apps.ts appsFor),
 *   or as an admin corrected them, each with the minimum version the admin gave (or null).
 */

export const LISTING_STATUSES = ['listed', 'too-large', 'broken', 'not-zip'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const contentsSummarySchema = z.object({
  status: z.enum(LISTING_STATUSES),
  /** too-large, broken: why it is not listed. */
  reason: z.string().nullable(),
  /** listed: the files in it (folders not counted) and their total size unpacked, in bytes. */
  count: z.number().int().nullable(),
  total_size: z.number().int().nullable(),
});
export type ContentsSummary = z.infer<typeof contentsSummarySchema>;

/** Files per page of GET /api/resources/{id}/contents. */
export const CONTENTS_PAGE_SIZE = 200;

export const contentsEntrySchema = z.object({
  /** The path inside the archive (`Pack/Titles/Title.mogrt`). */
  path: z.string(),
  /** Bytes, unpacked. */
  size: z.number().int(),
});
export type ContentsEntry = z.infer<typeof contentsEntrySchema>;

export const contentsPageSchema = z.object({
  status: z.enum(LISTING_STATUSES),
  reason: z.string().nullable(),
  count: z.number().int().nullable(),
  total_size: z.number().int().nullable(),
  /** Counts by extension (lower case, '' for none): `{ "mogrt": 12, "txt": 1 }`. */
  extensions: z.record(z.string(), z.number().int()),
  entries: z.array(contentsEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ContentsPage = z.infer<typeof contentsPageSchema>;

export const contentsQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, { error: 'Invalid cursor' })
    .optional(),
});

export const MIN_VERSION_MAX = 32;

export const resourceAppSchema = z.object({
  id: z.enum(APP_IDS),
  /** `Premiere Pro`… (contract/apps.ts APP_LABELS). */
  label: z.string(),
  /** As the admin wrote it (`2020`, `17.0`); null when not given. */
  min_version: z.string().nullable(),
});
export type ResourceApp = z.infer<typeof resourceAppSchema>;

/**
 * An admin's correction of a resource's apps (create or edit: `apps`): the list shown instead of
 * the deduced one, each with an optional minimum version; `null` goes back to the deduced list.
 */
export const appsInputSchema = z
  .array(
    z.strictObject({
      id: z.enum(APP_IDS, { error: `App must be one of ${APP_IDS.join(', ')}` }),
      min_version: z
        .string({ error: 'Minimum version must be text' })
        .trim()
        .max(MIN_VERSION_MAX, { error: `Minimum version must be at most ${MIN_VERSION_MAX} characters` })
        .regex(/^[\p{L}\p{N} .\-+]*$/u, { error: 'Minimum version may hold letters, digits, spaces, dots, dashes and plus signs' })
        .nullable()
        .optional(),
    }),
  )
  .max(APP_IDS.length, { error: `At most ${APP_IDS.length} apps` })
  .refine((list) => new Set(list.map((a) => a.id)).size === list.length, { error: 'Each app may be listed once' })
  .nullable();
export type AppsInput = z.infer<typeof appsInputSchema>;
