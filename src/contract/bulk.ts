import { z } from 'zod';
import { TAGS_MAX } from './constants';
import { ID_MAX } from './common';
import { CATEGORY_VALUES } from './categories';
import { adminResourceListQuerySchema, tagSchema } from './resources';

/**
 * Bulk actions on the admin list (docs/decisions/401-bulk-actions-and-select-all.md):
 * `POST /api/admin/resources/bulk` applies one action to up to BULK_MAX resources, each on its own
 * and all or nothing (its own transaction), and answers a result per id. "Select all N matching"
 * asks `GET /api/admin/resources/ids` for the ids the list's filters match, then sends them here.
 */

/** The most ids one bulk request takes, and the most "Select all matching" selects. */
export const BULK_MAX = 1000;

export const BULK_ACTIONS = ['publish', 'unpublish', 'trash', 'move', 'add_tags', 'remove_tags', 'premium', 'not_premium'] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

/**
 * A resource id in a JSON body: a whole number 1..ID_MAX (a JSON number; text, even digits, is
 * refused, so one id has one spelling as in paths, decision 340).
 */
const bulkIdSchema = z
  .number({ error: 'Each id must be a whole number' })
  .int({ error: 'Each id must be a whole number' })
  .min(1, { error: 'Each id must be at least 1' })
  .max(ID_MAX, { error: 'An id is too large' });

const idsSchema = z
  .array(bulkIdSchema, { error: 'ids must be a list of resource ids' })
  .min(1, { error: 'Select at least one resource' })
  .max(BULK_MAX, { error: `At most ${BULK_MAX} resources at once` })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'Each id may appear once' });

/** The tags an add or a remove names: the form's rule for each tag, at least one, at most a resource's worth. */
const bulkTagsSchema = z
  .array(tagSchema, { error: (issue) => (issue.input === undefined ? 'Choose at least one tag' : 'Tags must be a list') })
  .min(1, { error: 'Choose at least one tag' })
  .max(TAGS_MAX, { error: `At most ${TAGS_MAX} tags` });

/** Where a move goes: a category value, as the resource form sends it. */
const moveCategorySchema = z.enum(CATEGORY_VALUES, { error: (issue) => (issue.input === undefined ? 'Choose a category to move to' : 'Unknown category') });

const TAG_ACTIONS: readonly BulkActionName[] = ['add_tags', 'remove_tags'];

/**
 * The body: ids, the action, and what the action needs: `category` with move and only then,
 * `tags` with add_tags / remove_tags and only then. Unknown fields are refused. One flat object
 * rather than a union per action, so a bad field is named as itself whatever the action.
 */
export const bulkRequestSchema = z
  .strictObject({
    ids: idsSchema,
    action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
    category: moveCategorySchema.optional(),
    tags: bulkTagsSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'move' && v.category === undefined) ctx.addIssue({ code: 'custom', path: ['category'], message: 'Choose a category to move to' });
    if (v.action !== 'move' && v.category !== undefined) ctx.addIssue({ code: 'custom', path: ['category'], message: 'A category goes with action move only' });
    const tagAction = TAG_ACTIONS.includes(v.action);
    if (tagAction && v.tags === undefined) ctx.addIssue({ code: 'custom', path: ['tags'], message: 'Choose at least one tag' });
    if (!tagAction && v.tags !== undefined) ctx.addIssue({ code: 'custom', path: ['tags'], message: 'Tags go with add_tags and remove_tags only' });
  });
export type BulkRequest = z.infer<typeof bulkRequestSchema>;

/** One id's outcome: done, or the error (the app's error shape, without fields) and the resource left as it was. */
export const bulkItemResultSchema = z.discriminatedUnion('ok', [
  z.object({ id: z.number().int(), ok: z.literal(true) }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type BulkItemResult = z.infer<typeof bulkItemResultSchema>;

/** The answer (200 whatever each id's outcome): one result per id, in the order asked. */
export const bulkResponseSchema = z.object({
  results: z.array(bulkItemResultSchema),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type BulkResponse = z.infer<typeof bulkResponseSchema>;

/** The admin list's filters (category, text, status), without its paging. */
export const adminResourceIdsQuerySchema = adminResourceListQuerySchema.pick({ category: true, q: true, status: true, links: true });
export type AdminResourceIdsQuery = z.input<typeof adminResourceIdsQuerySchema>;

/**
 * Every id the filters match, newest first as the list shows them, at most BULK_MAX: `total`
 * (with `totalExact` as the list's) says how many match, so more than `ids` holds is said.
 */
export const adminResourceIdsSchema = z.object({
  ids: z.array(z.number().int()),
  total: z.number().int(),
  totalExact: z.boolean(),
});
export type AdminResourceIds = z.infer<typeof adminResourceIdsSchema>;
