import { z } from 'zod';

/**
 * What a resource's files are, read from them by the preview jobs (issue 33): a video's duration,
 * size, frame rate, orientation and whether it has sound; a sound's duration, channels, sample
 * rate and loudness; a font's family, styles, weights, glyph count, scripts and variable axes; a
 * LUT's grid size; a before/after image's dimensions. `facts` is null until the preview is ready;
 * a field is null where the file did not say (or where an older preview did not record it: it is
 * filled in when the preview is made again). See docs/decisions/435-facts-live-in-the-preview.md.
 */

export const ORIENTATIONS = ['landscape', 'portrait', 'square'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

export function orientationOf(width: number, height: number): Orientation {
  return width === height ? 'square' : width > height ? 'landscape' : 'portrait';
}

/**
 * The scripts a font is said to cover, by Unicode block(s): a font covers one when it draws at
 * least `min` characters of its ranges (a few accented letters are not Greek). Order: as shown.
 */
export const FONT_SCRIPTS = [
  { id: 'latin', label: 'Latin', min: 52, ranges: [[0x41, 0x5a], [0x61, 0x7a], [0xc0, 0x24f], [0x1e00, 0x1eff]] },
  { id: 'greek', label: 'Greek', min: 40, ranges: [[0x370, 0x3ff], [0x1f00, 0x1fff]] },
  { id: 'cyrillic', label: 'Cyrillic', min: 50, ranges: [[0x400, 0x52f]] },
  { id: 'armenian', label: 'Armenian', min: 30, ranges: [[0x530, 0x58f]] },
  { id: 'hebrew', label: 'Hebrew', min: 22, ranges: [[0x590, 0x5ff]] },
  { id: 'arabic', label: 'Arabic', min: 28, ranges: [[0x600, 0x6ff], [0x750, 0x77f], [0xfb50, 0xfdff], [0xfe70, 0xfeff]] },
  { id: 'devanagari', label: 'Devanagari', min: 40, ranges: [[0x900, 0x97f]] },
  { id: 'thai', label: 'Thai', min: 40, ranges: [[0xe00, 0xe7f]] },
  { id: 'georgian', label: 'Georgian', min: 30, ranges: [[0x10a0, 0x10ff]] },
  { id: 'hangul', label: 'Korean', min: 200, ranges: [[0x1100, 0x11ff], [0x3130, 0x318f], [0xac00, 0xd7af]] },
  { id: 'kana', label: 'Japanese kana', min: 80, ranges: [[0x3040, 0x30ff]] },
  { id: 'han', label: 'Chinese characters (CJK)', min: 1000, ranges: [[0x3400, 0x4dbf], [0x4e00, 0x9fff]] },
] as const satisfies readonly { id: string; label: string; min: number; ranges: readonly (readonly [number, number])[] }[];
export type FontScript = (typeof FONT_SCRIPTS)[number]['id'];

/** The scripts (FONT_SCRIPTS ids, in its order) that a font drawing `codePoints` covers. */
export function scriptsOf(codePoints: Iterable<number>): FontScript[] {
  const counts = new Map<FontScript, number>();
  for (const cp of codePoints) {
    for (const s of FONT_SCRIPTS) {
      if (s.ranges.some(([lo, hi]) => cp >= lo && cp <= hi)) counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
    }
  }
  return FONT_SCRIPTS.filter((s) => (counts.get(s.id) ?? 0) >= s.min).map((s) => s.id);
}

const int = z.number().int();

export const videoFactsSchema = z.object({
  kind: z.literal('video'),
  /** Seconds. */
  duration: z.number(),
  width: int,
  height: int,
  orientation: z.enum(ORIENTATIONS),
  /** Frames a second (29.97…); null when the file does not say. */
  frame_rate: z.number().nullable(),
  has_sound: z.boolean().nullable(),
  /** The source's container as a MIME type (`video/mp4`, `video/quicktime`, `video/webm`…); null if unknown. */
  encoding_format: z.string().nullable(),
});

export const audioFactsSchema = z.object({
  kind: z.literal('audio'),
  duration: z.number(),
  channels: int.nullable(),
  /** Hz. */
  sample_rate: int.nullable(),
  /** Integrated loudness (EBU R128, LUFS); null when too short or quiet to measure. */
  loudness_lufs: z.number().nullable(),
  encoding_format: z.string().nullable(),
});

export const fontFactsSchema = z.object({
  kind: z.literal('font'),
  family: z.string(),
  /** The style names of the file(s): `Regular`, `Bold Italic`… */
  styles: z.array(z.string()),
  /** usWeightClass of each style, or a variable font's `wght` range as [min, max]. */
  weights: z.array(int),
  glyph_count: int.nullable(),
  /** FONT_SCRIPTS ids. */
  scripts: z.array(z.string()).nullable(),
  /** Variable fonts: their axes by tag (`wght`, `wdth`…); {} for a static font. */
  axes: z.record(z.string(), z.object({ name: z.string(), min: z.number(), default: z.number(), max: z.number() })),
});

export const lutFactsSchema = z.object({
  kind: z.literal('lut'),
  type: z.enum(['1D', '3D']),
  /** Points per side of the grid (33 for a 33 × 33 × 33 cube). */
  grid_size: int,
});

export const imageFactsSchema = z.object({
  kind: z.literal('image-pair'),
  width: int,
  height: int,
  orientation: z.enum(ORIENTATIONS),
});

export const resourceFactsSchema = z.discriminatedUnion('kind', [videoFactsSchema, audioFactsSchema, fontFactsSchema, lutFactsSchema, imageFactsSchema]);
export type ResourceFacts = z.infer<typeof resourceFactsSchema>;

/** A duration in whole seconds as ISO 8601 (`PT1M5S`), as schema.org's `duration` wants. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** A duration as shown: `0:07`, `3:25`, `1:02:03`. */
export function clockDuration(seconds: number): string {
  const t = Math.round(seconds);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
