import { z } from 'zod';
import { str, timestamp } from './common';
import { PAGE_SIZE_MAX } from './constants';
import { categorySchema, resourceStatusSchema } from './resources';

/**
 * The trash (docs/decisions/398-the-trash-is-a-status.md): deleting a resource moves it here, hidden
 * from the public with its files, counts, preview and page address kept; a restore brings it back
 * as it was; it is purged for good TRASH_DAYS after it was deleted (399), or at once by a super admin.
 */

/** Days a resource stays in the trash before the purge (the server's TRASH_DAYS setting defaults to it). */
export const DEFAULT_TRASH_DAYS = 30;

/** Rows per page of the Trash page. */
export const TRASH_PAGE_SIZE = 50;

export const trashedResourceSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: categorySchema,
  /** What a restore gives back. */
  status_before_trash: resourceStatusSchema,
  download_count: z.number().int(),
  trashed_at: timestamp,
  /** When the purge removes it for good (trashed_at + TRASH_DAYS). */
  purge_at: timestamp,
});
export type TrashedResource = z.infer<typeof trashedResourceSchema>;

/** GET /api/admin/trash: most recently deleted first; `cursor` from a previous answer's nextCursor. */
export const trashListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(PAGE_SIZE_MAX, { error: `limit must be at most ${PAGE_SIZE_MAX}` })
    .default(TRASH_PAGE_SIZE),
  cursor: str('cursor').max(512, { error: 'Invalid cursor' }).optional(),
});
export type TrashListQuery = z.input<typeof trashListQuerySchema>;

export const trashListSchema = z.object({
  items: z.array(trashedResourceSchema),
  /** Everything in the trash. */
  total: z.number().int(),
  /** Days an item stays before the purge (the server's TRASH_DAYS). */
  trash_days: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type TrashList = z.infer<typeof trashListSchema>;
