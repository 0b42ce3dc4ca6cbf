import { z } from 'zod';
import { timestamp } from './common';
import { PAGE_SIZE_MAX } from './constants';
import { categorySchema } from './resources';

/**
 * Link health (issue 32; docs/decisions/430-link-checks.md): every external download and thumbnail
 * link is checked on a schedule; a broken one is listed for the admins until it answers again or
 * the resource's link changes.
 */

/** Which of a resource's links. */
export const LINK_KINDS = ['download', 'thumbnail'] as const;
export const linkKindSchema = z.enum(LINK_KINDS);
export type LinkKind = z.infer<typeof linkKindSchema>;

/** Rows per page of the Link health page. */
export const LINK_HEALTH_PAGE_SIZE = 50;

export const brokenLinkSchema = z.object({
  resource_id: z.number().int(),
  title: z.string(),
  category: categorySchema,
  link: linkKindSchema,
  url: z.string(),
  /** The HTTP status answered, or null when there was no answer (timeout, refused, not found…). */
  status: z.number().int().nullable(),
  /** Why it is broken, in a sentence. */
  reason: z.string(),
  checked_at: timestamp,
});
export type BrokenLink = z.infer<typeof brokenLinkSchema>;

/** GET /api/admin/link-health: broken links in resource order, a page at a time. */
export const linkHealthQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int({ error: 'page must be a whole number' }).min(1, { error: 'page must be at least 1' }).max(1_000_000, { error: 'page is too large' }).default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(PAGE_SIZE_MAX, { error: `limit must be at most ${PAGE_SIZE_MAX}` })
    .default(LINK_HEALTH_PAGE_SIZE),
});
export type LinkHealthQuery = z.input<typeof linkHealthQuerySchema>;

export const linkHealthSchema = z.object({
  items: z.array(brokenLinkSchema),
  /** Broken links of resources not in the trash, all pages together (the dashboard's "N broken links"). */
  total: z.number().int(),
  page: z.number().int(),
  /** A check is queued or running. */
  running: z.boolean(),
});
export type LinkHealth = z.infer<typeof linkHealthSchema>;

/** POST /api/admin/link-health/run: the check queued (202). */
export const linkCheckQueuedSchema = z.object({ job_id: z.number().int() });
export type LinkCheckQueued = z.infer<typeof linkCheckQueuedSchema>;

/** Reports of broken links one visitor (address) may send per minute. */
export const REPORT_LINK_LIMIT = 5;
