import { z } from 'zod';
import { CATEGORY_VALUES, parseCategory } from './categories';
import {
  DESCRIPTION_MAX,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  SEARCH_MAX,
  SORT_OPTIONS,
  TAG_MAX,
  TAGS_MAX,
  TITLE_MAX,
  URL_MAX,
} from './constants';
import { httpUrl, idSchema, instant, str, text, timestamp } from './common';
import { DEFAULT_LICENCE_KIND, LICENCE_KINDS, LICENCE_TEXT_MAX, type Licence } from './resource-page';
import { previewSchema, previewSourceSchema, readyPreviewSchema } from './previews';
import { hostedFileSchema, hostedImageSchema, uploadIdSchema } from './files';
import { DEFAULT_THUMBNAIL_CHOICE, THUMBNAIL_CHOICES } from './thumbnail-choice';
import { ORIENTATIONS, resourceFactsSchema } from './facts';
import { APP_IDS } from './apps';
import { appsInputSchema, contentsSummarySchema, resourceAppSchema } from './contents';

/** Which picture stands for the resource where its video preview has a poster (contract/thumbnail-choice.ts). */
export const thumbnailChoiceSchema = z.enum(THUMBNAIL_CHOICES, { error: `Thumbnail must be one of ${THUMBNAIL_CHOICES.join(', ')}` });

/**
 * A resource's status (docs/decisions/390-resource-status.md): only `published` ones exist for the
 * public; `scheduled` ones are published at their `publish_at`; `draft` ones wait for an admin.
 */
export const RESOURCE_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type ResourceStatus = (typeof RESOURCE_STATUSES)[number];
export const resourceStatusSchema = z.enum(RESOURCE_STATUSES, { error: `Status must be one of ${RESOURCE_STATUSES.join(', ')}` });

/**
 * A deleted resource's status while it is in the trash (contract/trash.ts, docs/decisions/398-the-trash-is-a-status.md):
 * hidden from the public like a draft, absent from the admin list, restored to the status it had.
 * Not one of RESOURCE_STATUSES: no form saves it and no filter offers it.
 */
export const TRASHED_STATUS = 'trashed';
/** Every status a resource row can hold. */
export const STORED_STATUSES = [...RESOURCE_STATUSES, TRASHED_STATUS] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];

export const categorySchema = z.enum(CATEGORY_VALUES, { error: 'Unknown category' });
export const sortSchema = z.enum(SORT_OPTIONS, { error: `sort must be one of ${SORT_OPTIONS.join(', ')}` });
export type Sort = z.infer<typeof sortSchema>;

const licenceText = (label: string) => text(LICENCE_TEXT_MAX, { label, multiline: true });

/** A resource's licence (the Licence type of resource-page.ts, which the pages import without zod). */
export const licenceSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('free-commercial') }),
    z.strictObject({ kind: z.literal('attribution'), credit: licenceText('Credit line') }),
    z.strictObject({ kind: z.literal('personal') }),
    z.strictObject({ kind: z.literal('custom'), text: licenceText('Licence text') }),
  ],
  { error: `Licence kind must be one of ${LICENCE_KINDS.join(', ')}` },
);
// The schema's output is a Licence: a change to one without the other fails to compile.
licenceSchema satisfies z.ZodType<Licence>;

/** What a visitor sees of a resource. The download URL comes from recording a download. */
export const publicResourceSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: categorySchema,
  /** The image to show: a link, a generated SVG (/thumbnails/<id>.svg) or, when hosted, thumbnail.src. */
  thumbnail_url: z.string(),
  /** The hosted (uploaded) thumbnail with its variants and placeholder; null when thumbnail_url is a link. */
  thumbnail: hostedImageSchema.nullable(),
  /**
   * Where a ready video preview has a poster, which picture stands for the resource (card, dialog,
   * page, social card): `image` its own thumbnail, `poster` the poster. A resource without a
   * thumbnail of its own (the generated one) shows the poster either way: prefersPoster in
   * contract/thumbnail-choice.ts (docs/decisions/362-the-admin-chooses-the-thumbnail.md).
   */
  thumbnail_choice: thumbnailChoiceSchema,
  /** The hosted download (name, size, SHA-256, type); null when the download is an external link. */
  file: hostedFileSchema.nullable(),
  is_premium: z.boolean(),
  download_count: z.number().int(),
  popularity: z.number().int(),
  tags: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  /** The resource's page: `/resources/{id}-{slug}` (contract/resource-page.ts). */
  url: z.string(),
  licence: licenceSchema,
  /** The asset shown as what it is (src/contract/previews.ts); only a ready preview, else null (keep the thumbnail). */
  preview: readyPreviewSchema.nullable(),
  /** What the preview's file is (duration, size, frame rate, styles…: contract/facts.ts); null until a preview is ready. */
  facts: resourceFactsSchema.nullable(),
  /** The apps it works in (contract/contents.ts), in contract/apps.ts order unless an admin ordered them. */
  apps: z.array(resourceAppSchema),
  /** What is inside the hosted download (contract/contents.ts); null for a link, or until it is read. */
  contents: contentsSummarySchema.nullable(),
});
export type PublicResource = z.infer<typeof publicResourceSchema>;

/** What an admin sees: everything. */
export const resourceSchema = publicResourceSchema.extend({
  /** The external download link; '' when the download is a hosted file (see `file`). */
  download_url: z.string(),
  admin_id: z.number().int().nullable(),
  /** Also while queued, processing or failed (with the reason). */
  preview: previewSchema.nullable(),
  status: resourceStatusSchema,
  /** When a scheduled resource is published (UTC); null unless `status` is `scheduled`. */
  publish_at: timestamp.nullable(),
  /** True when `apps` is an admin's correction (saved with `apps`), false when deduced. */
  apps_corrected: z.boolean(),
});
export type Resource = z.infer<typeof resourceSchema>;

/** One rule for tags: the public filter takes a comma-separated list, so a tag holding a comma could never be found. */
export const tagSchema = text(TAG_MAX, { label: 'Tag' }).refine((t) => !t.includes(','), { error: 'A tag cannot contain a comma' });

/** `tags` as comma-separated text or repeated parameters → a list of distinct tags. */
const tagsQuery = z.preprocess(
  (v) => {
    if (v === undefined || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
    return parts.map((p) => (typeof p === 'string' ? p.trim() : p)).filter((p) => p !== '');
  },
  z.array(tagSchema).max(TAGS_MAX, { error: `At most ${TAGS_MAX} tags` }).optional(),
);

/** The `min_height` filter's values: at least 720p, 1080p, 2160p (4K). */
export const MIN_HEIGHTS = [720, 1080, 2160] as const;
export type MinHeight = (typeof MIN_HEIGHTS)[number];
/** The largest `duration_min` / `duration_max`, in seconds (a day). */
export const DURATION_FILTER_MAX = 86_400;

/**
 * The duration facet's buckets, in seconds: a resource falls in the one whose `min` ≤ duration < `max`
 * (`max` null: no end); choosing one sends `duration_min` / `duration_max` with its bounds.
 */
export const DURATION_BUCKETS = [
  { id: 'under-15s', label: 'Under 15 seconds', min: 0, max: 15 },
  { id: '15s-1m', label: '15 seconds – 1 minute', min: 15, max: 60 },
  { id: '1m-5m', label: '1 – 5 minutes', min: 60, max: 300 },
  { id: 'over-5m', label: 'Over 5 minutes', min: 300, max: null },
] as const;
export type DurationBucket = (typeof DURATION_BUCKETS)[number]['id'];

/** The extension inside a pack (`format`): lower case, without the dot (contract/apps.ts extensionOf). */
export const FORMAT_PATTERN = /^[a-z0-9]{1,16}$/;

const seconds = (name: string) =>
  str(name)
    .max(6, { error: `${name} must be a whole number of seconds` })
    .refine((v) => /^[0-9]+$/.test(v) && Number(v) <= DURATION_FILTER_MAX, {
      error: `${name} must be a whole number of seconds up to ${DURATION_FILTER_MAX}`,
    })
    .transform(Number)
    .optional();

/**
 * Filters by what the files are (issue 33; facts in contract/facts.ts, apps in contract/apps.ts),
 * beside category, q and tags; all given ones must hold. A resource whose facts are unknown matches
 * no fact filter. `duration_min` ≤ duration < `duration_max`, in seconds (video and sound);
 * `orientation` and `min_height` (height ≥) of a video or before/after image; `format`: an
 * extension inside its download's listing, but for read-mes and saved links (`txt`, `md`, `rtf`,
 * `nfo`, `url`, `webloc`: never a format, decision 468); `app`: one of its apps (corrected or deduced).
 */
const resourceFilterQuery = {
  app: z.enum(APP_IDS, { error: `app must be one of ${APP_IDS.join(', ')}` }).optional(),
  format: str('format')
    .max(17, { error: 'format must be a file extension' })
    .transform((v) => v.toLowerCase().replace(/^\./, ''))
    .refine((v) => FORMAT_PATTERN.test(v), { error: 'format must be a file extension' })
    .optional(),
  duration_min: seconds('duration_min'),
  duration_max: seconds('duration_max'),
  orientation: z.enum(ORIENTATIONS, { error: `orientation must be one of ${ORIENTATIONS.join(', ')}` }).optional(),
  min_height: str('min_height')
    .max(4, { error: `min_height must be one of ${MIN_HEIGHTS.join(', ')}` })
    .refine((v) => (MIN_HEIGHTS as readonly number[]).includes(Number(v)) && /^[0-9]+$/.test(v), {
      error: `min_height must be one of ${MIN_HEIGHTS.join(', ')}`,
    })
    .transform((v) => Number(v) as MinHeight)
    .optional(),
};

/** One value of a facet and how many resources of the query have it. */
export const facetCountSchema = z.object({ value: z.string(), count: z.number().int() });
export type FacetCount = z.infer<typeof facetCountSchema>;

/**
 * The facets of a list (`facets=true`): for each filter, the count of each value under every other
 * filter of the query but not its own (so each count is what choosing that value instead gives).
 * Values with no resource are left out; `category` in CATEGORY order, `app` in APP_IDS order,
 * `format` most used first (at most FORMAT_FACET_MAX), `orientation` in ORIENTATIONS order,
 * `min_height` (resources at least that tall) in MIN_HEIGHTS order, `duration` in DURATION_BUCKETS order.
 */
export const resourceFacetsSchema = z.object({
  /** false: the query matched more resources than are counted (a broad text search): each count is at least this. */
  exact: z.boolean(),
  category: z.array(facetCountSchema),
  app: z.array(facetCountSchema),
  format: z.array(facetCountSchema),
  orientation: z.array(facetCountSchema),
  min_height: z.array(facetCountSchema),
  duration: z.array(facetCountSchema),
});
export type ResourceFacets = z.infer<typeof resourceFacetsSchema>;
/** The most `format` values a facet lists. */
export const FORMAT_FACET_MAX = 20;

export const resourceListQuerySchema = z.object({
  category: str('category')
    .max(64, { error: 'Unknown category' })
    .transform((v, ctx) => {
      const c = parseCategory(v);
      if (!c) {
        ctx.addIssue({ code: 'custom', message: 'Unknown category' });
        return z.NEVER;
      }
      return c;
    })
    .optional(),
  q: str('q').max(SEARCH_MAX, { error: `q must be at most ${SEARCH_MAX} characters` }).optional(),
  tags: tagsQuery,
  sort: sortSchema.default('popular'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(PAGE_SIZE_MAX, { error: `limit must be at most ${PAGE_SIZE_MAX}` })
    .default(PAGE_SIZE),
  cursor: str('cursor').max(512, { error: 'Invalid cursor' }).optional(),
  ...resourceFilterQuery,
  /** true: the answer also carries `facets`, the count of each filter value for this query. */
  facets: str('facets')
    .max(5, { error: 'facets must be true or false' })
    .refine((v) => v === 'true' || v === 'false', { error: 'facets must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
});
export type ResourceListQuery = z.infer<typeof resourceListQuerySchema>;

export const resourceListSchema = z.object({
  items: z.array(publicResourceSchema),
  /** Matching resources; for a search (q or tags) counted up to a cap, see totalExact. */
  total: z.number().int(),
  /** false: at least `total` match (a search's count stops at a cap); shown as "1,000+". */
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
  /** With `facets=true` only. */
  facets: resourceFacetsSchema.optional(),
});
export type ResourceList = z.infer<typeof resourceListSchema>;

export const premiumListSchema = z.object({ items: z.array(publicResourceSchema) });
export type PremiumList = z.infer<typeof premiumListSchema>;

/** Resources to look at next on a resource's page: same category, most shared tags first. */
export const relatedListSchema = z.object({ items: z.array(publicResourceSchema) });
export type RelatedList = z.infer<typeof relatedListSchema>;

export const downloadResponseSchema = z.object({
  /** An absolute http(s) URL: the external link, or for a hosted file a signed link valid for DOWNLOAD_LINK_TTL_SECONDS (this site's /api/files/… or an S3 presigned URL). */
  download_url: z.string(),
  download_count: z.number().int(),
});
export type DownloadResponse = z.infer<typeof downloadResponseSchema>;

const thumbnailUrlField = httpUrl(URL_MAX, { allowRelative: true, label: 'Thumbnail URL' });
const downloadUrlField = httpUrl(URL_MAX, { label: 'Download URL' });

/**
 * The download and the thumbnail each come from a link (`download_url`, `thumbnail_url`) or from
 * a finished tus upload (`download_upload_id`, `thumbnail_upload_id`: the id at the end of the
 * upload URL, see contract/files.ts). Saving attaches the upload: the server checks it is complete,
 * computes its SHA-256, checks a thumbnail by its bytes and re-encodes it; a refused upload fails
 * the whole save with 400 on that field and changes nothing. An upload can be attached once.
 */
const mediaSources = {
  thumbnail_url: thumbnailUrlField,
  /** A finished upload to host as the thumbnail (replaces a hosted one or a link). */
  thumbnail_upload_id: uploadIdSchema,
  download_url: downloadUrlField,
  /** A finished upload to host as the download (replaces a hosted one or a link; the download count is kept). */
  download_upload_id: uploadIdSchema,
};

function oneOf(v: Record<string, unknown>, a: string, b: string, label: string, required: boolean, ctx: z.RefinementCtx) {
  if (v[a] !== undefined && v[b] !== undefined) {
    ctx.addIssue({ code: 'custom', path: [b], message: `Give either ${label} link or an upload, not both` });
  } else if (required && v[a] === undefined && v[b] === undefined) {
    ctx.addIssue({ code: 'custom', path: [a], message: `${label[0].toUpperCase()}${label.slice(1)} is required` });
  }
}

const publishAtField = instant('Publish time');

/**
 * `publish_at` goes with status `scheduled` and nothing else, in the same body (an edit that
 * schedules names the time; one that publishes or drafts clears it), and lies in the future.
 */
function checkSchedule(v: { status?: ResourceStatus; publish_at?: string }, ctx: z.RefinementCtx) {
  if (v.status === 'scheduled' && v.publish_at === undefined) {
    ctx.addIssue({ code: 'custom', path: ['publish_at'], message: 'Choose when to publish' });
  } else if (v.publish_at !== undefined && v.status !== 'scheduled') {
    ctx.addIssue({ code: 'custom', path: ['publish_at'], message: 'A publish time goes with status scheduled' });
  } else if (v.publish_at !== undefined && Date.parse(v.publish_at) <= Date.now()) {
    ctx.addIssue({ code: 'custom', path: ['publish_at'], message: 'The publish time must be in the future' });
  }
}

/**
 * Admin create body. Unknown fields are refused. Exactly one of each link / upload pair, except
 * that a draft may come without a thumbnail: it gets the generated one, which its video preview's
 * poster replaces where it has one (bulk upload: docs/decisions/409-bulk-upload-drafts.md).
 */
export const resourceInputSchema = z
  .strictObject({
    title: text(TITLE_MAX, { label: 'Title' }),
    description: text(DESCRIPTION_MAX, { label: 'Description', multiline: true }),
    category: categorySchema,
    thumbnail_url: mediaSources.thumbnail_url.optional(),
    thumbnail_upload_id: mediaSources.thumbnail_upload_id.optional(),
    download_url: mediaSources.download_url.optional(),
    download_upload_id: mediaSources.download_upload_id.optional(),
    tags: z
      .array(tagSchema, { error: 'Tags must be a list' })
      .max(TAGS_MAX, { error: `At most ${TAGS_MAX} tags` })
      .default([]),
    is_premium: z.boolean({ error: 'is_premium must be true or false' }).default(false),
    licence: licenceSchema.default({ kind: DEFAULT_LICENCE_KIND }),
    /** Preview media to make the resource's preview from (contract/previews.ts). */
    preview_source: previewSourceSchema.optional(),
    thumbnail_choice: thumbnailChoiceSchema.default(DEFAULT_THUMBNAIL_CHOICE),
    /** The form's save publishes (the spec's flow); "Save draft" and "Schedule…" say otherwise. */
    status: resourceStatusSchema.default('published'),
    /** With status `scheduled` only: when to publish, in the future. */
    publish_at: publishAtField.optional(),
    /** An admin's list of the apps it works in, with minimum versions (contract/contents.ts); null or absent: deduced. */
    apps: appsInputSchema.optional(),
  })
  .superRefine((v, ctx) => {
    oneOf(v, 'thumbnail_url', 'thumbnail_upload_id', 'a thumbnail', v.status !== 'draft', ctx);
    oneOf(v, 'download_url', 'download_upload_id', 'a download', true, ctx);
    checkSchedule(v, ctx);
  });
export type ResourceInput = z.input<typeof resourceInputSchema>;

/**
 * Admin edit body: any subset of the create fields, at least one. Giving `download_url` switches a
 * hosted download back to a link (the hosted file is removed); `download_upload_id` replaces the
 * download with a hosted file. The same for the thumbnail; to drop a hosted thumbnail for the
 * generated one, send `thumbnail_url: "/thumbnails/<id>.svg"`. Old files are removed after the
 * save commits (by the orphan sweep), so a failed save keeps them.
 */
export const resourcePatchSchema = z
  .strictObject({
    title: text(TITLE_MAX, { label: 'Title' }),
    description: text(DESCRIPTION_MAX, { label: 'Description', multiline: true }),
    category: categorySchema,
    ...mediaSources,
    tags: z.array(tagSchema, { error: 'Tags must be a list' }).max(TAGS_MAX, { error: `At most ${TAGS_MAX} tags` }),
    is_premium: z.boolean({ error: 'is_premium must be true or false' }),
    licence: licenceSchema,
    preview_source: previewSourceSchema,
    thumbnail_choice: thumbnailChoiceSchema,
    status: resourceStatusSchema,
    publish_at: publishAtField,
    apps: appsInputSchema,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to update' })
  .superRefine((v, ctx) => {
    oneOf(v, 'thumbnail_url', 'thumbnail_upload_id', 'a thumbnail', false, ctx);
    oneOf(v, 'download_url', 'download_upload_id', 'a download', false, ctx);
    checkSchedule(v, ctx);
  });
export type ResourcePatch = z.infer<typeof resourcePatchSchema>;

/** How long an admin's preview link to a draft or scheduled resource opens it. */
export const PREVIEW_LINK_TTL_SECONDS = 60 * 60;

/**
 * An admin's preview link (POST /api/admin/resources/:id/preview-link): the resource's page with a
 * signed `preview` parameter, valid until `expires_at`, sent `noindex`.
 */
export const previewLinkSchema = z.object({ url: z.string(), expires_at: timestamp });
export type PreviewLink = z.infer<typeof previewLinkSchema>;

/** The resource page's query parameter that carries a preview link's token. */
export const PREVIEW_PARAM = 'preview';

/** The query of a draft's own media (`/media/…`, `/thumbnails/…`): the preview link's token, which a preview page adds. */
export const previewTokenQuerySchema = z.object({ [PREVIEW_PARAM]: str('Preview token').max(100, { error: 'Preview token is too long' }).optional() });

/** Rows per page of the admin resource table. */
export const ADMIN_PAGE_SIZE = 25;

/**
 * Admin resource list: newest first (created_at, then id), one page at a time. `status` narrows to
 * drafts, scheduled or published resources. `q` narrows to
 * resources whose title, description or any tag contains it (case-insensitive); `id` narrows to
 * one resource (the edit screen picks its item from the category's list this way). `cursor` is an
 * opaque keyset cursor from a previous answer's nextCursor / prevCursor.
 */
export const adminResourceListQuerySchema = z.object({
  category: resourceListQuerySchema.shape.category,
  q: str('q').max(SEARCH_MAX, { error: `q must be at most ${SEARCH_MAX} characters` }).optional(),
  id: idSchema().optional(),
  status: resourceStatusSchema.optional(),
  /** `broken`: only resources with a broken external link (contract/links.ts). */
  links: z.enum(['broken'], { error: 'links must be broken' }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(PAGE_SIZE_MAX, { error: `limit must be at most ${PAGE_SIZE_MAX}` })
    .default(ADMIN_PAGE_SIZE),
  cursor: str('cursor').max(512, { error: 'Invalid cursor' }).optional(),
});
export type AdminResourceListQuery = z.input<typeof adminResourceListQuerySchema>;

export const adminResourceListSchema = z.object({
  items: z.array(resourceSchema),
  /** Resources matching category, q and id: all pages together; a search (q) counts up to a cap, see totalExact. */
  total: z.number().int(),
  /** false: at least `total` match (a search's count stops at a cap); shown as "5,000+". */
  totalExact: z.boolean(),
  /** How many matching resources come before this page (for "Showing 26–50", "Page 2 of N"). */
  offset: z.number().int(),
  /** The next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** The previous (newer) page; null on the first page. */
  prevCursor: z.string().nullable(),
});
export type AdminResourceList = z.infer<typeof adminResourceListSchema>;
