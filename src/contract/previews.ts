import { z } from 'zod';
import type { CategoryValue } from './categories';
import { uploadIdSchema } from './files';

/**
 * A resource's preview: the asset shown as what it is (a video plays, a sound shows its waveform,
 * a LUT grades a photo, a preset's before/after, a font sets text). The server derives it from
 * media an admin uploaded, as a job (src/server/modules/media/previews.ts); `status` is that job's.
 *
 * - Public answers carry `preview: ReadyPreview | null`: only a ready preview is shown, anything
 *   else is null and the card keeps its thumbnail.
 * - Admin answers carry `preview: Preview | null`: a ready one, or one still `queued`/`processing`
 *   or `failed`, with `reason` (why it failed, or why it waits to be tried again).
 *
 * Every `url` is a site path (`/media/<hash>.<ext>`): immutable, byte ranges supported. No preview
 * byte (video, audio, font, LUT table) should be fetched before the visitor asks for it; what a
 * card draws without asking is here inline (poster, peaks, family name, dimensions).
 */

export const PREVIEW_KINDS = ['video', 'audio', 'lut', 'image-pair', 'font'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];
export const PREVIEW_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];

/** Which preview kinds each category accepts (premium resources preview by their own kind: any). */
export const CATEGORY_PREVIEW_KINDS: Record<CategoryValue, readonly PreviewKind[]> = {
  video_editing: ['video', 'lut'],
  motion_graphics: ['video'],
  anime_edits: ['video'],
  sound_effects: ['audio'],
  color_grading: ['lut'],
  photo_editing: ['image-pair'],
  typography: ['font'],
  premium_resources: PREVIEW_KINDS,
};

/** Waveform peaks per audio preview. */
export const PREVIEW_PEAKS = 200;

const int = z.number().int();
const url = z.string();

/** One encoding of an image at one width (WebP always, AVIF when it is smaller). */
export const previewImageVariantSchema = z.object({
  url,
  width: int,
  height: int,
  format: z.enum(['webp', 'avif']),
});

/** An image in several widths: use as `srcset` (by format: AVIF in a `<source type="image/avif">`). */
export const previewImageSchema = z.object({
  width: int,
  height: int,
  variants: z.array(previewImageVariantSchema),
  /** Dominant colour `#rrggbb` and a few-pixel WebP data URI to show blurred until the image arrives. */
  placeholder: z.object({ color: z.string(), dataUri: z.string() }),
});
export type PreviewImage = z.infer<typeof previewImageSchema>;

const ready = { status: z.literal('ready') };

export const videoPreviewSchema = z.object({
  kind: z.literal('video'),
  ...ready,
  /** The source video as shown (seconds, pixels). */
  duration: z.number(),
  width: int,
  height: int,
  /** Muted H.264 MP4 of the first seconds, ≤ 1280 × 720, fast start. */
  video: z.object({ url, width: int, height: int, duration: z.number(), bytes: int }),
  /** A frame from about 10% in (not black). */
  poster: previewImageSchema,
  /**
   * Frames of the preview tiled into one WebP, `columns` across, row by row: frame i is at
   * x = (i % columns) × frameWidth, y = ⌊i / columns⌋ × frameHeight and shows the preview at
   * i × interval seconds. The sprite is `columns × frameWidth` wide.
   */
  storyboard: z.object({
    url,
    columns: int,
    rows: int,
    frames: int,
    frameWidth: int,
    frameHeight: int,
    interval: z.number(),
  }),
});

export const audioPreviewSchema = z.object({
  kind: z.literal('audio'),
  ...ready,
  /** Of the source, in seconds. */
  duration: z.number(),
  /** A loudness-normalised AAC (.m4a) of at most the first 30 s. */
  audio: z.object({ url, duration: z.number(), bytes: int }),
  /** PREVIEW_PEAKS whole numbers 0–100: the preview's peak level over equal slices of it. */
  peaks: z.array(int),
});

export const lutPreviewSchema = z.object({
  kind: z.literal('lut'),
  ...ready,
  title: z.string().nullable(),
  /** What the `.cube` file held. */
  source: z.object({ type: z.enum(['1D', '3D']), size: int }),
  /**
   * The table for the browser: `size`³ RGB triplets of bytes (0–255 for 0–1), red fastest, then
   * green, then blue — upload as a 3D texture (RGB8, size × size × size).
   */
  table: z.object({ url, size: int, format: z.literal('rgb8'), bytes: int }),
  /** Ungraded photos to grade (same origin, so WebGL may read them). */
  samples: z.array(z.object({ url, width: int, height: int, alt: z.string() })),
});

export const imagePairPreviewSchema = z.object({
  kind: z.literal('image-pair'),
  ...ready,
  /** Both have the same shape. */
  before: previewImageSchema,
  after: previewImageSchema,
});

export const fontPreviewSchema = z.object({
  kind: z.literal('font'),
  ...ready,
  /** The font's own family name (show it; load the file under a name of your own in @font-face). */
  family: z.string(),
  fullName: z.string().nullable(),
  weight: int.nullable(),
  italic: z.boolean(),
  file: z.object({ url, format: z.enum(['woff2', 'woff', 'ttf', 'otf']), bytes: int }),
  /**
   * The resource's title set in the font, as an SVG image of its outlines: what a card shows
   * without fetching the font. Made on first request; a 404 there (the font lacks a character of
   * the title) means: load `file` and set the title in it instead.
   */
  specimen: z.object({ url }),
  /** False for a symbol or CJK font: the tester shows `sample` instead of Latin text. */
  coversBasicLatin: z.boolean(),
  metrics: z.object({ unitsPerEm: int, ascent: z.number(), descent: z.number(), lineGap: z.number(), capHeight: z.number(), xHeight: z.number() }),
  /** Variable fonts: their axes by tag (`wght`, `wdth`…). */
  axes: z.record(z.string(), z.object({ name: z.string(), min: z.number(), default: z.number(), max: z.number() })),
});

/** A preview that can be shown: what public answers carry (or null). */
export const readyPreviewSchema = z.discriminatedUnion('kind', [videoPreviewSchema, audioPreviewSchema, lutPreviewSchema, imagePairPreviewSchema, fontPreviewSchema]);
export type ReadyPreview = z.infer<typeof readyPreviewSchema>;
export type VideoPreview = z.infer<typeof videoPreviewSchema>;
export type AudioPreview = z.infer<typeof audioPreviewSchema>;
export type LutPreview = z.infer<typeof lutPreviewSchema>;
export type ImagePairPreview = z.infer<typeof imagePairPreviewSchema>;
export type FontPreview = z.infer<typeof fontPreviewSchema>;

/** Ends the reason of a preview refused for its file: retrying the same file gives the same answer. */
export const PREVIEW_UPLOAD_ANOTHER = 'Retrying will not help: upload another file in the Preview section.';

/** A preview not (yet) made: admin answers only. */
export const pendingPreviewSchema = z.object({
  kind: z.enum(PREVIEW_KINDS),
  status: z.enum(['queued', 'processing', 'failed']),
  /** failed: why, for the admin (e.g. "ffmpeg is not installed"); queued: why the last try failed, if one did. */
  reason: z.string().optional(),
  /** failed: whether "Retry preview" can help; false when the file itself was refused (the reason then ends with PREVIEW_UPLOAD_ANOTHER). */
  can_retry: z.boolean().optional(),
});
export type PendingPreview = z.infer<typeof pendingPreviewSchema>;

/** What admin answers carry (or null). */
export const previewSchema = z.union([readyPreviewSchema, pendingPreviewSchema]);
export type Preview = z.infer<typeof previewSchema>;

export const isReadyPreview = (p: Preview | null | undefined): p is ReadyPreview => p?.status === 'ready';

/**
 * Preview media on an admin's create or edit (`preview_source`): finished tus uploads (upload
 * ids, as for the download) of the kind the category accepts (CATEGORY_PREVIEW_KINDS), or for a
 * video, a sound, a LUT or a font whose download is a hosted file, `from_download: true` (the file
 * serves itself: docs/decisions/409-bulk-upload-drafts.md).
 * Saving queues the preview job; the answer's `preview` shows it queued.
 */
/** The kinds a hosted download can be the preview media of (`from_download`): one file, not a before/after pair. */
export const SELF_PREVIEW_KINDS: readonly PreviewKind[] = ['video', 'audio', 'lut', 'font'];

export const previewSourceSchema = z
  .strictObject({
    kind: z.enum(PREVIEW_KINDS, { error: `kind must be one of ${PREVIEW_KINDS.join(', ')}` }),
    /** video, audio, lut (.cube), font. */
    upload_id: uploadIdSchema.optional(),
    /** image-pair: both images, the same shape. */
    before_upload_id: uploadIdSchema.optional(),
    after_upload_id: uploadIdSchema.optional(),
    /** video, audio, lut, font: the resource's hosted download is the media. */
    from_download: z.literal(true, { error: 'from_download must be true' }).optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.kind === 'image-pair') {
      if (v.before_upload_id === undefined) issue('before_upload_id', 'A before image is required');
      if (v.after_upload_id === undefined) issue('after_upload_id', 'An after image is required');
      if (v.upload_id !== undefined || v.from_download !== undefined) issue('upload_id', 'A before/after preview takes before_upload_id and after_upload_id');
      return;
    }
    if (v.before_upload_id !== undefined || v.after_upload_id !== undefined) issue('before_upload_id', 'Only a before/after preview takes two images');
    if (v.from_download && !SELF_PREVIEW_KINDS.includes(v.kind)) issue('from_download', 'Only a video, a sound, a LUT or a font can preview itself');
    if ((v.upload_id === undefined) === (v.from_download === undefined)) issue('upload_id', 'Give either an upload or from_download');
  });
export type PreviewSourceInput = z.infer<typeof previewSourceSchema>;
