import { z } from 'zod';
import { text, httpUrl, str, timestamp } from './common';
import { hostedImageSchema, uploadIdSchema } from './files';

/**
 * The owner's settings (issue 29): what a super admin edits in the admin area's Settings, and
 * what the public `GET /api/site` and `GET /api/pages/:page` answer from them. The spec's texts
 * and figures are the defaults (server: modules/settings/defaults.ts). One document, in sections;
 * `PATCH /api/admin/settings` takes any subset of the sections and replaces each section it gets
 * whole (a list, such as `community`, is replaced whole), after validating everything: a bad field
 * saves nothing and answers 400 with the field's path.
 */

export const SETTINGS_LIMITS = {
  name: 60,
  description: 200,
  url: 2048,
  heroLine: 40,
  heroText: 400,
  heading: 120,
  tileTitle: 60,
  tileText: 240,
  cardName: 40,
  cardDescription: 200,
  communityCards: 24,
  quickLinks: 8,
  socials: 12,
  about: 800,
  label: 40,
  suffix: 3,
  copyrightHolder: 80,
  markdown: 100_000,
  /** Saved versions kept and listed. */
  versions: 20,
} as const;

/** Icons a community card or a social link may show: the spec's eight, and a generic one. */
export const COMMUNITY_ICONS = ['whatsapp', 'telegram', 'instagram', 'github', 'linkedin', 'discord', 'youtube', 'twitter', 'generic'] as const;
export const communityIconSchema = z.enum(COMMUNITY_ICONS, { error: 'Choose one of the icons' });
export type CommunityIcon = z.infer<typeof communityIconSchema>;

export const colorSchema = str('Colour').regex(/^#[0-9a-fA-F]{6}$/, { error: 'Colour must be #rrggbb' });

/** A link visitors follow: http(s) only. */
const link = (label: string) => httpUrl(SETTINGS_LIMITS.url, { label });
/** A link that may also be a path on this site (footer quick links). */
const siteLink = (label: string) => httpUrl(SETTINGS_LIMITS.url, { label, allowRelative: true });
/** A contact link: http(s) or mailto:. */
const contactLink = (label: string) =>
  text(SETTINGS_LIMITS.url, { label }).refine((s) => /^mailto:[^\s@]+@[^\s@]+$/i.test(s) || /^https?:\/\/[^\s/]+/i.test(s), {
    error: `${label} must be an http(s) or mailto: link`,
  });

export const STAT_KEYS = ['resources', 'downloads', 'members', 'growth'] as const;
export type StatKey = (typeof STAT_KEYS)[number];
/** Which figures can be live (computed from the database); members cannot (the site cannot know it). */
export const LIVE_STAT_KEYS = ['resources', 'downloads', 'growth'] as const satisfies readonly StatKey[];

const figure = (label: string) => z.number({ error: `${label} must be a number` }).finite().min(0, { error: `${label} cannot be negative` }).max(1e12);

/** One "Our Growing Community" figure as the owner sets it. `live` ignores the typed numbers (kept for switching back). */
export const statSettingSchema = z.strictObject({
  key: z.enum(STAT_KEYS),
  label: text(SETTINGS_LIMITS.label, { label: 'Label' }),
  mode: z.enum(['live', 'fixed']),
  value: figure('Value'),
  suffix: text(SETTINGS_LIMITS.suffix, { label: 'Suffix', min: 0 }),
  daily: figure('Daily'),
  weekly: figure('Weekly'),
  monthly: figure('Monthly'),
});
export type StatSetting = z.infer<typeof statSettingSchema>;

export const communityCardSchema = z.strictObject({
  name: text(SETTINGS_LIMITS.cardName, { label: 'Name' }),
  link: contactLink('Link'),
  color: colorSchema,
  description: text(SETTINGS_LIMITS.cardDescription, { label: 'Description', min: 0 }),
  icon: communityIconSchema,
  hidden: z.boolean(),
});
export type CommunityCard = z.infer<typeof communityCardSchema>;

export const tileSchema = z.strictObject({
  title: text(SETTINGS_LIMITS.tileTitle, { label: 'Tile title' }),
  text: text(SETTINGS_LIMITS.tileText, { label: 'Tile text', min: 0 }),
});

/** Sections as an admin reads and writes them. Images and the video are set by upload (see settingsPatchSchema). */
export const settingsSectionsSchema = z.strictObject({
  site: z.strictObject({
    name: text(SETTINGS_LIMITS.name, { label: 'Site name' }),
    description: text(SETTINGS_LIMITS.description, { label: 'Description' }),
    /** Shown in links where PUBLIC_URL is not set; '' for none. */
    public_url: z.union([z.literal(''), link('Public URL')]),
  }),
  home: z.strictObject({
    hero_badge: text(SETTINGS_LIMITS.heroText, { label: 'Badge', min: 0 }),
    hero_title: z.tuple([text(SETTINGS_LIMITS.heroLine, { label: 'First title line' }), text(SETTINGS_LIMITS.heroLine, { label: 'Second title line', min: 0 })]),
    hero_text: text(SETTINGS_LIMITS.heroText, { label: 'Hero text', min: 0 }),
    hero_button: text(SETTINGS_LIMITS.label, { label: 'Button text' }),
    portfolio_url: link('Portfolio URL'),
    my_website_heading: text(SETTINGS_LIMITS.heading, { label: 'Heading' }),
    my_website_text: text(SETTINGS_LIMITS.heroText, { label: 'Text', min: 0 }),
    tiles: z.tuple([tileSchema, tileSchema]),
  }),
  community: z.array(communityCardSchema).max(SETTINGS_LIMITS.communityCards, { error: `At most ${SETTINGS_LIMITS.communityCards} community cards` }),
  footer: z.strictObject({
    about: text(SETTINGS_LIMITS.about, { label: 'About text', min: 0, multiline: true }),
    quick_links: z
      .array(z.strictObject({ label: text(SETTINGS_LIMITS.label, { label: 'Label' }), href: siteLink('Link') }))
      .max(SETTINGS_LIMITS.quickLinks),
    socials: z
      .array(z.strictObject({ label: text(SETTINGS_LIMITS.cardName, { label: 'Label' }), icon: communityIconSchema, link: contactLink('Link') }))
      .max(SETTINGS_LIMITS.socials),
    source_code_url: z.union([z.literal(''), link('Source code link')]),
    copyright_start_year: z.number().int().min(1970).max(9999),
    copyright_holder: text(SETTINGS_LIMITS.copyrightHolder, { label: 'Copyright holder', min: 0 }),
  }),
  stats: z
    .array(statSettingSchema)
    .length(STAT_KEYS.length)
    .refine((s) => STAT_KEYS.every((k, i) => s[i]?.key === k), { error: 'The four figures, in order' })
    .refine((s) => s.every((x) => x.mode === 'fixed' || (LIVE_STAT_KEYS as readonly string[]).includes(x.key)), { error: 'Community Members cannot be live' }),
  legal: z.strictObject({
    privacy: str('Privacy Policy', { multiline: true }).max(SETTINGS_LIMITS.markdown),
    terms: str('Terms of Service', { multiline: true }).max(SETTINGS_LIMITS.markdown),
  }),
});
export type SettingsSections = z.infer<typeof settingsSectionsSchema>;
export type SettingsSection = keyof SettingsSections;
export const SETTINGS_SECTIONS = Object.keys(settingsSectionsSchema.shape) as SettingsSection[];

/** Uploaded media the owner sets: null for the built-in default. */
export const siteMediaSchema = z.object({
  logo: hostedImageSchema.nullable(),
  /** Favicon sizes made from one image: `/media/<hash>.png` per size, plus the SVG/ICO fallback the server keeps. */
  favicon: z.object({ icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.string() })) }).nullable(),
  /** The processed promo video (muted, fast-start) and its poster; null while none is ready (a new upload's keeps the last ready one until it is). */
  promo_video: z.object({ mp4: z.string(), webm: z.string().nullable(), poster: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
  /** A promo video upload still being processed, or why the last one failed. */
  promo_video_job: z.object({ state: z.enum(['processing', 'failed']), error: z.string().nullable() }).nullable(),
});
export type SiteMedia = z.infer<typeof siteMediaSchema>;

/** GET /api/admin/settings (super admins). */
export const adminSettingsSchema = settingsSectionsSchema.extend({
  media: siteMediaSchema,
  /** When the legal pages were last changed (ISO), shown as "Last updated". */
  legal_updated_at: z.object({ privacy: timestamp, terms: timestamp }),
  /** The current version's id: a PATCH may send it back as `base_version` to refuse overwriting someone else's save (409). */
  version: z.number().int(),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

/**
 * PATCH /api/admin/settings: any subset of the sections, each replaced whole; media by finished
 * tus upload (purpose `thumbnail` for images; `download` for the video) or `null` to go back to the
 * default. Unknown fields are refused.
 */
export const settingsPatchSchema = settingsSectionsSchema
  .partial()
  .extend({
    logo_upload_id: uploadIdSchema.nullable().optional(),
    favicon_upload_id: uploadIdSchema.nullable().optional(),
    promo_video_upload_id: uploadIdSchema.nullable().optional(),
    base_version: z.number().int().optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

/** One saved version (the last SETTINGS_LIMITS.versions): who, when, what changed. */
export const settingsVersionSchema = z.object({
  id: z.number().int(),
  saved_at: timestamp,
  /** The admin who saved it; null when that admin was deleted. */
  admin: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  /** The sections (and media slots) this save changed, e.g. ['community', 'logo']. */
  changed: z.array(z.string()),
  /** Set when this version was made by restoring an older one. */
  restored_from: z.number().int().nullable(),
});
export type SettingsVersion = z.infer<typeof settingsVersionSchema>;
export const settingsVersionListSchema = z.object({ items: z.array(settingsVersionSchema) });
/** GET /api/admin/settings/versions/:id: the sections as they were after that save (to compare before restoring). */
export const settingsVersionDetailSchema = settingsVersionSchema.extend({ sections: settingsSectionsSchema });

/** GET /api/pages/:page for page in LEGAL_PAGES: the Markdown rendered and sanitised by the server. */
export const LEGAL_PAGES = ['privacy', 'terms'] as const;
export type LegalPageKey = (typeof LEGAL_PAGES)[number];
export const legalPageSchema = z.object({ title: z.string(), html: z.string(), updated_at: timestamp });
export type LegalPage = z.infer<typeof legalPageSchema>;
/** POST /api/admin/settings/preview-markdown: the editor's preview, rendered exactly as the page will be. */
export const markdownPreviewBodySchema = z.strictObject({ markdown: str('Markdown', { multiline: true }).max(SETTINGS_LIMITS.markdown) });
export const markdownPreviewSchema = z.object({ html: z.string() });
