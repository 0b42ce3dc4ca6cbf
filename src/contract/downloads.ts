import { z } from 'zod';
import { categorySchema } from './resources';

/** The ranges the admin's download charts offer, in days ending today (UTC). */
export const DOWNLOAD_RANGES = [7, 30, 90, 365] as const;
export type DownloadRange = (typeof DOWNLOAD_RANGES)[number];
export const DEFAULT_DOWNLOAD_RANGE: DownloadRange = 30;

/** How downloads are counted (DOWNLOAD_COUNTING): once per visitor per resource per UTC day, or every recorded one. */
export const DOWNLOAD_COUNTING_MODES = ['unique', 'every'] as const;
export type DownloadCounting = (typeof DOWNLOAD_COUNTING_MODES)[number];

export const downloadRangeQuerySchema = z.strictObject({
  days: z
    .enum(DOWNLOAD_RANGES.map(String) as [string, ...string[]], { error: `days must be one of ${DOWNLOAD_RANGES.join(', ')}` })
    .default(String(DEFAULT_DOWNLOAD_RANGE))
    .transform((v) => Number(v) as DownloadRange),
});

/** Oldest first, one entry per UTC day (YYYY-MM-DD) of the range, zero-filled. */
const perDaySchema = z.array(z.object({ day: z.string(), count: z.number().int() }));

/** GET /api/admin/downloads: all downloads over a range, and by category. */
export const downloadStatsSchema = z.object({
  days: perDaySchema,
  total: z.number().int(),
  /**
   * Downloads in the range by the category of the resource (every category, zero-filled). Counted
   * per resource since per-resource counts began (migration 018): earlier downloads are in `days`
   * only, and downloads of since-deleted resources are in `days` only.
   */
  categories: z.array(z.object({ category: categorySchema, count: z.number().int() })),
});
export type DownloadStats = z.infer<typeof downloadStatsSchema>;

/** GET /api/admin/resources/:id/downloads: one resource's downloads over a range. */
export const resourceDownloadStatsSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: categorySchema,
  /** All-time count, as the public site shows it. */
  total: z.number().int(),
  /** 1 = most downloaded in its category (ties share a rank), of `category_size` resources. */
  rank: z.number().int(),
  category_size: z.number().int(),
  days: perDaySchema,
  range_total: z.number().int(),
  /** How this server counts downloads now (the counts of other days may have been made under another mode). */
  counting: z.enum(DOWNLOAD_COUNTING_MODES),
});
export type ResourceDownloadStats = z.infer<typeof resourceDownloadStatsSchema>;
